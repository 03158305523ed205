//! Signing reviewers in on the web (wasm only): the review pages are a first-party OAuth client
//! of this same server, so a browser session is an ordinary grant — same GitHub sign-in, consent,
//! token rotation, revocation and rate limit as an agent's — held in HttpOnly cookies.
//!
//! `/signin?next=/r/…` registers the web client once per host, then sends the browser through
//! `/authorize` with PKCE; `/signin/callback` redeems the code and sets the cookies (and clears
//! the browser-session nonce of the forms' tokens, so the next page starts a new one, `forms`); `POST /signout` (held to the checks of
//! every browser POST) revokes the refresh token and clears them. The registration, the
//! code exchange, the refresh and the revocation call the functions behind `/oauth/register`,
//! `/oauth/token` and `/oauth/revoke` (`service::oauth_server`) directly, with requests built in
//! `oauth::web_client`: the same checks, no HTTP round trip inside the Worker.
//!
//! The code exchange at `/signin/callback` and the refresh of an expired session count against
//! the browser's address in the window `/oauth/token` counts: anyone can send the callback a code
//! and a verifier of their choosing (the sign-in cookie is theirs to write), and any page a
//! refresh cookie, so these two are doors to the token endpoint and get its limit. (When they
//! went through that endpoint in-process, the limit keyed on the inner request, which has no
//! `cf-connecting-ip`: on a deployed Worker every web sign-in and refresh shared one window.) The
//! pages' registration is not counted: it is the server's own, made once per host, and the
//! `/authorize` that follows it counts the browser.

use worker::{Env, Method, Request};

use super::forms;
use super::oauth_server::{
    access_ttl_seconds, address_limit, authenticate_web, grant_tokens, register_client, revoke,
    BearerRefusal,
};
use crate::config::Config;
use crate::http::HttpReply;
use crate::oauth::token_request::IssuedTokens;
use crate::oauth::tokens;
use crate::oauth::web_client;
use crate::security::cookie::{self, SameSite};
use crate::security::random;
use crate::tools::caller::Caller;
use crate::web::csrf::{self, BodyKind};

const SIGNIN_COOKIE: &str = "lkf_signin";
const ACCESS_COOKIE: &str = "lkf_at";
const REFRESH_COOKIE: &str = "lkf_rt";
/// Refresh tokens live 30 days from last use; the cookie follows.
const REFRESH_MAX_AGE: u64 = 30 * 24 * 3600;
/// The sign-out form holds its token alone.
const SIGN_OUT_FORM_BYTES: usize = 16 * 1024;

fn set_cookie(name: &str, value: &str, max_age: u64, secure: bool) -> String {
    cookie::set(
        &cookie::name(name, secure),
        value,
        Some(max_age),
        SameSite::Lax,
        secure,
    )
}

fn read_cookie(req: &Request, name: &str, secure: bool) -> Option<String> {
    read_cookie_raw(req, &cookie::name(name, secure))
}

fn read_cookie_raw(req: &Request, name: &str) -> Option<String> {
    let header = req.headers().get("cookie").ok().flatten();
    cookie::read(header.as_deref(), name).map(str::to_string)
}

fn random_text() -> worker::Result<String> {
    random::token().map_err(|e| worker::Error::RustError(e.to_string()))
}

fn encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// The web client's id for this host, registered on first use, and again once its registration
/// has expired (client records last 180 days after their last `/authorize`; this pointer has
/// no expiry of its own, so a host with no web sign-in for that long would otherwise be stuck).
async fn pages_client(env: &Env, base_url: &str) -> worker::Result<String> {
    let kv = env.kv("CLIENTS")?;
    let key = format!("webclient:{base_url}");
    if let Some(id) = kv.get(&key).text().await? {
        if kv.get(&format!("client:{id}")).text().await?.is_some() {
            return Ok(id);
        }
    }
    let registered = match web_client::registration(base_url) {
        Ok(registration) => register_client(env, registration).await,
        Err(error) => Err(error),
    };
    // The entry logs the failure and answers 500, as when this went through `/oauth/register`.
    let id = registered
        .map_err(|error| worker::Error::RustError(error.description()))?
        .client_id;
    kv.put(&key, crate::store::KvText(&id))?.execute().await?;
    Ok(id)
}

