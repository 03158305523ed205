//! Every way an OAuth request can fail, its RFC 6749 error code, its HTTP status, and the one
//! place that turns it into a reply to a client: JSON for the token, registration and revocation
//! endpoints, and a redirect back to the client for authorization errors after the redirect URI
//! is trusted. What a browser sees before that is an HTML page, which `web::consent::error_reply`
//! renders from [`Error::page_title`], [`Error::description`] and [`Error::status`]: `web` shows
//! `oauth` values, never the other way round (ARCHITECTURE.md, "Layers").
//!
//! Why: RFC 6749 §4.1.2.1 and §5.2 fix the codes; keeping code, status and wording beside the
//! variant (as axum's rejections do) means no endpoint can invent its own.
//! What not: no decisions. Modules return these values; endpoints only render them.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::http::HttpReply;

/// Why a grant-bound request (code exchange, refresh) was refused; decided in the person's object
/// and carried back to the Worker, hence serializable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrantError {
    /// No such code, or it was issued by another person's object.
    CodeUnknown,
    /// The code is older than ten minutes.
    CodeExpired,
    /// The code was already exchanged; its grant is now revoked.
    CodeReused,
    /// The code or refresh token belongs to another client.
    ClientMismatch,
    /// `redirect_uri` differs from the one in the authorization request.
    RedirectMismatch,
    /// The PKCE verifier does not hash to the challenge.
    PkceMismatch,
    /// The PKCE verifier is not 43–128 unreserved characters.
    PkceVerifierMalformed,
    /// `resource` names something other than the resource the grant is for.
    WrongResource,
    /// No such refresh token.
    RefreshUnknown,
    /// The refresh token is past its idle or absolute lifetime.
    RefreshExpired,
    /// The refresh token was already rotated; its grant is now revoked.
    RefreshReplayed,
}

/// A problem with a Client ID Metadata Document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentProblem {
    /// The fetch failed or timed out.
    Unreachable,
    /// The server answered with a redirect, which we never follow.
    Redirected,
    /// The server answered with another non-200 status.
    Status(u16),
    /// The document is larger than 5 KB.
    TooLarge,
    /// The body is not a JSON object.
    NotJson,
    /// `client_id` in the document differs from the URL it was fetched from.
    ClientIdMismatch,
    /// A required field is missing or has the wrong type.
    MissingField(&'static str),
    /// One of its redirect URIs is not acceptable.
    RedirectUri(RedirectUriError),
    /// Fetching or validating it failed a moment ago; failures are cached briefly.
    RecentlyFailed,
    /// The client_id is a URL we will not fetch: not https, an IP address or an internal-looking
    /// host, no path, a fragment or dot segments. Refused before any request is made.
    UnacceptableUrl,
}

