//! The authorization request (RFC 6749 §4.1.1 with OAuth 2.1, RFC 7636, RFC 8707 and RFC 9207)
//! and the consent form that answers it.
//!
//! Why this order: the client and its redirect URI are checked first, and while either is in
//! doubt every error is shown on our own page, never sent to a URI we have not validated (RFC 6749
//! §4.1.2.1, open-redirect defence). Everything after that goes back to the client's redirect URI
//! with `error`, `state` and `iss`, as the spec asks.
//! What not: no storage and no GitHub: the endpoints keep the validated request server-side while
//! the person signs in, then the person's object issues the code.

use serde::{Deserialize, Serialize};

use super::challenge::SCOPE;
use super::clients::{ClientRecord, MAX_CLIENT_ID_LEN};
use super::error::Error;
use super::form::Params;
use super::grants::{resource_matches, CodeRecord, CODE_TTL_SECONDS};
use super::pkce::CodeChallenge;
use super::redirect_uri;
use super::tokens::{self, TokenKind};
use crate::security::browser_post::{self, BodyKind};
use crate::security::compare::constant_time_eq;
use crate::security::cookie;

/// Prefix of the cookie that binds a GitHub round trip to the browser that started it.
pub const FLOW_COOKIE: &str = "__Host-lf_flow";
/// Prefix of the cookie half of the consent form's CSRF token (the form carries the other half).
pub const CSRF_COOKIE: &str = "__Host-lf_csrf";
/// Longest `state` we carry back.
pub const MAX_STATE_LEN: usize = 1000;
/// Scopes accepted and ignored: we always issue refresh tokens, so `offline_access` adds nothing.
const IGNORED_SCOPES: &[&str] = &["offline_access"];

/// A validated authorization request, kept server-side while the person signs in with GitHub.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthorizationRequest {
    pub client_id: String,
    pub client_name: String,
    /// The domain vouching for a metadata-document client; `None` for a registered one.
    pub verified_domain: Option<String>,
    /// Where the answer goes: the request's `redirect_uri` (validated) or the only registered one.
    pub redirect_uri: String,
    /// Whether the request named `redirect_uri` (then the token request must repeat it).
    pub redirect_uri_sent: bool,
    pub state: Option<String>,
    pub code_challenge: CodeChallenge,
    /// The canonical resource the tokens will be bound to: `{base_url}/mcp`.
    pub resource: String,
    /// The request asked for the consent page even when consent is remembered
    /// (`prompt=consent`, OpenID Connect Core 1.0 §3.1.2.1), so a person can choose other
    /// access than last time, less or more, without disconnecting first (issue #36). Left out
    /// of the stored JSON when false, so flows stored before it read and write as they did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ask_again: bool,
}

impl AuthorizationRequest {
    /// The record of a code issued `now` for this request: unspent, expiring after
    /// [`CODE_TTL_SECONDS`], carrying whether the person granted saving.
    pub fn code_record(&self, may_write: bool, now: u64) -> CodeRecord {
        CodeRecord {
            client_id: self.client_id.clone(),
            client_name: self.client_name.clone(),
            redirect_uri: self.redirect_uri.clone(),
            redirect_uri_sent: self.redirect_uri_sent,
            code_challenge: self.code_challenge.clone(),
            resource: self.resource.clone(),
            may_write,
            expires_at: now + CODE_TTL_SECONDS,
            grant_id: None,
        }
    }
}

/// The GitHub round trip's server-side state, stored under the hash of the `state` sent to GitHub.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignInFlow {
    pub request: AuthorizationRequest,
    /// Our PKCE verifier toward GitHub.
    pub github_verifier: String,
    pub created_at: u64,
}

/// An authorization request that cannot go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Client or redirect URI in doubt: show our own page.
    Page(Error),
    /// The redirect URI is trusted: send the error back to the client.
    Redirect {
        redirect_uri: String,
        state: Option<String>,
        error: Error,
    },
}

/// The flow cookie's name for the round trip with this `state`. Each round trip has its own
/// cookie, so two apps being connected at once in one browser do not undo each other.
pub fn flow_cookie_name(state: &str) -> String {
    format!("{FLOW_COOKIE}_{}", &tokens::hash(state)[..16])
}

