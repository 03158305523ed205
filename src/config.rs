//! The Worker's configuration, read once per isolate from its vars and secrets.
//!
//! Pure: [`Config::from_vars`] reads the settings through a lookup of names, so the defaults and
//! limits are tested natively; the adapter `bindings` gives it the Worker's vars and secrets.

/// The default per-attempt time limit of a request to GitHub, in milliseconds.
pub const DEFAULT_GITHUB_TIMEOUT_MS: u64 = 10_000;

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
    /// The GitHub OAuth App's or GitHub App's client id (`GITHUB_CLIENT_ID`, var or secret).
    pub github_client_id: Option<String>,
    /// Its client secret (secret `GITHUB_CLIENT_SECRET`).
    pub github_client_secret: Option<String>,
    /// The key GitHub tokens are encrypted with at rest (secret `TOKEN_ENCRYPTION_KEY`,
    /// 32 or more random bytes, e.g. `openssl rand -base64 32`).
    pub token_encryption_key: Option<String>,
    /// MCP requests per person per minute (`RATE_LIMIT_PER_MINUTE`, default 120).
    pub rate_limit_per_minute: u32,
    /// Requests per address per minute to `/authorize`, `/oauth/token` and `/oauth/register`
    /// (`ADDRESS_RATE_LIMIT_PER_MINUTE`, default 60).
    pub address_rate_limit_per_minute: u32,
    /// Where the per-address limit reads a client's address (`CLIENT_ADDRESS`: `edge` on a
    /// deployed Worker, `socket` under `wrangler dev`; see
    /// [`crate::oauth::rate_limit::ClientAddress`]).
    pub client_address: crate::oauth::rate_limit::ClientAddress,
    /// Pull requests whose ticks one "Delete my data" request deletes (`DELETE_BATCH_PULLS`,
    /// 1 to 40, default 40: a Worker request's subrequests are limited; tests lower it).
    pub delete_batch_pulls: usize,
    /// Access token lifetime in seconds (`ACCESS_TOKEN_TTL_SECONDS`, default and at most 3600;
    /// tests lower it).
    pub access_token_ttl_seconds: u64,
    /// Accept `http://127.0.0.1:PORT/…` Client ID Metadata Document URLs
    /// (`ALLOW_LOOPBACK_CLIENT_METADATA=1`; end-to-end tests only).
    pub allow_loopback_client_metadata: bool,
    /// Per-attempt time limit of every request to GitHub, API and OAuth alike
    /// (`GITHUB_TIMEOUT_MS`, default [`DEFAULT_GITHUB_TIMEOUT_MS`]; tests lower it).
    pub github_timeout_ms: u64,
    /// The largest KV value a snapshot is written in (`KV_PART_BYTES`, default and at most
    /// [`crate::kv_parts::DEFAULT_PART_BYTES`], under KV's 25 MiB); larger snapshots are
    /// written in parts. The tests lower it to exercise the parts.
    pub kv_part_bytes: usize,
    /// `/__crash` panics on purpose (`CRASH_TEST=1`, and only in local development; the
    /// recovery test).
    pub crash_test: bool,
    /// The server's public origin (`PUBLIC_URL`, e.g. `https://logikflow.example.com`), read as
    /// an `http(s)` origin; `None` when unset or not one. See [`Config::base_url`].
    pub public_url: Option<String>,
    /// The token tag key, derived from `token_encryption_key` (see [`Config::token_tag_key`]).
    tag_key: Option<crate::oauth::tokens::TagKey>,
    /// The pages' CSRF token key (see [`Config::session_key`]).
    session_key: Option<crate::security::browser_post::SessionKey>,
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
            .field("github_client_id", &self.github_client_id)
            .field(
                "github_client_secret",
                &self.github_client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field(
                "token_encryption_key",
                &self.token_encryption_key.as_ref().map(|_| "[redacted]"),
            )
            .field("rate_limit_per_minute", &self.rate_limit_per_minute)
            .field(
                "address_rate_limit_per_minute",
                &self.address_rate_limit_per_minute,
            )
            .field("client_address", &self.client_address)
            .field("delete_batch_pulls", &self.delete_batch_pulls)
            .field("access_token_ttl_seconds", &self.access_token_ttl_seconds)
            .field(
                "allow_loopback_client_metadata",
                &self.allow_loopback_client_metadata,
            )
            .field("public_url", &self.public_url)
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

impl Config {
    /// The configuration from `var`, which looks a var or secret up by name (`None` when unset).
    /// A blank value counts as unset; a value out of range falls back to its default.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Config {
        let text = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let token_encryption_key = text("TOKEN_ENCRYPTION_KEY");
        let local_dev = text("LOCAL_DEV").is_some_and(|v| v != "0" && v != "false");
        let local_github_token = text("LOCAL_GITHUB_TOKEN");
        Config {
            session_key: session_secret(
                token_encryption_key.as_deref(),
                local_dev,
                local_github_token.as_deref(),
            )
            .map(crate::security::browser_post::SessionKey::derive),
            github_api_url: text("GITHUB_API_URL")
                .unwrap_or_else(|| "https://api.github.com".into())
                .trim_end_matches('/')
                .to_string(),
            github_oauth_url: text("GITHUB_OAUTH_URL")
                .unwrap_or_else(|| "https://github.com".into())
                .trim_end_matches('/')
                .to_string(),
            local_dev,
            local_github_token,
            local_github_login: text("LOCAL_GITHUB_LOGIN"),
            allowed_origins: text("ALLOWED_ORIGINS")
                .map(|v| split_list(&v))
                .unwrap_or_default(),
            github_client_id: text("GITHUB_CLIENT_ID"),
            github_client_secret: text("GITHUB_CLIENT_SECRET"),
            tag_key: token_encryption_key
                .as_deref()
                .map(crate::oauth::tokens::TagKey::derive),
            token_encryption_key,
            rate_limit_per_minute: crate::oauth::rate_limit::parse_limit(
                text("RATE_LIMIT_PER_MINUTE").as_deref(),
                crate::oauth::rate_limit::DEFAULT_PER_PERSON,
            ),
            delete_batch_pulls: text("DELETE_BATCH_PULLS")
                .and_then(|v| v.trim().parse::<usize>().ok())
                .map_or(crate::person_data::PULLS_PER_REQUEST, |n| {
                    n.clamp(1, crate::person_data::PULLS_PER_REQUEST)
                }),
            client_address: crate::oauth::rate_limit::ClientAddress::parse(
                text("CLIENT_ADDRESS").as_deref(),
                text("LOCAL_DEV").is_some_and(|v| v != "0" && v != "false"),
            ),
            address_rate_limit_per_minute: crate::oauth::rate_limit::parse_limit(
                text("ADDRESS_RATE_LIMIT_PER_MINUTE").as_deref(),
                crate::oauth::rate_limit::DEFAULT_PER_ADDRESS,
            ),
            access_token_ttl_seconds: access_ttl(text("ACCESS_TOKEN_TTL_SECONDS").as_deref()),
            allow_loopback_client_metadata: text("ALLOW_LOOPBACK_CLIENT_METADATA")
                .is_some_and(|v| v == "1" || v == "true"),
            github_timeout_ms: positive(text("GITHUB_TIMEOUT_MS").as_deref(), u64::MAX)
                .unwrap_or(DEFAULT_GITHUB_TIMEOUT_MS),
            kv_part_bytes: positive(
                text("KV_PART_BYTES").as_deref(),
                crate::kv_parts::DEFAULT_PART_BYTES as u64,
            )
            .map_or(crate::kv_parts::DEFAULT_PART_BYTES, |bytes| bytes as usize),
            crash_test: text("CRASH_TEST").is_some_and(|v| v == "1"),
            public_url: text("PUBLIC_URL").and_then(|v| public_origin(&v)),
        }
    }

    /// The origin every URL the server names is built on (the protected-resource metadata, the
    /// authorization server's `issuer`, `WWW-Authenticate`'s `resource_metadata`, the token
    /// audience, review links): `PUBLIC_URL` when it is set, so a request's `Host` can't make
    /// them name another host (issue #44); the request's own origin when it is not, and always
    /// for a loopback host, so local development is as it was.
    pub fn base_url(&self, request: &url::Url) -> String {
        let own = crate::http::origin_of(request);
        match &self.public_url {
            Some(public) if !crate::http::is_loopback_host(request.host_str().unwrap_or("")) => {
                public.clone()
            }
            _ => own,
        }
    }
}