/// An OAuth failure. Variants carry data, not prose; [`Error::description`] words them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A required parameter is absent or empty (RFC 6749 §3.1).
    MissingParameter(&'static str),
    /// A parameter was sent more than once (RFC 6749 §3.1).
    DuplicateParameter(&'static str),
    /// A parameter is longer than we accept.
    ParameterTooLong(&'static str),
    /// The body is not what the endpoint reads (size, content type or syntax).
    MalformedBody,
    /// A browser form (the consent page's) sent with a body that is not a form: 415.
    UnsupportedMediaType,
    /// The `client_id` is neither registered here nor a metadata document URL.
    UnknownClient,
    /// A metadata-document client whose document could not be used.
    MetadataDocument(DocumentProblem),
    /// A registration request field is missing or wrong (RFC 7591 §3.2.2).
    ClientMetadata(&'static str),
    /// A registration's `client_name` shows nothing: empty, white space, or only characters
    /// that draw nothing (RFC 7591 §3.2.2 `invalid_client_metadata`; issue #31).
    BlankClientName,
    /// A redirect URI in a registration request is not acceptable (RFC 7591 §3.2.2).
    InvalidRedirectUri(RedirectUriError),
    /// The authorization request names a redirect URI the client did not register.
    RedirectUriNotRegistered,
    /// The client registered several redirect URIs and the request names none.
    RedirectUriRequired,
    /// `response_type` is not `code`.
    UnsupportedResponseType,
    /// No PKCE challenge (OAuth 2.1 §4.1.1 requires one).
    PkceMissing,
    /// The `plain` method, explicitly or by omission (RFC 7636 §4.3 defaults to it).
    PkcePlain,
    /// A challenge method we do not know.
    PkceMethod,
    /// A challenge that is not 43 base64url characters (the length of an S256 challenge).
    PkceChallengeMalformed,
    /// A scope we do not offer.
    UnknownScope,
    /// `resource` names something other than this server's MCP endpoint (RFC 8707 §2).
    WrongResource,
    /// The person declined at the consent page.
    AccessDenied,
    /// The GitHub sign-in round trip was lost: no pending sign-in for this browser, or too old.
    SignInExpired,
    /// GitHub declined the sign-in or its code.
    GitHubRefused,
    /// GitHub did not answer properly.
    GitHubUnavailable,
    /// The consent form came without a matching CSRF token, or from another site.
    CsrfFailed,
    /// The consent form is older than ten minutes or was already used.
    ConsentExpired,
    /// `grant_type` is neither `authorization_code` nor `refresh_token`.
    UnsupportedGrantType,
    /// A code exchange or refresh was refused.
    Grant(GrantError),
    /// Too many requests from this address.
    TooManyRequests { retry_after_seconds: u64 },
    /// A secret the server needs is not configured.
    NotConfigured(&'static str),
    /// Storage or another dependency failed; details are logged, not shown.
    Unavailable,
}

impl Error {
    /// The RFC 6749 / RFC 7591 / RFC 8707 error code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::MissingParameter(_)
            | Error::DuplicateParameter(_)
            | Error::ParameterTooLong(_)
            | Error::MalformedBody
            | Error::UnsupportedMediaType
            | Error::RedirectUriNotRegistered
            | Error::RedirectUriRequired
            | Error::PkceMissing
            | Error::PkcePlain
            | Error::PkceMethod
            | Error::PkceChallengeMalformed
            | Error::SignInExpired
            | Error::CsrfFailed
            | Error::ConsentExpired => "invalid_request",
            Error::UnknownClient | Error::MetadataDocument(_) => "invalid_client",
            Error::ClientMetadata(_) | Error::BlankClientName => "invalid_client_metadata",
            Error::InvalidRedirectUri(_) => "invalid_redirect_uri",
            Error::UnsupportedResponseType => "unsupported_response_type",
            Error::UnknownScope => "invalid_scope",
            Error::WrongResource | Error::Grant(GrantError::WrongResource) => "invalid_target",
            Error::AccessDenied | Error::GitHubRefused => "access_denied",
            Error::UnsupportedGrantType => "unsupported_grant_type",
            Error::Grant(GrantError::PkceVerifierMalformed) => "invalid_request",
            Error::Grant(_) => "invalid_grant",
            Error::TooManyRequests { .. } | Error::GitHubUnavailable | Error::Unavailable => {
                "temporarily_unavailable"
            }
            Error::NotConfigured(_) => "server_error",
        }
    }

    /// The HTTP status of a JSON or page reply (a redirect is always 302).
    pub fn status(&self) -> u16 {
        match self {
            Error::UnknownClient | Error::MetadataDocument(_) => 401,
            Error::CsrfFailed => 403,
            Error::UnsupportedMediaType => 415,
            Error::TooManyRequests { .. } => 429,
            Error::GitHubUnavailable => 502,
            Error::Unavailable => 503,
            Error::NotConfigured(_) => 500,
            _ => 400,
        }
    }

    /// `error_description`: ASCII, no quotes or backslashes (RFC 6749 §5.2), one sentence.
    pub fn description(&self) -> String {
        match self {
            Error::MissingParameter(name) => format!("the {name} parameter is required"),
            Error::DuplicateParameter(name) => format!("the {name} parameter was sent more than once"),
            Error::ParameterTooLong(name) => format!("the {name} parameter is too long"),
            Error::MalformedBody => sentence(Sentence::MalformedBody),
            Error::UnsupportedMediaType => "the consent form must be sent as application/x-www-form-urlencoded, as the consent page sends it; start again from your app".to_string(),
            Error::UnknownClient => sentence(Sentence::UnknownClient),
            Error::MetadataDocument(problem) => format!(
                "the client ID metadata document could not be used: {}",
                document_problem(problem)
            ),
            Error::ClientMetadata("client_name") => format!(
                "client_name must be at most {} characters with no control or format characters (such as bidirectional overrides or zero-width spaces)",
                super::MAX_CLIENT_NAME_CHARS
            ),
            Error::ClientMetadata(field) => format!("the {field} field is missing or not supported"),
            Error::BlankClientName => "client_name must have at least one visible character: people are shown it when they decide whether to connect the app (leave the field out to register without a name)".to_string(),
            Error::InvalidRedirectUri(problem) => {
                format!("a redirect URI is not acceptable: {}", redirect_problem(problem))
            }
            Error::RedirectUriNotRegistered => sentence(Sentence::RedirectUriNotRegistered),
            Error::RedirectUriRequired => sentence(Sentence::RedirectUriRequired),
            Error::UnsupportedResponseType => sentence(Sentence::UnsupportedResponseType),
            Error::PkceMissing => sentence(Sentence::PkceMissing),
            Error::PkcePlain => sentence(Sentence::PkcePlain),
            Error::PkceMethod => sentence(Sentence::PkceMethod),
            Error::PkceChallengeMalformed => sentence(Sentence::PkceChallengeMalformed),
            Error::UnknownScope => sentence(Sentence::UnknownScope),
            Error::WrongResource => sentence(Sentence::WrongResource),
            Error::AccessDenied => sentence(Sentence::AccessDenied),
            Error::SignInExpired => sentence(Sentence::SignInExpired),
            Error::GitHubRefused => sentence(Sentence::GitHubRefused),
            Error::GitHubUnavailable => sentence(Sentence::GitHubUnavailable),
            Error::CsrfFailed => sentence(Sentence::CsrfFailed),
            Error::ConsentExpired => sentence(Sentence::ConsentExpired),
            Error::UnsupportedGrantType => sentence(Sentence::UnsupportedGrantType),
            Error::Grant(error) => grant_problem(*error),
            Error::TooManyRequests { retry_after_seconds } => {
                format!("too many requests from this address; retry in {retry_after_seconds} seconds")
            }
            Error::NotConfigured(name) => format!("the server is missing its {name} setting"),
            Error::Unavailable => sentence(Sentence::Unavailable),
        }
    }

    /// The page heading for a browser-facing error (`web::consent::error_reply`).
    pub fn page_title(&self) -> &'static str {
        match self {
            Error::UnknownClient | Error::MetadataDocument(_) => "Unknown app",
            Error::RedirectUriNotRegistered
            | Error::RedirectUriRequired
            | Error::InvalidRedirectUri(_) => "This app's return address is not registered",
            Error::SignInExpired
            | Error::ConsentExpired
            | Error::CsrfFailed
            | Error::UnsupportedMediaType => "Please start again",
            Error::GitHubRefused => "GitHub sign-in did not finish",
            Error::GitHubUnavailable | Error::Unavailable => "Try again in a minute",
            Error::TooManyRequests { .. } => "Too many attempts",
            Error::NotConfigured(_) => "Sign-in is not set up",
            _ => "This sign-in request is not valid",
        }
    }
}

/// The fixed sentences of `error_description`, one per line of `oauth/sentences.txt` in this
/// order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sentence {
    UnknownClient,
    RedirectUriNotRegistered,
    RedirectUriRequired,
    PkceChallengeMalformed,
    SignInExpired,
    UnsupportedGrantType,
    MalformedBody,
    UnsupportedResponseType,
    PkceMissing,
    PkcePlain,
    PkceMethod,
    UnknownScope,
    WrongResource,
    AccessDenied,
    GitHubRefused,
    GitHubUnavailable,
    CsrfFailed,
    ConsentExpired,
    Unavailable,
    DocumentRedirected,
    DocumentClientIdMismatch,
    DocumentRecentlyFailed,
    DocumentUnreachable,
    DocumentTooLarge,
    DocumentNotJson,
    DocumentUnacceptableUrl,
    RedirectMalformed,
    RedirectTooLong,
    RedirectFragment,
    RedirectUserInfo,
    RedirectForbiddenScheme,
    RedirectInsecureHttp,
    RedirectDotSegments,
    GrantCodeReused,
    GrantPkceVerifierMalformed,
    GrantRefreshReplayed,
    GrantCodeUnknown,
    GrantCodeExpired,
    GrantClientMismatch,
    GrantRedirectMismatch,
    GrantPkceMismatch,
    GrantWrongResource,
    GrantRefreshUnknown,
    GrantRefreshExpired,
}

