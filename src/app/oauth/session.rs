//! The review pages' web session: the pages are a first-party OAuth client of this same server,
//! so a browser session is an ordinary grant (same GitHub sign-in, consent, token rotation,
//! revocation and rate limit as an agent's) held in HttpOnly cookies.
//!
//! `/signin?next=/r/…` registers the web client once per host, then sends the browser through
//! `/authorize` with PKCE; `/signin/callback` redeems the code and sets the cookies (and clears
//! the forms' browser-session nonce, so the next page starts a new one); sign-out revokes the
//! refresh token and clears them. The registration, the code exchange, the refresh and the
//! revocation are the methods behind `/oauth/register`, `/oauth/token` and `/oauth/revoke`,
//! with requests built in `oauth::web_client`: the same checks, no HTTP round trip.
//!
//! The code exchange at `/signin/callback` and the refresh of an expired session count against
//! the browser's address in the window `/oauth/token` counts: anyone can send the callback a
//! code and a verifier of their choosing (the sign-in cookie is theirs to write), and any page a
//! refresh cookie, so these two are doors to the token endpoint and get its limit. The pages'
//! registration is not counted: it is the server's own, made once per host, and the
//! `/authorize` that follows it counts the browser.
//!
//! What not: the sign-out form's checks (`service::forms`, the one door for browser posts).

use super::{access_ttl_seconds, BearerRefusal, Server, WorkerPorts};
use crate::config::Config;
use crate::http::{same_site_path, HttpReply};
use crate::oauth::error::Error;
use crate::oauth::token_request::IssuedTokens;
use crate::oauth::tokens;
use crate::oauth::web_client;
use crate::ports::edge::Kv;
use crate::ports::pull_request::Console;
use crate::security::cookie::{self, SameSite};
use crate::tools::caller::Caller;
use crate::web::csrf;
use crate::web::pages::reply as page_reply;
use crate::web::sign_in as texts;

const SIGNIN_COOKIE: &str = "lkf_signin";
const ACCESS_COOKIE: &str = "lkf_at";
const REFRESH_COOKIE: &str = "lkf_rt";
/// Refresh tokens live 30 days from last use; the cookie follows.
const REFRESH_MAX_AGE: u64 = 30 * 24 * 3600;
/// The sign-in's own cookie lives as long as the OAuth flow behind it.
const SIGNIN_MAX_AGE: u64 = 600;

/// What the session's routes read from a request.
#[derive(Debug, Clone)]
pub struct WebRequest {
    pub url: url::Url,
    pub method: String,
    pub cookie: Option<String>,
    /// The caller's address, as the per-address limit keys it.
    pub address: String,
}

impl WebRequest {
    fn secure(&self) -> bool {
        self.url.scheme() == "https"
    }

    fn query(&self, key: &str) -> Option<String> {
        let mut pairs = self.url.query_pairs();
        pairs.find(|(k, _)| k == key).map(|(_, v)| v.into_owned())
    }

    fn cookie(&self, name: &str) -> Option<String> {
        let name = cookie::name(name, self.secure());
        cookie::read(self.cookie.as_deref(), &name).map(str::to_string)
    }

    /// This page's path and query, to come back to.
    fn here(&self) -> String {
        match self.url.query() {
            Some(query) => format!("{}?{query}", self.url.path()),
            None => self.url.path().to_string(),
        }
    }
}

fn set_cookie(name: &str, value: &str, max_age: u64, secure: bool) -> String {
    let name = cookie::name(name, secure);
    cookie::set(&name, value, Some(max_age), SameSite::Lax, secure)
}

fn encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// The session's cookies for newly issued tokens.
fn session_cookies(reply: HttpReply, issued: &IssuedTokens, secure: bool) -> HttpReply {
    let access = &issued.access_token;
    reply
        .with_header(
            "set-cookie",
            set_cookie(ACCESS_COOKIE, access, issued.expires_in, secure),
        )
        .with_header(
            "set-cookie",
            set_cookie(
                REFRESH_COOKIE,
                &issued.refresh_token,
                REFRESH_MAX_AGE,
                secure,
            ),
        )
}

