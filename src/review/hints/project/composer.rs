//! The PSR-4 maps of a `composer.json`: which directory a namespace prefix lives in.
//!
//! Why: a library maps its vendor prefix to its source folder (`"Acme\\Http\\": "src/"`), so
//! `use Acme\Http\Client;` names `src/Client.php`, a path no suffix of the name reaches (issue
//! #39, measured on composer projects).
//! Read: `autoload.psr-4` and `autoload-dev.psr-4`, each value a directory or a list of them.
//!
//! What not: no PSR-0, `classmap` or `files` autoloading, no packages under `vendor/`.

use serde_json::Value;

use crate::review::hints::paths;

/// `(namespace prefix with its trailing `\`, directory from the repository root)` pairs of a
/// `composer.json` in `dir`; `None` when it isn't JSON.
pub fn psr4(dir: &str, text: &str) -> Option<Vec<(String, String)>> {
    let value: Value = serde_json::from_str(text).ok()?;
    let mut maps = Vec::new();
    for section in ["autoload", "autoload-dev"] {
        let Some(Value::Object(map)) = value.get(section).and_then(|s| s.get("psr-4")) else {
            continue;
        };
        for (prefix, dirs) in map {
            let dirs: Vec<&str> = match dirs {
                Value::String(one) => vec![one.as_str()],
                Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            for target in dirs {
                if let Some(joined) = paths::join(dir, target) {
                    maps.push((prefix.clone(), joined));
                }
            }
        }
    }
    Some(maps)
}

#[cfg(test)]
mod tests {
    use super::psr4;

    #[test]
    fn reads_both_sections() {
        let text = r#"{"name": "acme/http",
            "autoload": {"psr-4": {"Acme\\Http\\": "src/", "Acme\\Util\\": ["lib/", "extra/"]}},
            "autoload-dev": {"psr-4": {"Acme\\Http\\Tests\\": "tests/"}}}"#;
        let got = psr4("packages/http", text).unwrap_or_default();
        assert_eq!(
            got,
            [
                ("Acme\\Http\\".to_string(), "packages/http/src".to_string()),
                ("Acme\\Util\\".to_string(), "packages/http/lib".to_string()),
                (
                    "Acme\\Util\\".to_string(),
                    "packages/http/extra".to_string()
                ),
                (
                    "Acme\\Http\\Tests\\".to_string(),
                    "packages/http/tests".to_string()
                ),
            ]
        );
        assert_eq!(psr4("", "{ not json"), None);
        assert_eq!(psr4("", "{\"autoload\": {\"psr-4\": 3}}"), Some(Vec::new()));
    }
}