/// `Sentence`'s texts, one a line.
const SENTENCES: &str = include_str!("sentences.txt");

/// One fixed sentence (an empty one if the text were ever short: a test reads every line).
fn sentence(which: Sentence) -> String {
    SENTENCES
        .lines()
        .nth(which as usize)
        .unwrap_or_default()
        .to_string()
}

fn document_problem(problem: &DocumentProblem) -> String {
    match problem {
        DocumentProblem::Unreachable => sentence(Sentence::DocumentUnreachable),
        DocumentProblem::Redirected => sentence(Sentence::DocumentRedirected),
        DocumentProblem::Status(status) => format!("its URL answered HTTP {status}"),
        DocumentProblem::TooLarge => sentence(Sentence::DocumentTooLarge),
        DocumentProblem::NotJson => sentence(Sentence::DocumentNotJson),
        DocumentProblem::ClientIdMismatch => sentence(Sentence::DocumentClientIdMismatch),
        DocumentProblem::MissingField(field) => format!("its {field} field is missing or invalid"),
        DocumentProblem::RedirectUri(problem) => {
            format!(
                "a redirect URI is not acceptable: {}",
                redirect_problem(problem)
            )
        }
        DocumentProblem::UnacceptableUrl => sentence(Sentence::DocumentUnacceptableUrl),
        DocumentProblem::RecentlyFailed => sentence(Sentence::DocumentRecentlyFailed),
    }
}