/// A redirect home that clears the session's cookies, for a session whose grant is gone.
pub fn signed_out(secure: bool) -> HttpReply {
    let home = HttpReply::empty(303)
        .with_header("location", "/")
        .with_header("cache-control", "no-store");
    end_session(home, secure)
}

/// `reply` with the session's cookies cleared, for a session whose grant is gone (the person
/// signed out or deleted their data): the browser is signed out without another round trip,
/// and its forms' browser-session nonce goes with it.
pub fn end_session(reply: HttpReply, secure: bool) -> HttpReply {
    reply
        .with_header("set-cookie", set_cookie(ACCESS_COOKIE, "", 0, secure))
        .with_header("set-cookie", set_cookie(REFRESH_COOKIE, "", 0, secure))
        .with_header("set-cookie", csrf::clear_cookie(secure))
}

/// The person this browser's session cookies name (`gh:<id>`, as a signed-in page's caller is
/// named), read from the refresh or access token's own text with its tag checked, without a
/// call to the person's object; empty when there is no session. Sign-out binds its form to it.
pub fn session_person(request: &WebRequest, config: &Config) -> String {
    let key = config.token_tag_key();
    [REFRESH_COOKIE, ACCESS_COOKIE]
        .iter()
        .filter_map(|name| request.cookie(name))
        .find_map(|token| tokens::verify(&token, key.as_ref()?))
        .map(|(_, person)| person.object_name())
        .unwrap_or_default()
}

