//! Reading tool arguments from a `serde_json::Value` while collecting every problem with its path.
//!
//! Why: an agent fixes a rejected save faster when one answer lists every problem, each naming the
//! exact place (`sections[2].files[0].focus`) and what was found there. Serde's derive stops at the
//! first error and words it for programmers, so order and diagram validation walk the JSON
//! themselves with these helpers. `review::diagram` uses them too.
//!
//! What not: no limits or rules of their own beyond "this key holds a string/array/object"; the
//! callers decide lengths and allowed values. Optional fields that hold `null` count as absent,
//! because many agents send `null` for "not set".

use serde_json::{Map, Value};

/// Longest quoted value shown back in a problem, in characters.
const SHOWN_MAX_CHARS: usize = 60;

/// The path of `key` inside the object at `path`.
pub(crate) fn field(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The path of item `index` of the array at `path`.
pub(crate) fn item(path: &str, index: usize) -> String {
    format!("{path}[{index}]")
}

/// JSON's name for the kind of `value`, as problems show it.
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A string from the input, quoted as JSON (so control characters are escaped) and cut to
/// [`SHOWN_MAX_CHARS`] characters.
pub(crate) fn shown(text: &str) -> String {
    let cut: String = if text.chars().nth(SHOWN_MAX_CHARS).is_some() {
        let mut cut: String = text.chars().take(SHOWN_MAX_CHARS - 1).collect();
        cut.push('…');
        cut
    } else {
        text.to_string()
    };
    serde_json::to_string(&cut).unwrap_or_default()
}

/// A value as "got …" shows it: strings quoted, everything else by its kind.
pub(crate) fn got(value: &Value) -> String {
    match value {
        Value::String(text) => shown(text),
        other => type_name(other).to_string(),
    }
}

/// A path or id named in a problem: control characters become spaces and long text is cut to its
/// first 200 characters, so a hostile name can't flood or break the message.
pub(crate) fn plain(text: &str) -> String {
    const MAX: usize = 200;
    let mut out: String = text
        .chars()
        .take(MAX)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

/// Renders `items` as `a, b and c`, naming at most `max` of them and counting the rest.
pub(crate) fn join_names(items: &[String], max: usize) -> String {
    let shown_count = items.len().min(max.max(1));
    let head = items.get(..shown_count).unwrap_or(items);
    let rest = items.len() - head.len();
    if rest > 0 {
        return format!("{} and {rest} more", head.join(", "));
    }
    match head {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Renders `items` as `a, b, c`, naming at most `max` of them and counting the rest
/// (`a, b and 3 more`); the form of coverage problems such as `missing: a.ts, b.ts`.
pub(crate) fn comma_names(items: &[String], max: usize) -> String {
    let head = items.get(..max.max(1)).unwrap_or(items);
    let rest = items.len() - head.len();
    if rest > 0 {
        format!("{} and {rest} more", head.join(", "))
    } else {
        head.join(", ")
    }
}

/// Collects problems while the caller walks the input.
#[derive(Debug, Default)]
pub(crate) struct Problems {
    pub list: Vec<String>,
}

impl Problems {
    pub fn push(&mut self, problem: String) {
        self.list.push(problem);
    }

    /// The object at `path`, or a problem. `what` names the value when `path` is empty.
    pub fn object<'v>(&mut self, value: &'v Value, path: &str) -> Option<&'v Map<String, Value>> {
        match value {
            Value::Object(map) => Some(map),
            other => {
                let name = if path.is_empty() { "the input" } else { path };
                self.push(format!(
                    "{name} must be an object, got {}",
                    type_name(other)
                ));
                None
            }
        }
    }

    /// Reports every key of `map` that isn't in `allowed` (nor in `tolerated`, keys that belong to
    /// someone else and are skipped silently).
    pub fn unknown_keys(
        &mut self,
        map: &Map<String, Value>,
        path: &str,
        allowed: &[&str],
        tolerated: &[&str],
    ) {
        for key in map.keys() {
            let key = key.as_str();
            if !allowed.contains(&key) && !tolerated.contains(&key) {
                let name = if path.is_empty() { "the input" } else { path };
                self.push(format!(
                    "{name} has an unknown key {} (allowed: {})",
                    shown(key),
                    allowed.join(", ")
                ));
            }
        }
    }

    /// An optional string of at most `max` characters. `null` counts as absent.
    pub fn optional_string<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        path: &str,
        key: &str,
        max: usize,
    ) -> Option<&'v str> {
        match map.get(key) {
            None | Some(Value::Null) => None,
            Some(value) => self.string(value, &field(path, key), 0, max),
        }
    }

    /// A required string with `min`..=`max` characters; a blank string is "empty" when `min > 0`.
    pub fn required_string<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        path: &str,
        key: &str,
        min: usize,
        max: usize,
    ) -> Option<&'v str> {
        match map.get(key) {
            None => {
                self.push(format!("{} is required", field(path, key)));
                None
            }
            Some(value) => self.string(value, &field(path, key), min, max),
        }
    }

    /// The string `value` at `path`, checked for length in characters. With `min > 0`, an empty
    /// string, or one of only whitespace and bidirectional controls (which the stored order drops,
    /// issue 36: it would be stored empty), is reported as "is empty" (and still returned, so
    /// later checks can run on it).
    pub fn string<'v>(
        &mut self,
        value: &'v Value,
        path: &str,
        min: usize,
        max: usize,
    ) -> Option<&'v str> {
        let Value::String(text) = value else {
            self.push(format!("{path} must be a string, got {}", type_name(value)));
            return None;
        };
        let blank = |c: char| c.is_whitespace() || crate::unicode::is_bidi_control(c);
        if min > 0 && text.chars().all(blank) {
            self.push(format!("{path} is empty"));
            return Some(text);
        }
        let count = text.chars().count();
        if count > max {
            self.push(format!(
                "{path} must be at most {max} characters, got {count}"
            ));
        } else if count < min {
            self.push(format!(
                "{path} must be at least {min} characters, got {count}"
            ));
        }
        Some(text)
    }

    /// An optional array. `null` counts as absent.
    pub fn optional_array<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        path: &str,
        key: &str,
    ) -> Option<&'v Vec<Value>> {
        match map.get(key) {
            None | Some(Value::Null) => None,
            Some(value) => self.array(value, &field(path, key)),
        }
    }

    /// The array `value` at `path`, or a problem.
    pub fn array<'v>(&mut self, value: &'v Value, path: &str) -> Option<&'v Vec<Value>> {
        match value {
            Value::Array(items) => Some(items),
            other => {
                self.push(format!("{path} must be an array, got {}", type_name(other)));
                None
            }
        }
    }

    /// One of `names` (the spellings of an enum), or a problem listing them.
    pub fn one_of<T: Copy>(&mut self, value: &Value, path: &str, names: &[(&str, T)]) -> Option<T> {
        let found = value
            .as_str()
            .and_then(|text| names.iter().find(|(name, _)| *name == text));
        if let Some((_, parsed)) = found {
            return Some(*parsed);
        }
        let spellings: Vec<String> = names.iter().map(|(name, _)| name.to_string()).collect();
        let expected = match spellings.split_last() {
            Some((last, init)) if !init.is_empty() => format!("{} or {last}", init.join(", ")),
            _ => spellings.join(""),
        };
        self.push(format!("{path} must be {expected}, got {}", got(value)));
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{comma_names, join_names, plain, shown, Problems};
    use serde_json::json;

    #[test]
    fn shown_quotes_and_cuts() {
        assert_eq!(shown("hot"), "\"hot\"");
        assert_eq!(shown("a\nb"), "\"a\\nb\"");
        let long = "x".repeat(100);
        assert_eq!(shown(&long), format!("\"{}…\"", "x".repeat(59)));
    }

    #[test]
    fn plain_strips_controls_and_cuts() {
        assert_eq!(plain("a\u{7}b"), "a b");
        assert_eq!(plain(&"é".repeat(300)).chars().count(), 201);
    }

    #[test]
    fn names_are_joined() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(join_names(&names[..0], 5), "");
        assert_eq!(join_names(&names[..1], 5), "a");
        assert_eq!(join_names(&names[..2], 5), "a and b");
        assert_eq!(join_names(&names, 5), "a, b and c");
        assert_eq!(join_names(&names, 2), "a, b and 1 more");
        assert_eq!(comma_names(&names, 5), "a, b, c");
        assert_eq!(comma_names(&names, 2), "a, b and 1 more");
    }

    #[test]
    fn strings_are_counted_in_characters() {
        let mut problems = Problems::default();
        let value = json!("éé");
        assert_eq!(problems.string(&value, "x", 1, 2), Some("éé"));
        assert!(problems.list.is_empty());
        problems.string(&value, "x", 1, 1);
        problems.string(&json!("  "), "y", 1, 1);
        problems.string(&json!(3), "z", 1, 1);
        assert_eq!(
            problems.list,
            [
                "x must be at most 1 characters, got 2",
                "y is empty",
                "z must be a string, got number"
            ]
        );
    }
}