fn redirect_problem(problem: &RedirectUriError) -> String {
    match problem {
        RedirectUriError::Malformed => sentence(Sentence::RedirectMalformed),
        RedirectUriError::TooLong => sentence(Sentence::RedirectTooLong),
        RedirectUriError::Fragment => sentence(Sentence::RedirectFragment),
        RedirectUriError::UserInfo => sentence(Sentence::RedirectUserInfo),
        RedirectUriError::ForbiddenScheme => sentence(Sentence::RedirectForbiddenScheme),
        RedirectUriError::InsecureHttp => sentence(Sentence::RedirectInsecureHttp),
        RedirectUriError::DotSegments => sentence(Sentence::RedirectDotSegments),
    }
}

fn grant_problem(error: GrantError) -> String {
    match error {
        GrantError::CodeUnknown => sentence(Sentence::GrantCodeUnknown),
        GrantError::CodeExpired => sentence(Sentence::GrantCodeExpired),
        GrantError::CodeReused => sentence(Sentence::GrantCodeReused),
        GrantError::ClientMismatch => sentence(Sentence::GrantClientMismatch),
        GrantError::RedirectMismatch => sentence(Sentence::GrantRedirectMismatch),
        GrantError::PkceMismatch => sentence(Sentence::GrantPkceMismatch),
        GrantError::PkceVerifierMalformed => sentence(Sentence::GrantPkceVerifierMalformed),
        GrantError::WrongResource => sentence(Sentence::GrantWrongResource),
        GrantError::RefreshUnknown => sentence(Sentence::GrantRefreshUnknown),
        GrantError::RefreshExpired => sentence(Sentence::GrantRefreshExpired),
        GrantError::RefreshReplayed => sentence(Sentence::GrantRefreshReplayed),
    }
}

/// The JSON error reply of the token, registration and revocation endpoints (RFC 6749 §5.2).
pub fn json_reply(error: &Error) -> HttpReply {
    let body = json!({ "error": error.code(), "error_description": error.description() });
    let mut reply = HttpReply::json(error.status(), &body)
        .with_header("cache-control", "no-store")
        .with_header("pragma", "no-cache");
    if let Error::TooManyRequests {
        retry_after_seconds,
    } = error
    {
        reply = reply.with_header("retry-after", retry_after_seconds.to_string());
    }
    reply
}

