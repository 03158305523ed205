//! The Worker's configuration, read once per request from its vars and secrets.
//!
//! Pure data; `from_env` is the only part that names `worker` and is compiled for wasm only.

/// Settings from `wrangler.toml` vars and Worker secrets.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Config {
    /// GitHub's REST API base, `https://api.github.com` in production.
    pub github_api_url: String,
    /// GitHub's web base for OAuth, `https://github.com` in production.
    pub github_oauth_url: String,
    /// Local development: loopback requests without a token act as the local user.
    pub local_dev: bool,
    /// The local user's GitHub token (`.dev.vars`), used only when `local_dev` is on.
    pub local_github_token: Option<String>,
    /// The local user's GitHub login, shown in `updatedBy` in local development.
    pub local_github_login: Option<String>,
    /// Browser origins allowed to call `/mcp` besides the server's own.
    pub allowed_origins: Vec<String>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("github_api_url", &self.github_api_url)
            .field("github_oauth_url", &self.github_oauth_url)
            .field("local_dev", &self.local_dev)
            .field(
                "local_github_token",
                &self.local_github_token.as_ref().map(|_| "[redacted]"),
            )
            .field("allowed_origins", &self.allowed_origins)
            .finish()
    }
}

/// Splits a comma-separated list, dropping blanks.
pub fn split_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(target_arch = "wasm32")]
impl Config {
    pub fn from_env(env: &worker::Env) -> Config {
        let text = |name: &str| {
            env.var(name)
                .map(|v| v.to_string())
                .or_else(|_| env.secret(name).map(|v| v.to_string()))
                .ok()
                .filter(|v| !v.trim().is_empty())
        };
        Config {
            github_api_url: text("GITHUB_API_URL")
                .unwrap_or_else(|| "https://api.github.com".into())
                .trim_end_matches('/')
                .to_string(),
            github_oauth_url: text("GITHUB_OAUTH_URL")
                .unwrap_or_else(|| "https://github.com".into())
                .trim_end_matches('/')
                .to_string(),
            local_dev: text("LOCAL_DEV").is_some_and(|v| v != "0" && v != "false"),
            local_github_token: text("LOCAL_GITHUB_TOKEN"),
            local_github_login: text("LOCAL_GITHUB_LOGIN"),
            allowed_origins: text("ALLOWED_ORIGINS")
                .map(|v| split_list(&v))
                .unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists() {
        assert_eq!(
            split_list(" a, ,b ,"),
            vec!["a".to_string(), "b".to_string()]
        );
        assert!(split_list("").is_empty());
    }

    #[test]
    fn debug_redacts_the_token() {
        let config = Config {
            local_github_token: Some("gho_x".into()),
            ..Config::default()
        };
        assert!(!format!("{config:?}").contains("gho_x"));
    }
}