impl<P: WorkerPorts> Server<'_, P> {
    /// The web client's id for this host, registered on first use, and again once its
    /// registration has expired (client records last 180 days after their last `/authorize`;
    /// this pointer has no expiry of its own, so a host with no web sign-in for that long would
    /// otherwise be stuck).
    pub async fn pages_client(&self) -> Result<String, Error> {
        let kv = self.ports.clients();
        let key = format!("webclient:{}", self.base_url);
        let read = |e| self.internal("KV read", e);
        if let Some(id) = kv.get(&key).await.map_err(read)? {
            if kv
                .get(&format!("client:{id}"))
                .await
                .map_err(read)?
                .is_some()
            {
                return Ok(id);
            }
        }
        let registration = web_client::registration(self.base_url)?;
        let id = self.register_client(registration).await?.client_id;
        let write = |e| self.internal("KV write", e);
        kv.put(&key, &id, None).await.map_err(write)?;
        Ok(id)
    }

    /// `GET /signin?next=…[&access=change]`: starts the OAuth flow for the review pages.
    pub async fn web_sign_in(&self, request: &WebRequest) -> Result<HttpReply, Error> {
        let next = same_site_path(request.query("next").as_deref());
        // `access=change`: the person asked to choose their access again (Settings).
        let ask_again = request
            .url
            .query_pairs()
            .any(|(k, v)| k == "access" && v == "change");
        let client_id = self.pages_client().await?;
        let verifier = self.random_text()?;
        let state = self.random_text()?;
        let location =
            web_client::authorize_url(self.base_url, &client_id, &verifier, &state, ask_again);
        let flow = format!("{state}.{verifier}.{}", encode(&next));
        let cookie = set_cookie(SIGNIN_COOKIE, &flow, SIGNIN_MAX_AGE, request.secure());
        Ok(HttpReply::empty(302)
            .with_header("location", location)
            .with_header("set-cookie", cookie))
    }

    /// `GET /signin/callback?code=…&state=…`: redeems the code and starts the session.
    pub async fn web_callback(&self, request: &WebRequest) -> Result<HttpReply, Error> {
        let secure = request.secure();
        let flow = request.cookie(SIGNIN_COOKIE).unwrap_or_default();
        let mut parts = flow.splitn(3, '.');
        let (state, verifier, next) = (
            parts.next().unwrap_or_default(),
            parts.next().unwrap_or_default(),
            parts.next().unwrap_or_default(),
        );
        let next_path = url::form_urlencoded::parse(format!("n={next}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned());
        let next = same_site_path(next_path.as_deref());
        let Some(code) = request.query("code") else {
            let reason = request
                .query("error_description")
                .or_else(|| request.query("error"));
            let reason = reason.unwrap_or_else(|| texts::NOT_COMPLETED.into());
            let page = texts::failed(&reason, &encode(&next), self.base_url);
            return Ok(page_reply(400, page));
        };
        if state.is_empty() || request.query("state").as_deref() != Some(state) {
            return Ok(page_reply(400, texts::expired(self.base_url)));
        }
        let client_id = self.pages_client().await?;
        let ttl = access_ttl_seconds(self.config);
        let grant = web_client::code_grant(self.base_url, &client_id, &code, verifier, ttl);
        // The token endpoint's per-address limit, then its grant (see the module's note).
        let granted = match self.address_limit(&request.address).await {
            Ok(()) => self.grant_tokens(&grant).await,
            Err(error) => Err(error),
        };
        let issued = match granted {
            Ok(issued) => issued,
            Err(error) => {
                let line = format!("web sign-in: the code was refused: {}", error.description());
                self.ports.console().error(&line);
                return Ok(page_reply(400, texts::not_redeemed(self.base_url)));
            }
        };
        // A new sign-in starts a new browser session for the forms' tokens: the next page makes
        // a new nonce, so no page shown before the sign-in keeps a valid form.
        let home = HttpReply::empty(303).with_header("location", next);
        Ok(session_cookies(home, &issued, secure)
            .with_header("set-cookie", set_cookie(SIGNIN_COOKIE, "", 0, secure))
            .with_header("set-cookie", csrf::clear_cookie(secure)))
    }

    /// The signed-in person, or the reply that gets them signed in: a refresh when the access
    /// token expired (a redirect to the same page with new cookies), else the sign-in flow.
    pub async fn viewer(&self, request: &WebRequest) -> Result<Result<Caller, HttpReply>, Error> {
        if let Some(access) = request.cookie(ACCESS_COOKIE) {
            let post = request.method == "POST";
            match self.authenticate_web(&access, post).await {
                Ok(caller) => return Ok(Ok(caller)),
                Err(BearerRefusal::RateLimited {
                    retry_after_seconds,
                }) => {
                    let text = texts::too_many_requests(retry_after_seconds);
                    let reply = HttpReply::new(429, "text/plain; charset=utf-8", text)
                        .with_header("retry-after", retry_after_seconds.to_string());
                    return Ok(Err(reply));
                }
                Err(BearerRefusal::Unavailable) => {
                    let text = texts::UNAVAILABLE;
                    return Ok(Err(HttpReply::new(503, "text/plain; charset=utf-8", text)));
                }
                Err(BearerRefusal::Invalid) => {}
            }
        }
        if let Some(refreshed) = self.refresh_session(request).await? {
            return Ok(Err(refreshed));
        }
        if request.method != "GET" {
            let text = texts::SESSION_ENDED;
            return Ok(Err(HttpReply::new(401, "text/plain; charset=utf-8", text)));
        }
        let location = format!("/signin?next={}", encode(&request.here()));
        Ok(Err(HttpReply::empty(302).with_header("location", location)))
    }

    /// The refresh cookie's rotation: a redirect to the same page with new cookies, or `None`
    /// when there is no refresh cookie or it is refused (expired, replayed, revoked, limited),
    /// which signs the person in again. As at the callback: the per-address limit, then the grant.
    async fn refresh_session(&self, request: &WebRequest) -> Result<Option<HttpReply>, Error> {
        let Some(refresh) = request.cookie(REFRESH_COOKIE) else {
            return Ok(None);
        };
        let client_id = self.pages_client().await?;
        let ttl = access_ttl_seconds(self.config);
        let grant = web_client::refresh_grant(self.base_url, &client_id, &refresh, ttl);
        if self.address_limit(&request.address).await.is_err() {
            return Ok(None);
        }
        let Ok(issued) = self.grant_tokens(&grant).await else {
            return Ok(None);
        };
        let again = HttpReply::empty(303).with_header("location", request.here());
        Ok(Some(session_cookies(again, &issued, request.secure())))
    }

    /// A checked sign-out: revokes the session's grant and clears the cookies (failures are
    /// logged where they happen; the cookies go either way).
    pub async fn web_sign_out(&self, request: &WebRequest) -> HttpReply {
        if let Some(refresh) = request.cookie(REFRESH_COOKIE) {
            let _ = self.revoke(&refresh, None).await;
        }
        signed_out(request.secure())
    }
}