/// The authorization error response (RFC 6749 §4.1.2.1 with RFC 9207 `iss`): a 302 back to a
/// redirect URI the client registered. Only ever called with a validated redirect URI.
pub fn redirect_reply(
    redirect_uri: &str,
    error: &Error,
    state: Option<&str>,
    issuer: &str,
) -> HttpReply {
    let description = error.description();
    let mut pairs = vec![
        ("error", error.code()),
        ("error_description", description.as_str()),
    ];
    if let Some(state) = state {
        pairs.push(("state", state));
    }
    pairs.push(("iss", issuer));
    HttpReply::empty(302)
        .with_header(
            "location",
            crate::security::form::append_query(redirect_uri, &pairs),
        )
        .with_header("cache-control", "no-store")
}

/// Why a redirect URI cannot be registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectUriError {
    /// Not an absolute URI, or has spaces or control characters.
    Malformed,
    /// Longer than [`super::redirect_uri::MAX_LEN`].
    TooLong,
    /// Has a `#fragment` (OAuth 2.1 §2.3.1).
    Fragment,
    /// Has `user:password@`.
    UserInfo,
    /// `javascript:`, `data:`, `file:` and the like.
    ForbiddenScheme,
    /// `http` to anything but a loopback address.
    InsecureHttp,
    /// A `.` or `..` path segment, plain or percent-encoded (`redirect_uri::has_dot_segments`,
    /// the rule metadata document URLs follow too).
    DotSegments,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant once, so the list of messages below is complete.
    fn all() -> Vec<Error> {
        let mut errors = vec![
            Error::MissingParameter("code"),
            Error::DuplicateParameter("state"),
            Error::ParameterTooLong("state"),
            Error::MalformedBody,
            Error::UnsupportedMediaType,
            Error::UnknownClient,
            Error::ClientMetadata("grant_types"),
            Error::BlankClientName,
            Error::RedirectUriNotRegistered,
            Error::RedirectUriRequired,
            Error::UnsupportedResponseType,
            Error::PkceMissing,
            Error::PkcePlain,
            Error::PkceMethod,
            Error::PkceChallengeMalformed,
            Error::UnknownScope,
            Error::WrongResource,
            Error::AccessDenied,
            Error::SignInExpired,
            Error::GitHubRefused,
            Error::GitHubUnavailable,
            Error::CsrfFailed,
            Error::ConsentExpired,
            Error::UnsupportedGrantType,
            Error::TooManyRequests {
                retry_after_seconds: 12,
            },
            Error::NotConfigured("GITHUB_CLIENT_ID"),
            Error::Unavailable,
        ];
        for problem in [
            RedirectUriError::Malformed,
            RedirectUriError::TooLong,
            RedirectUriError::Fragment,
            RedirectUriError::UserInfo,
            RedirectUriError::ForbiddenScheme,
            RedirectUriError::InsecureHttp,
            RedirectUriError::DotSegments,
        ] {
            errors.push(Error::InvalidRedirectUri(problem));
            errors.push(Error::MetadataDocument(DocumentProblem::RedirectUri(
                problem,
            )));
        }
        for problem in [
            DocumentProblem::Unreachable,
            DocumentProblem::Redirected,
            DocumentProblem::Status(404),
            DocumentProblem::TooLarge,
            DocumentProblem::NotJson,
            DocumentProblem::ClientIdMismatch,
            DocumentProblem::MissingField("client_name"),
            DocumentProblem::RecentlyFailed,
        ] {
            errors.push(Error::MetadataDocument(problem));
        }
        for grant in [
            GrantError::CodeUnknown,
            GrantError::CodeExpired,
            GrantError::CodeReused,
            GrantError::ClientMismatch,
            GrantError::RedirectMismatch,
            GrantError::PkceMismatch,
            GrantError::PkceVerifierMalformed,
            GrantError::WrongResource,
            GrantError::RefreshUnknown,
            GrantError::RefreshExpired,
            GrantError::RefreshReplayed,
        ] {
            errors.push(Error::Grant(grant));
        }
        errors
    }

    #[test]
    fn descriptions_are_valid_error_description_text() {
        // RFC 6749 §5.2: %x20-21 / %x23-5B / %x5D-7E.
        for error in all() {
            let text = error.description();
            assert!(
                text.bytes()
                    .all(|b| (0x20..=0x7e).contains(&b) && b != b'"' && b != b'\\'),
                "{error:?}: {text}"
            );
            assert!(!text.ends_with('.'), "{text}");
        }
    }

    fn check(error: Error, code: &str, status: u16) {
        assert_eq!((error.code(), error.status()), (code, status), "{error:?}");
    }

    #[test]
    fn codes_and_statuses() {
        check(Error::MissingParameter("code"), "invalid_request", 400);
        check(Error::UnknownClient, "invalid_client", 401);
        check(
            Error::ClientMetadata("grant_types"),
            "invalid_client_metadata",
            400,
        );
        check(Error::BlankClientName, "invalid_client_metadata", 400);
        check(
            Error::InvalidRedirectUri(RedirectUriError::Fragment),
            "invalid_redirect_uri",
            400,
        );
        check(
            Error::UnsupportedResponseType,
            "unsupported_response_type",
            400,
        );
        check(Error::UnknownScope, "invalid_scope", 400);
        check(Error::WrongResource, "invalid_target", 400);
        check(
            Error::Grant(GrantError::WrongResource),
            "invalid_target",
            400,
        );
        check(Error::Grant(GrantError::CodeReused), "invalid_grant", 400);
        check(Error::Grant(GrantError::PkceMismatch), "invalid_grant", 400);
        check(Error::UnsupportedGrantType, "unsupported_grant_type", 400);
        check(Error::AccessDenied, "access_denied", 400);
        // A consent form used twice (or too late): the page says so, with a 400.
        check(Error::ConsentExpired, "invalid_request", 400);
        check(Error::CsrfFailed, "invalid_request", 403);
        check(Error::UnsupportedMediaType, "invalid_request", 415);
        check(
            Error::TooManyRequests {
                retry_after_seconds: 3,
            },
            "temporarily_unavailable",
            429,
        );
    }

    /// The descriptions an agent reads at the token endpoint (moved from the end-to-end test).
    #[test]
    fn token_refusals_say_what_was_wrong() {
        let described = |error: Error| {
            let reply = json_reply(&error);
            serde_json::from_str::<serde_json::Value>(&reply.body).unwrap_or_default()
                ["error_description"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        };
        let missing = described(Error::MissingParameter("client_id"));
        assert!(missing.contains("client_id"), "{missing}");
        let pkce = described(Error::Grant(GrantError::PkceMismatch));
        assert!(pkce.contains("code_verifier does not match"), "{pkce}");
    }

    #[test]
    fn json_reply_is_not_cached() {
        let reply = json_reply(&Error::Grant(GrantError::CodeReused));
        assert_eq!(reply.status, 400);
        assert_eq!(reply.header("cache-control"), Some("no-store"));
        let body: serde_json::Value = serde_json::from_str(&reply.body).unwrap_or_default();
        assert_eq!(body["error"], "invalid_grant");
        let limited = json_reply(&Error::TooManyRequests {
            retry_after_seconds: 7,
        });
        assert_eq!(limited.header("retry-after"), Some("7"));
    }

    #[test]
    fn redirect_reply_carries_state_and_iss() {
        let reply = redirect_reply(
            "https://app.example/cb?x=1",
            &Error::PkcePlain,
            Some("s t"),
            "https://logikflow.dev",
        );
        assert_eq!(reply.status, 302);
        let location = reply.header("location").unwrap_or_default();
        assert!(
            location
                .starts_with("https://app.example/cb?x=1&error=invalid_request&error_description="),
            "{location}"
        );
        assert!(
            location.ends_with("&state=s+t&iss=https%3A%2F%2Flogikflow.dev"),
            "{location}"
        );
    }
}
#[cfg(test)]
mod sentence_tests {
    use super::*;