/// `text` as an origin (`https://host[:port]`) when it is an `http` or `https` URL with a host
/// and nothing after it but `/`; `None` otherwise, so a mistyped value leaves the request's
/// origin in use rather than naming a wrong one.
fn public_origin(text: &str) -> Option<String> {
    let url = url::Url::parse(text.trim()).ok()?;
    let plain = matches!(url.scheme(), "http" | "https")
        && url.host_str().is_some_and(|host| !host.is_empty())
        && url.path() == "/"
        && url.query().is_none()
        && url.fragment().is_none()
        && url.username().is_empty()
        && url.password().is_none();
    plain.then(|| crate::http::origin_of(&url))
}

/// The secret the pages' CSRF key is derived from: `TOKEN_ENCRYPTION_KEY`, the deployment's one
/// secret, which every sign-in needs anyway. Local development may run without it (no sign-in:
/// loopback requests act as the local user); there the local user's GitHub token, which only
/// the person running it holds, stands in. Anywhere else, none: every form is refused, and
/// nobody could be signed in to post one.
fn session_secret<'a>(
    token_encryption_key: Option<&'a str>,
    local_dev: bool,
    local_github_token: Option<&'a str>,
) -> Option<&'a str> {
    token_encryption_key.or(local_github_token.filter(|_| local_dev))
}

