//! Who a tool call acts for: the person, their GitHub token, and what their grant allows.

use std::fmt;

/// The authenticated person behind a request.
#[derive(Clone, PartialEq, Eq)]
pub struct Caller {
    /// Stable person id: `gh:<GitHub user id>`, or `local:<login>` in local development.
    pub person: String,
    /// GitHub login, shown in `updatedBy`.
    pub login: String,
    /// The person's own GitHub token; never shared, never logged, never returned.
    pub github_token: String,
    /// True when the grant includes saving orders and diagrams.
    pub may_write: bool,
    /// The OAuth client's name, used for `updatedBy` when the request does not name its client.
    pub client_name: Option<String>,
}

impl fmt::Debug for Caller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Caller")
            .field("person", &self.person)
            .field("login", &self.login)
            .field("github_token", &"[redacted]")
            .field("may_write", &self.may_write)
            .field("client_name", &self.client_name)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_redacts_the_token() {
        let caller = Caller {
            person: "gh:1".into(),
            login: "octo".into(),
            github_token: "gho_secret".into(),
            may_write: true,
            client_name: None,
        };
        assert!(!format!("{caller:?}").contains("gho_secret"));
    }
}