/// The CSRF cookie's name for this consent form (one per form, as for the flow cookie).
pub fn csrf_cookie_name(consent_id: &str) -> String {
    format!("{CSRF_COOKIE}_{}", &tokens::hash(consent_id)[..16])
}

/// Our MCP endpoint, the only resource tokens are issued for (RFC 8707, RFC 9728 `resource`).
pub fn canonical_resource(base_url: &str) -> String {
    format!("{base_url}/mcp")
}

/// Step one: the `client_id`, before anything is known about the client.
pub fn client_id(params: &Params) -> Result<String, Error> {
    let client_id = params.require("client_id")?;
    if client_id.len() > MAX_CLIENT_ID_LEN {
        return Err(Error::ParameterTooLong("client_id"));
    }
    Ok(client_id.to_string())
}

/// Step two: everything else, for a known client.
pub fn validate(
    params: &Params,
    client: &ClientRecord,
    base_url: &str,
) -> Result<AuthorizationRequest, Refusal> {
    let requested = params.get("redirect_uri").map_err(Refusal::Page)?;
    let registered =
        redirect_uri::select(&client.redirect_uris, requested).map_err(Refusal::Page)?;
    let redirect_uri = requested.unwrap_or(registered.as_str()).to_string();

    // From here on the redirect URI is trusted.
    let back = |state: Option<&str>, error: Error| Refusal::Redirect {
        redirect_uri: redirect_uri.clone(),
        state: state.map(str::to_string),
        error,
    };
    let state = params.get("state").map_err(|e| back(None, e))?;
    if state.is_some_and(|s| s.len() > MAX_STATE_LEN) {
        return Err(back(None, Error::ParameterTooLong("state")));
    }
    let fail = |error: Error| back(state, error);
    match params.require("response_type").map_err(fail)? {
        "code" => {}
        _ => return Err(fail(Error::UnsupportedResponseType)),
    }
    let code_challenge = CodeChallenge::parse(
        params.get("code_challenge").map_err(fail)?,
        params.get("code_challenge_method").map_err(fail)?,
    )
    .map_err(fail)?;
    let resource = canonical_resource(base_url);
    if let Some(given) = params.get("resource").map_err(fail)? {
        if !resource_matches(&resource, given) {
            return Err(fail(Error::WrongResource));
        }
    }
    check_scope(params.get("scope").map_err(fail)?).map_err(fail)?;
    let ask_again = asks_for_consent(params.get("prompt").map_err(fail)?);
    Ok(AuthorizationRequest {
        client_id: client.client_id.clone(),
        client_name: client.display_name().to_string(),
        verified_domain: client.verified_domain().map(str::to_string),
        redirect_uri: redirect_uri.clone(),
        redirect_uri_sent: requested.is_some(),
        state: state.map(str::to_string),
        code_challenge,
        resource,
        ask_again,
    })
}

/// Whether a `prompt` value (space-separated, OpenID Connect Core 1.0 §3.1.2.1) asks for the
/// consent page. Its other values (`login`, `select_account`, `none`) change nothing here: the
/// person always signs in with GitHub, and a remembered consent is the only page skipped.
pub fn asks_for_consent(prompt: Option<&str>) -> bool {
    prompt.is_some_and(|prompt| prompt.split(' ').any(|value| value == "consent"))
}

/// Absent, or space-separated values we offer (`reviews`; `offline_access` is accepted and
/// ignored). Anything else is `invalid_scope` (RFC 6749 §3.3).
pub fn check_scope(scope: Option<&str>) -> Result<(), Error> {
    let unknown = scope
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .any(|s| s != SCOPE && !IGNORED_SCOPES.contains(&s));
    if unknown {
        Err(Error::UnknownScope)
    } else {
        Ok(())
    }
}

/// The successful authorization response's `Location` (RFC 6749 §4.1.2, RFC 9207 `iss`).
pub fn success_location(request: &AuthorizationRequest, code: &str, issuer: &str) -> String {
    let mut pairs = vec![("code", code)];
    if let Some(state) = &request.state {
        pairs.push(("state", state));
    }
    pairs.push(("iss", issuer));
    crate::security::form::append_query(&request.redirect_uri, &pairs)
}