/// A whole number from 1 to `max`, or `None` when unset, unreadable or out of range.
fn positive(text: Option<&str>, max: u64) -> Option<u64> {
    text.and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&n| n > 0 && n <= max)
}

/// `ACCESS_TOKEN_TTL_SECONDS`: a positive number of seconds, at most an hour (the spec: access
/// tokens last up to one hour, whatever a deployment sets); the hour when unset or unreadable.
fn access_ttl(text: Option<&str>) -> u64 {
    let hour = crate::oauth::grants::ACCESS_TTL_SECONDS;
    text.and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&seconds| seconds > 0)
        .map_or(hour, |seconds| seconds.min(hour))
}

impl Config {
    /// The key that tags the tokens we mint (`oauth::tokens`), derived from
    /// `TOKEN_ENCRYPTION_KEY` once per isolate by [`Config::from_vars`] (every `/mcp` request with
    /// a token checks its tag); `None` when that secret is not set (then OAuth is off anyway).
    pub fn token_tag_key(&self) -> Option<crate::oauth::tokens::TagKey> {
        self.tag_key.clone()
    }

    /// The key the pages' CSRF tokens are made with (`web::csrf`), derived once per isolate by
    /// `bindings::read` from the secret [`session_secret`] picks; `None` when there is none.
    pub fn session_key(&self) -> Option<&crate::security::browser_post::SessionKey> {
        self.session_key.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #44: with `PUBLIC_URL` set, the URLs the server names don't follow the request's
    /// `Host`; without it, or on loopback, they are the request's origin as before.
    #[test]
    fn issue_44_the_base_url_is_the_configured_one() {
        let url = |text: &str| url::Url::parse(text).unwrap_or_else(|e| panic!("{e}"));
        let with = |value: &str| {
            Config::from_vars(|name| (name == "PUBLIC_URL").then(|| value.to_string()))
        };
        let set = with("https://logikflow.example.com/");
        assert_eq!(
            set.public_url.as_deref(),
            Some("https://logikflow.example.com")
        );
        assert_eq!(
            set.base_url(&url(
                "http://evil.example/.well-known/oauth-protected-resource/mcp"
            )),
            "https://logikflow.example.com"
        );
        for local in [
            "http://127.0.0.1:8787/mcp",
            "http://localhost:8787/mcp",
            "http://[::1]:8787/",
        ] {
            assert_eq!(
                set.base_url(&url(local)),
                crate::http::origin_of(&url(local))
            );
        }
        let unset = Config::from_vars(|_| None);
        assert_eq!(
            unset.base_url(&url("http://evil.example/mcp")),
            "http://evil.example"
        );
        for bad in [
            "logikflow.example.com",
            "https://a.example/mcp",
            "ftp://a.example",
            "https://u@a.example",
            "https://a.example/?q",
        ] {
            assert_eq!(with(bad).public_url, None, "{bad}");
        }
        assert_eq!(
            with("https://a.example:8443").public_url.as_deref(),
            Some("https://a.example:8443")
        );
    }

    #[test]
    fn lists() {
        assert_eq!(
            split_list(" a, ,b ,"),
            vec!["a".to_string(), "b".to_string()]
        );
        assert!(split_list("").is_empty());
    }

    #[test]
    fn positive_numbers_in_range() {
        assert_eq!(positive(None, 10), None);
        assert_eq!(positive(Some(" 7 "), 10), Some(7));
        assert_eq!(positive(Some("0"), 10), None);
        assert_eq!(positive(Some("11"), 10), None);
        assert_eq!(positive(Some("-1"), 10), None);
        assert_eq!(positive(Some("ten"), 10), None);
    }

    #[test]
    fn access_tokens_last_at_most_an_hour() {
        assert_eq!(access_ttl(None), 3600);
        assert_eq!(access_ttl(Some("2")), 2);
        assert_eq!(access_ttl(Some(" 600 ")), 600);
        assert_eq!(access_ttl(Some("86400")), 3600);
        assert_eq!(access_ttl(Some("0")), 3600);
        assert_eq!(access_ttl(Some("soon")), 3600);
    }

    #[test]
    fn the_csrf_key_comes_from_the_deployment_secret_or_locally_the_local_token() {
        assert_eq!(session_secret(Some("k"), false, Some("t")), Some("k"));
        assert_eq!(session_secret(Some("k"), true, Some("t")), Some("k"));
        assert_eq!(session_secret(None, true, Some("t")), Some("t"));
        assert_eq!(session_secret(None, false, Some("t")), None);
        assert_eq!(session_secret(None, true, None), None);
    }

    #[test]
    fn unset_and_blank_vars_take_the_defaults() {
        let unset = Config::from_vars(|_| None);
        let blank = Config::from_vars(|_| Some("  ".into()));
        assert_eq!(unset, blank);
        assert_eq!(unset.github_api_url, "https://api.github.com");
        assert_eq!(unset.github_oauth_url, "https://github.com");
        assert!(!unset.local_dev && !unset.crash_test);
        assert_eq!(
            unset.rate_limit_per_minute,
            crate::oauth::rate_limit::DEFAULT_PER_PERSON
        );
        assert_eq!(unset.access_token_ttl_seconds, 3600);
        assert_eq!(unset.github_timeout_ms, DEFAULT_GITHUB_TIMEOUT_MS);
        assert_eq!(unset.kv_part_bytes, crate::kv_parts::DEFAULT_PART_BYTES);
        assert_eq!(
            unset.delete_batch_pulls,
            crate::person_data::PULLS_PER_REQUEST
        );
        assert!(unset.token_tag_key().is_none());
    }

    #[test]
    fn vars_are_read_and_held_to_their_limits() {
        let vars = |name: &str| {
            Some(
                match name {
                    "GITHUB_API_URL" => "http://127.0.0.1:9/",
                    "LOCAL_DEV" => "1",
                    "ALLOWED_ORIGINS" => "https://a.test, https://b.test",
                    "ACCESS_TOKEN_TTL_SECONDS" => "86400",
                    "DELETE_BATCH_PULLS" => "1000",
                    "KV_PART_BYTES" => "1000",
                    "TOKEN_ENCRYPTION_KEY" => "a-key",
                    "CRASH_TEST" => "yes",
                    _ => return None,
                }
                .to_string(),
            )
        };
        let config = Config::from_vars(vars);
        assert_eq!(config.github_api_url, "http://127.0.0.1:9");
        assert!(config.local_dev);
        assert_eq!(config.allowed_origins, ["https://a.test", "https://b.test"]);
        assert_eq!(config.access_token_ttl_seconds, 3600);
        assert_eq!(
            config.delete_batch_pulls,
            crate::person_data::PULLS_PER_REQUEST
        );
        assert_eq!(config.kv_part_bytes, 1000);
        assert!(config.token_tag_key().is_some());
        assert!(!config.crash_test, "only CRASH_TEST=1 turns it on");
    }

    #[test]
    fn debug_redacts_the_token() {
        let config = Config {
            local_github_token: Some("gho_x".into()),
            github_client_secret: Some("client-secret".into()),
            token_encryption_key: Some("the-key".into()),
            ..Config::default()
        };
        let text = format!("{config:?}");
        assert!(!text.contains("gho_x"));
        assert!(!text.contains("client-secret"));
        assert!(!text.contains("the-key"));
    }
}