    /// Every sentence reads back as the line it names (the file's order is the enum's).
    #[test]
    fn every_sentence_is_its_line() {
        let expected = [
            (Sentence::UnknownClient, "this client_id is not registered here; register it at /oauth/register or use a client ID metadata document URL"),
            (Sentence::RedirectUriNotRegistered, "redirect_uri does not match any redirect URI registered for this client"),
            (Sentence::RedirectUriRequired, "redirect_uri is required because this client registered several"),
            (Sentence::PkceChallengeMalformed, "code_challenge must be the 43-character base64url SHA-256 of the verifier"),
            (Sentence::SignInExpired, "the sign-in took too long or was started in another browser; start again from your app"),
            (Sentence::UnsupportedGrantType, "grant_type must be authorization_code or refresh_token"),
            (Sentence::MalformedBody, "the request body could not be read"),
            (Sentence::UnsupportedResponseType, "response_type must be code"),
            (Sentence::PkceMissing, "PKCE is required: send code_challenge with code_challenge_method=S256"),
            (Sentence::PkcePlain, "the plain PKCE method is not supported: use code_challenge_method=S256"),
            (Sentence::PkceMethod, "code_challenge_method must be S256"),
            (Sentence::UnknownScope, "the only scope offered is reviews"),
            (Sentence::WrongResource, "resource must be this server's /mcp endpoint"),
            (Sentence::AccessDenied, "the user declined access"),
            (Sentence::GitHubRefused, "GitHub did not complete the sign-in"),
            (Sentence::GitHubUnavailable, "GitHub could not be reached; try again in a minute"),
            (Sentence::CsrfFailed, "the consent form could not be verified; start again from your app"),
            (Sentence::ConsentExpired, "the consent form expired or was already used; start again from your app"),
            (Sentence::Unavailable, "the server could not complete the request; try again in a minute"),
            (Sentence::DocumentRedirected, "its URL answered with a redirect, which is not followed"),
            (Sentence::DocumentClientIdMismatch, "its client_id differs from the URL it was fetched from"),
            (Sentence::DocumentRecentlyFailed, "it could not be used a moment ago; try again in a minute"),
            (Sentence::DocumentUnreachable, "it could not be fetched in time"),
            (Sentence::DocumentTooLarge, "it is larger than 5 KB"),
            (Sentence::DocumentNotJson, "it is not a JSON object"),
            (Sentence::DocumentUnacceptableUrl, "its URL must be https:// on a public host name (not localhost, an IP address, a single-label name or an internal zone such as .internal or .local), with a path other than / and no fragment, user name or dot segments"),
            (Sentence::RedirectMalformed, "it is not an absolute URI"),
            (Sentence::RedirectTooLong, "it is longer than 2000 characters"),
            (Sentence::RedirectFragment, "it contains a fragment"),
            (Sentence::RedirectUserInfo, "it contains a user name or password"),
            (Sentence::RedirectForbiddenScheme, "its scheme can run code or read files"),
            (Sentence::RedirectInsecureHttp, "plain http is allowed only for loopback addresses"),
            (Sentence::RedirectDotSegments, "its path has a . or .. segment (also as %2e); write the path without them"),
            (Sentence::GrantCodeReused, "the authorization code was already used; the access it granted is revoked"),
            (Sentence::GrantPkceVerifierMalformed, "code_verifier must be 43 to 128 unreserved characters"),
            (Sentence::GrantRefreshReplayed, "the refresh token was already used; the access it granted is revoked"),
            (Sentence::GrantCodeUnknown, "the authorization code is not valid"),
            (Sentence::GrantCodeExpired, "the authorization code expired"),
            (Sentence::GrantClientMismatch, "the grant was issued to another client"),
            (Sentence::GrantRedirectMismatch, "redirect_uri differs from the authorization request"),
            (Sentence::GrantPkceMismatch, "code_verifier does not match the code_challenge"),
            (Sentence::GrantWrongResource, "resource differs from the resource this grant is for"),
            (Sentence::GrantRefreshUnknown, "the refresh token is not valid"),
            (Sentence::GrantRefreshExpired, "the refresh token expired"),
        ];
        for (which, text) in expected {
            assert_eq!(sentence(which), text, "{which:?}");
        }
        assert_eq!(SENTENCES.lines().count(), expected.len());
    }
}