/// A consent form submission that passed its CSRF checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentForm {
    /// `lfp_<person>_…`: names the pending consent and the person's object holding it.
    pub consent_id: String,
    /// The CSRF token; its hash is also bound to the pending consent.
    pub csrf: String,
    pub approve: bool,
    /// The "Save reading orders and diagrams" box.
    pub may_write: bool,
}

/// The consent POST's request headers that matter for CSRF.
#[derive(Debug, Clone, Copy, Default)]
pub struct ConsentHeaders<'a> {
    pub content_type: Option<&'a str>,
    pub cookie: Option<&'a str>,
    pub origin: Option<&'a str>,
    pub sec_fetch_site: Option<&'a str>,
}

/// Parses the consent form and checks it came from our own page in this browser, by the rules
/// every state-changing browser request meets (`security::browser_post`, issue #31): a form
/// body (415 otherwise), `Origin` or `Sec-Fetch-Site` saying this site and neither saying
/// another (a request with neither is refused), and the form's `csrf` equal to this form's own
/// `__Host-` cookie.
///
/// The consent page is shown before the person has a session with us, so its token can't be
/// bound to one as the pages' tokens are (`web::csrf`); it is bound to the pending consent
/// instead: a fresh random value per consent form, its cookie named after that consent
/// (`csrf_cookie_name`), and its hash stored with the pending consent in the person's object,
/// which refuses any other value (`app::person`, `/consent`). A planted cookie therefore can't
/// make a valid pair: only the token the server issued with that consent id is accepted, and
/// the consent id itself is a secret of the page the person was shown.
pub fn parse_consent_form(
    body: &str,
    headers: ConsentHeaders,
    base_url: &str,
) -> Result<ConsentForm, Error> {
    if !browser_post::declares(headers.content_type, BodyKind::Form) {
        return Err(Error::UnsupportedMediaType);
    }
    if !browser_post::same_origin(headers.origin, headers.sec_fetch_site, base_url) {
        return Err(Error::CsrfFailed);
    }
    let params = Params::parse(body);
    let consent_id = params
        .get("consent")
        .ok()
        .flatten()
        .ok_or(Error::ConsentExpired)?;
    if !matches!(tokens::parse(consent_id), Some((TokenKind::Consent, _))) {
        return Err(Error::ConsentExpired);
    }
    let csrf = params.get("csrf").ok().flatten().ok_or(Error::CsrfFailed)?;
    let cookie =
        cookie::read(headers.cookie, &csrf_cookie_name(consent_id)).ok_or(Error::CsrfFailed)?;
    if !constant_time_eq(csrf.as_bytes(), cookie.as_bytes()) {
        return Err(Error::CsrfFailed);
    }
    let approve = match params.get("action")? {
        Some("approve") => true,
        Some("deny") => false,
        _ => return Err(Error::MissingParameter("action")),
    };
    Ok(ConsentForm {
        consent_id: consent_id.to_string(),
        csrf: csrf.to_string(),
        approve,
        may_write: params.get("write")?.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oauth::clients::ClientKind;
    use crate::oauth::redirect_uri::RedirectUri;

    const BASE: &str = "https://logikflow.dev";
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    fn client() -> ClientRecord {
        ClientRecord {
            client_id: "lfd_app".into(),
            client_name: "App".into(),
            redirect_uris: ["http://127.0.0.1/cb", "cursor://app/cb"]
                .iter()
                .filter_map(|u| RedirectUri::parse(u).ok())
                .collect(),
            created_at: 0,
            kind: ClientKind::Registered,
        }
    }

    fn query(extra: &str) -> String {
        format!(
            "client_id=lfd_app&redirect_uri=http%3A%2F%2F127.0.0.1%3A4567%2Fcb&response_type=code&code_challenge={CHALLENGE}&code_challenge_method=S256&state=xyz{extra}"
        )
    }

    /// `Ok(())`, a page error, or a redirect error (with the state it carries).
    #[derive(Debug, PartialEq)]
    enum Expect {
        Ok,
        Page(Error),
        Back(Error, Option<&'static str>),
    }

    fn check(query: &str, expected: Expect) {
        let got = match validate(&Params::parse(query), &client(), BASE) {
            Ok(_) => Expect::Ok,
            Err(Refusal::Page(error)) => Expect::Page(error),
            Err(Refusal::Redirect {
                error,
                state,
                redirect_uri,
            }) => {
                assert_eq!(redirect_uri, "http://127.0.0.1:4567/cb");
                Expect::Back(
                    error,
                    if state.as_deref() == Some("xyz") {
                        Some("xyz")
                    } else {
                        None
                    },
                )
            }
        };
        assert_eq!(got, expected, "{query}");
    }

    #[test]
    fn request_rules_in_order() {
        check(&query(""), Expect::Ok);
        check(
            &query("&resource=https%3A%2F%2Flogikflow.dev%2Fmcp"),
            Expect::Ok,
        );
        check(
            &query("&resource=https%3A%2F%2Flogikflow.dev%2Fmcp%2F"),
            Expect::Ok,
        );
        check(&query("&scope=reviews"), Expect::Ok);
        check(&query("&scope=reviews+offline_access"), Expect::Ok);
        // Redirect URI problems never redirect.
        check(
            &query("").replace("127.0.0.1%3A4567", "evil.example"),
            Expect::Page(Error::RedirectUriNotRegistered),
        );
        // Loopback: any port, but the path must match.
        check(
            &query("").replace("%3A4567%2Fcb", "%3A4567%2Fother"),
            Expect::Page(Error::RedirectUriNotRegistered),
        );
        check(
            &query("").replace("redirect_uri=http%3A%2F%2F127.0.0.1%3A4567%2Fcb&", ""),
            Expect::Page(Error::RedirectUriRequired),
        );
        check(
            &query("&redirect_uri=cursor%3A%2F%2Fapp%2Fcb"),
            Expect::Page(Error::DuplicateParameter("redirect_uri")),
        );
        // Everything else goes back with state.
        check(
            &query("").replace("response_type=code", "response_type=token"),
            Expect::Back(Error::UnsupportedResponseType, Some("xyz")),
        );
        check(
            &query("").replace("&response_type=code", ""),
            Expect::Back(Error::MissingParameter("response_type"), Some("xyz")),
        );
        check(
            &query("").replace("&code_challenge_method=S256", ""),
            Expect::Back(Error::PkcePlain, Some("xyz")),
        );
        check(
            &query("").replace("S256", "plain"),
            Expect::Back(Error::PkcePlain, Some("xyz")),
        );
        check(
            &query("").replace(&format!("&code_challenge={CHALLENGE}"), ""),
            Expect::Back(Error::PkceMissing, Some("xyz")),
        );
        check(
            &query("&resource=https%3A%2F%2Fother.example%2Fmcp"),
            Expect::Back(Error::WrongResource, Some("xyz")),
        );
        check(
            &query("&scope=admin"),
            Expect::Back(Error::UnknownScope, Some("xyz")),
        );
        check(
            &query("&state=again"),
            Expect::Back(Error::DuplicateParameter("state"), None),
        );
    }

    #[test]
    fn validated_request() {
        let request = validate(&Params::parse(&query("")), &client(), BASE);
        let request = request.unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(request.redirect_uri, "http://127.0.0.1:4567/cb");
        assert!(request.redirect_uri_sent);
        assert_eq!(request.resource, "https://logikflow.dev/mcp");
        assert_eq!(request.verified_domain, None);
        assert_eq!(
            success_location(&request, "lfc_1_x", BASE),
            "http://127.0.0.1:4567/cb?code=lfc_1_x&state=xyz&iss=https%3A%2F%2Flogikflow.dev"
        );
    }

    #[test]
    fn client_ids() {
        assert_eq!(client_id(&Params::parse("client_id=a")), Ok("a".into()));
        assert_eq!(
            client_id(&Params::parse("")),
            Err(Error::MissingParameter("client_id"))
        );
        assert_eq!(
            client_id(&Params::parse("client_id=a&client_id=b")),
            Err(Error::DuplicateParameter("client_id"))
        );
    }

    const CONSENT: &str = "lfp_1001_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

    fn check_form(body: &str, headers: ConsentHeaders, expected: Result<(bool, bool), Error>) {
        assert_eq!(
            parse_consent_form(body, headers, BASE).map(|f| (f.approve, f.may_write)),
            expected,
            "{body} {headers:?}"
        );
    }

    #[test]
    fn consent_forms() {
        let header = format!("a=b; {}=tok123", csrf_cookie_name(CONSENT));
        let cookie = Some(header.as_str());
        let ok = ConsentHeaders {
            content_type: Some("application/x-www-form-urlencoded"),
            cookie,
            origin: Some(BASE),
            sec_fetch_site: Some("same-origin"),
        };
        let form = |rest: &str| format!("consent={CONSENT}&csrf=tok123{rest}");
        check_form(&form("&action=approve&write=on"), ok, Ok((true, true)));
        check_form(&form("&action=approve"), ok, Ok((true, false)));
        check_form(&form("&action=deny"), ok, Ok((false, false)));
        check_form(&form(""), ok, Err(Error::MissingParameter("action")));
        // CSRF: no cookie, another token, another origin, another site.
        check_form(
            &form("&action=approve"),
            ConsentHeaders { cookie: None, ..ok },
            Err(Error::CsrfFailed),
        );
        // Another form's cookie does not count.
        check_form(
            &form("&action=approve"),
            ConsentHeaders {
                cookie: Some("__Host-lf_csrf_0000000000000000=tok123"),
                ..ok
            },
            Err(Error::CsrfFailed),
        );
        check_form(
            &format!("consent={CONSENT}&csrf=other&action=approve"),
            ok,
            Err(Error::CsrfFailed),
        );
        check_form(
            &format!("consent={CONSENT}&action=approve"),
            ok,
            Err(Error::CsrfFailed),
        );
        check_form(
            &form("&action=approve"),
            ConsentHeaders {
                origin: Some("https://evil.example"),
                ..ok
            },
            Err(Error::CsrfFailed),
        );
        check_form(
            &form("&action=approve"),
            ConsentHeaders {
                sec_fetch_site: Some("cross-site"),
                ..ok
            },
            Err(Error::CsrfFailed),
        );
        check_form(
            "consent=lfa_1_x&csrf=tok123&action=approve",
            ok,
            Err(Error::ConsentExpired),
        );
        // Issue #31: either header alone is enough when it says this site; neither is refused.
        check_form(
            &form("&action=approve"),
            ConsentHeaders { origin: None, ..ok },
            Ok((true, false)),
        );
        check_form(
            &form("&action=approve"),
            ConsentHeaders {
                sec_fetch_site: None,
                ..ok
            },
            Ok((true, false)),
        );
        check_form(
            &form("&action=approve"),
            ConsentHeaders {
                origin: None,
                sec_fetch_site: None,
                ..ok
            },
            Err(Error::CsrfFailed),
        );
        // No `Origin`, and `Sec-Fetch-Site` naming anything but this origin.
        for site in ["cross-site", "same-site", "none"] {
            check_form(
                &form("&action=approve"),
                ConsentHeaders {
                    origin: None,
                    sec_fetch_site: Some(site),
                    ..ok
                },
                Err(Error::CsrfFailed),
            );
        }
        // A body that is not a form, whatever it holds.
        for content_type in [
            None,
            Some("text/plain"),
            Some("multipart/form-data; boundary=x"),
        ] {
            check_form(
                &form("&action=approve"),
                ConsentHeaders { content_type, ..ok },
                Err(Error::UnsupportedMediaType),
            );
        }
    }

    #[test]
    fn prompt_consent_asks_for_the_page() {
        assert!(asks_for_consent(Some("consent")));
        assert!(asks_for_consent(Some("login consent")));
        assert!(!asks_for_consent(Some("login")));
        assert!(!asks_for_consent(Some("consented")));
        assert!(!asks_for_consent(None));
    }
}
