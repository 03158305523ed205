//! One GraphQL request that reads several small files of a commit at once (pure half).
//!
//! Why: hints need the repository's build files (`go.mod`, `Cargo.toml`, `tsconfig.json`,
//! `package.json`, …) and `.gitattributes` at the pull request's head, and the reference's budget
//! for a first read (ceil(files/100) + 4 GitHub requests) leaves room for one request, not one per
//! file. GraphQL's `object(expression: "sha:path")` takes any number of paths in one query; an
//! absent path is `null`.
//! Expressions travel as variables, never spliced into the query text, so a file name can't change
//! the query.
//!
//! What not: no other GraphQL queries, no paging (each file is one field).

use serde_json::Value;

use crate::json::{DecodeError, FromJson};

/// The GraphQL endpoint, relative to the API base.
pub const PATH: &str = "/graphql";

/// The request body that reads `files` at commit `sha` of `owner/repo`.
pub fn blobs_request(owner: &str, repo: &str, sha: &str, files: &[String]) -> String {
    // Written by hand rather than with `json!`: the one shape we send needs no JSON builder.
    let quote = |text: &str| Value::String(text.to_string()).to_string();
    let mut declarations = String::from("$owner:String!,$name:String!");
    let mut fields = String::new();
    let mut variables = format!("\"owner\":{},\"name\":{}", quote(owner), quote(repo));
    for (at, file) in files.iter().enumerate() {
        declarations.push_str(&format!(",$e{at}:String!"));
        fields.push_str(&format!(
            "f{at}:object(expression:$e{at}){{...on Blob{{text}}}} "
        ));
        variables.push_str(&format!(",\"e{at}\":{}", quote(&format!("{sha}:{file}"))));
    }
    let query = format!("query({declarations}){{repository(owner:$owner,name:$name){{{fields}}}}}");
    format!(
        "{{\"query\":{},\"variables\":{{{variables}}}}}",
        quote(&query)
    )
}

/// The answer to [`blobs_request`]: each file's text in request order, `None` when absent,
/// binary or a directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blobs {
    pub texts: Vec<Option<String>>,
    /// GraphQL's own error messages (the request as a whole still succeeded).
    pub errors: Vec<String>,
}

impl FromJson for Blobs {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let errors: Vec<String> = value
            .get("errors")
            .and_then(Value::as_array)
            .map(|errors| {
                errors
                    .iter()
                    .filter_map(|error| error.get("message").and_then(Value::as_str))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let repository = value.get("data").and_then(|data| data.get("repository"));
        let Some(Value::Object(fields)) = repository else {
            return match errors.first() {
                Some(message) => Err(DecodeError::new(format!("graphql: {message}"))),
                None => Err(DecodeError::new("data.repository is missing")),
            };
        };
        let mut texts = Vec::new();
        for at in 0.. {
            let Some(field) = fields.get(&format!("f{at}")) else {
                break;
            };
            texts.push(
                field
                    .get("text")
                    .and_then(Value::as_str)
                    .map(str::to_string),
            );
        }
        Ok(Blobs { texts, errors })
    }
}

#[cfg(test)]
mod tests {
    use super::{blobs_request, Blobs};

    #[test]
    fn request_carries_paths_as_variables() {
        let body = blobs_request("acme", "app", "abc", &["go.mod".into(), "a\"b/x".into()]);
        let value: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
        let query = value["query"].as_str().unwrap_or("");
        assert!(query.starts_with("query($owner:String!,$name:String!,$e0:String!,$e1:String!)"));
        assert!(query.contains("f1:object(expression:$e1){...on Blob{text}}"));
        assert!(!query.contains("go.mod"));
        assert_eq!(value["variables"]["e1"], "abc:a\"b/x");
        assert_eq!(value["variables"]["owner"], "acme");
    }

    #[test]
    fn reads_texts_in_order() {
        let blobs: Result<Blobs, _> = crate::json::decode(
            r#"{"data":{"repository":{"f0":{"text":"module x"},"f1":null,"f2":{}}}}"#,
        );
        assert_eq!(
            blobs.map(|b| b.texts),
            Ok(vec![Some("module x".to_string()), None, None])
        );
        let failed: Result<Blobs, _> =
            crate::json::decode(r#"{"data":null,"errors":[{"message":"Bad"}]}"#);
        assert!(failed.is_err());
    }
}