/// The session's cookies for newly issued tokens.
fn session_cookies(reply: HttpReply, issued: &IssuedTokens, secure: bool) -> HttpReply {
    reply
        .with_header(
            "set-cookie",
            set_cookie(
                ACCESS_COOKIE,
                &issued.access_token,
                issued.expires_in,
                secure,
            ),
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

/// `GET /signin?next=…`: starts the OAuth flow for the review pages.
pub async fn sign_in(req: &Request, env: &Env, base_url: &str) -> worker::Result<HttpReply> {
    let url = req.url()?;
    let secure = url.scheme() == "https";
    let next = crate::http::same_site_path(
        url.query_pairs()
            .find(|(k, _)| k == "next")
            .map(|(_, v)| v.into_owned())
            .as_deref(),
    );
    let client_id = pages_client(env, base_url).await?;
    let verifier = random_text()?;
    let state = random_text()?;
    let location = web_client::authorize_url(base_url, &client_id, &verifier, &state);
    let flow = format!("{state}.{verifier}.{}", encode(&next));
    Ok(HttpReply::empty(302)
        .with_header("location", location)
        .with_header("set-cookie", set_cookie(SIGNIN_COOKIE, &flow, 600, secure)))
}

/// `GET /signin/callback?code=…&state=…`: redeems the code and starts the session.
pub async fn callback(
    req: &Request,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let url = req.url()?;
    let secure = url.scheme() == "https";
    let query = |key: &str| {
        url.query_pairs()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.into_owned())
    };
    let flow = read_cookie(req, SIGNIN_COOKIE, secure).unwrap_or_default();
    let mut parts = flow.splitn(3, '.');
    let (state, verifier, next) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
    );
    let next_path = url::form_urlencoded::parse(format!("n={next}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned());
    let next = crate::http::same_site_path(next_path.as_deref());
    let Some(code) = query("code") else {
        let reason = query("error_description")
            .or_else(|| query("error"))
            .unwrap_or_else(|| "sign-in was not completed".into());
        return Ok(super::html(400, crate::web::html::page("Sign-in failed", &format!("<h1>Sign-in failed</h1><p>{}</p><p><a href=\"/signin?next={}\">Try again</a></p>", crate::web::html::escape(&reason), crate::web::html::escape(&encode(&next))), base_url)));
    };
    if state.is_empty() || query("state").as_deref() != Some(state) {
        return Ok(super::html(400, crate::web::html::page("Sign-in expired", "<h1>Sign-in expired</h1><p>This sign-in was started in another browser or took too long. <a href=\"/signin\">Start again</a>.</p>", base_url)));
    }
    let client_id = pages_client(env, base_url).await?;
    let request = web_client::code_grant(
        base_url,
        &client_id,
        &code,
        verifier,
        access_ttl_seconds(config),
    );
    // The token endpoint's per-address limit, then its grant (see the module's note).
    let granted = match address_limit(req, env, config).await {
        Ok(()) => grant_tokens(env, config, &request).await,
        Err(error) => Err(error),
    };
    let issued = match granted {
        Ok(issued) => issued,
        Err(error) => {
            worker::console_error!("web sign-in: the code was refused: {}", error.description());
            return Ok(super::html(400, crate::web::html::page("Sign-in failed", "<h1>Sign-in failed</h1><p>The sign-in code could not be redeemed. <a href=\"/signin\">Start again</a>.</p>", base_url)));
        }
    };
    // A new sign-in starts a new browser session for the forms' tokens: the next page makes a
    // new nonce (`forms::page_token`), so no page shown before the sign-in keeps a valid form.
    Ok(session_cookies(
        HttpReply::empty(303).with_header("location", next),
        &issued,
        secure,
    )
    .with_header("set-cookie", set_cookie(SIGNIN_COOKIE, "", 0, secure))
    .with_header("set-cookie", csrf::clear_cookie(secure)))
}

/// The person this browser's session cookies name (`gh:<id>`, as a signed-in page's caller is
/// named), read from the refresh or access token's own text with its tag checked, without a
/// call to the person's object; empty when there is no session. Sign-out binds its form to it,
/// as every signed-in page binds its forms to the caller (`forms::page_token`).
fn session_person(req: &Request, config: &Config, secure: bool) -> String {
    let key = config.token_tag_key();
    [REFRESH_COOKIE, ACCESS_COOKIE]
        .iter()
        .filter_map(|name| read_cookie(req, name, secure))
        .find_map(|token| tokens::verify(&token, key.as_ref()?))
        .map(|(_, person)| person.object_name())
        .unwrap_or_default()
}

/// `/signout`. `GET` shows a button; a `POST` that passes the checks of every browser POST
/// (`forms::verified_post`: a form body, same origin, this session's token) revokes the
/// session's grant and clears the cookies. Any other POST gets 403 (or 415) and changes nothing.
pub async fn sign_out(
    req: &mut Request,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let secure = req.url()?.scheme() == "https";
    let person = session_person(req, config, secure);
    if req.method() != Method::Post {
        let token = forms::page_token(req, config, &person)?;
        return Ok(token.with_cookie(
            super::html(200, crate::web::pages::sign_out(&token.token, base_url))
                .with_header("cache-control", "no-store"),
        ));
    }
    let verified = forms::verified_post(
        req,
        config,
        base_url,
        &person,
        BodyKind::Form,
        SIGN_OUT_FORM_BYTES,
    )
    .await?;
    if let Err(refusal) = verified {
        return Ok(forms::refusal_page(refusal, base_url));
    }
    if let Some(refresh) = read_cookie(req, REFRESH_COOKIE, secure) {
        // Failures are logged where they happen; the cookies go either way.
        let _ = revoke(env, config, &refresh, None).await;
    }
    Ok(signed_out(secure))
}

/// A redirect home that clears the session's cookies, for a session whose grant is gone.
pub fn signed_out(secure: bool) -> HttpReply {
    end_session(
        HttpReply::empty(303)
            .with_header("location", "/")
            .with_header("cache-control", "no-store"),
        secure,
    )
}

/// `reply` with the session's cookies cleared, for a session whose grant is gone (the person
/// signed out or deleted their data): the browser is signed out without another round trip, and
/// its forms' browser-session nonce goes with it.
pub fn end_session(reply: HttpReply, secure: bool) -> HttpReply {
    reply
        .with_header("set-cookie", set_cookie(ACCESS_COOKIE, "", 0, secure))
        .with_header("set-cookie", set_cookie(REFRESH_COOKIE, "", 0, secure))
        .with_header("set-cookie", csrf::clear_cookie(secure))
}

/// The signed-in person, or the reply that gets them signed in: a refresh when the access token
/// expired (a redirect to the same page with new cookies), else the sign-in flow.
pub async fn viewer(
    req: &Request,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> worker::Result<Result<Caller, HttpReply>> {
    let url = req.url()?;
    let secure = url.scheme() == "https";
    let here = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_string(),
    };
    if let Some(access) = read_cookie(req, ACCESS_COOKIE, secure) {
        let post = req.method() == worker::Method::Post;
        match authenticate_web(env, config, base_url, &access, post).await {
            Ok(caller) => return Ok(Ok(caller)),
            Err(BearerRefusal::RateLimited {
                retry_after_seconds,
            }) => {
                return Ok(Err(HttpReply::new(
                    429,
                    "text/plain; charset=utf-8",
                    format!("Too many requests; retry in {retry_after_seconds} seconds."),
                )
                .with_header("retry-after", retry_after_seconds.to_string())));
            }
            Err(BearerRefusal::Unavailable) => {
                return Ok(Err(HttpReply::new(
                    503,
                    "text/plain; charset=utf-8",
                    "Sign-in is unavailable right now; retry in a minute.",
                )));
            }
            Err(BearerRefusal::Invalid) => {}
        }
    }
    if let Some(refresh) = read_cookie(req, REFRESH_COOKIE, secure) {
        let client_id = pages_client(env, base_url).await?;
        let request =
            web_client::refresh_grant(base_url, &client_id, &refresh, access_ttl_seconds(config));
        // A refused refresh (expired, replayed, revoked, limited) signs the person in again.
        // As at the callback: the token endpoint's per-address limit, then its grant.
        if address_limit(req, env, config).await.is_ok() {
            if let Ok(issued) = grant_tokens(env, config, &request).await {
                return Ok(Err(session_cookies(
                    HttpReply::empty(303).with_header("location", here),
                    &issued,
                    secure,
                )));
            }
        }
    }
    if req.method() != Method::Get {
        return Ok(Err(HttpReply::new(
            401,
            "text/plain; charset=utf-8",
            "Sign in again: your session ended.",
        )));
    }
    Ok(Err(HttpReply::empty(302).with_header(
        "location",
        format!("/signin?next={}", encode(&here)),
    )))
}
