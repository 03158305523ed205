//! One GraphQL request that reads several small files of a commit at once (pure half).
//!
//! Why: hints need the repository's build files (`go.mod`, `Cargo.toml`, `tsconfig.json`,
//! `package.json`, …) and `.gitattributes` at the pull request's head, and the reference's budget
//! for a first read (ceil(files/100) + 4 GitHub requests) leaves room for one request, not one per
//! file. GraphQL's `object(expression: "sha:path")` takes any number of paths in one query; an
//! absent path is `null`.
//! Names and paths are written as escaped string literals (JSON's escaping is GraphQL's), so a
//! file name can't change the query.
//!
//! What not: no other GraphQL queries, no paging (each file is one field).

use serde_json::Value;

use crate::github::api::GitHubError;

/// The GraphQL endpoint, relative to the API base.
pub const PATH: &str = "/graphql";

/// The request body that reads `files` at commit `sha` of `owner/repo`.
pub fn blobs_request(owner: &str, repo: &str, sha: &str, files: &[String]) -> String {
    let mut query = format!(
        "{{repository(owner:{},name:{}){{",
        quote(owner),
        quote(repo)
    );
    for (at, file) in files.iter().enumerate() {
        let expression = quote(&format!("{sha}:{file}"));
        query.push_str(&format!(
            "f{at}:object(expression:{expression}){{...on Blob{{text}}}} "
        ));
    }
    query.push_str("}}");
    format!("{{\"query\":{}}}", quote(&query))
}

/// A string literal: JSON's escaping is valid GraphQL string escaping, so no name can end the
/// literal early and change the query.
fn quote(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}

/// The answer to [`blobs_request`]: each file's text in request order, `None` when absent,
/// binary, a directory or refused (GraphQL's partial errors leave the field `null`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blobs {
    pub texts: Vec<Option<String>>,
}

impl Blobs {
    /// Reads GraphQL's answer. GraphQL refuses with a 200 and `errors`: a rate limit is
    /// `RateLimited` (it passes), a repository the token can't see `NotFound` (it lasts), an
    /// answer that isn't JSON `Malformed`.
    pub fn parse(text: &str) -> Result<Blobs, GitHubError> {
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            return Err(GitHubError::Malformed("graphql: not JSON".to_string()));
        };
        let Some(Value::Object(fields)) = value.get("data").and_then(|data| data.get("repository"))
        else {
            let kind = value.pointer("/errors/0/type").and_then(Value::as_str);
            return Err(if kind == Some("RATE_LIMITED") {
                GitHubError::RateLimited {
                    retry_after_seconds: None,
                }
            } else {
                GitHubError::NotFound
            });
        };
        let mut texts = Vec::new();
        while let Some(field) = fields.get(&format!("f{}", texts.len())) {
            texts.push(
                field
                    .get("text")
                    .and_then(Value::as_str)
                    .map(str::to_string),
            );
        }
        Ok(Blobs { texts })
    }
}

#[cfg(test)]
mod tests {
    use super::{blobs_request, Blobs};
    use crate::github::api::GitHubError;

    #[test]
    fn request_quotes_every_name() {
        let body = blobs_request("acme", "app", "abc", &["go.mod".into(), "a\"b}/x".into()]);
        let value: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
        let query = value["query"].as_str().unwrap_or("");
        assert_eq!(
            query,
            "{repository(owner:\"acme\",name:\"app\"){\
             f0:object(expression:\"abc:go.mod\"){...on Blob{text}} \
             f1:object(expression:\"abc:a\\\"b}/x\"){...on Blob{text}} }}"
        );
    }

    #[test]
    fn reads_texts_in_order() {
        let blobs =
            Blobs::parse(r#"{"data":{"repository":{"f0":{"text":"module x"},"f1":null,"f2":{}}}}"#);
        assert_eq!(
            blobs.map(|b| b.texts),
            Ok(vec![Some("module x".to_string()), None, None])
        );
        let hidden =
            Blobs::parse(r#"{"data":{"repository":null},"errors":[{"type":"NOT_FOUND"}]}"#);
        assert_eq!(hidden, Err(GitHubError::NotFound));
        let limited = Blobs::parse(
            r#"{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded"}]}"#,
        );
        assert!(matches!(limited, Err(GitHubError::RateLimited { .. })));
        assert!(matches!(
            Blobs::parse("not json"),
            Err(GitHubError::Malformed(_))
        ));
    }
}
