//! The one door every state-changing request from a browser goes through (wasm only): the
//! settings forms, ticks, the arrange editor's save, sign-out, and whatever the pages post
//! next. A handler calls [`verified_post`] before it reads anything else of the request, and a
//! page that shows a form gets its token from [`page_token`]; `web::csrf` holds the rules and
//! the words (issue #31). The OAuth consent form, shown before anyone has a session with us,
//! is held to the same rules by `oauth::authorize::parse_consent_form`.
//!
//! What not: no decisions (`web::csrf::verify_post` makes them) and no endpoint's own checks.

use worker::Request;

use crate::config::Config;
use crate::http::{Headers, HttpReply};
use crate::security::cookie;
use crate::web::csrf::{self, BodyKind, Post, Refusal};

/// The largest form body read: the longest a tick, a settings form or a review comment needs,
/// with room to spare.
pub const MAX_FORM_BYTES: usize = 256 * 1024;

/// The CSRF token a page shows, and the browser-session cookie it is bound to.
pub struct PageToken {
    /// The value the page's forms send back (`csrf` field, or the `X-CSRF-Token` header).
    pub token: String,
    nonce: String,
    secure: bool,
}

impl PageToken {
    /// `reply` with the browser-session cookie set (again: the same value while it lasts).
    pub fn with_cookie(&self, reply: HttpReply) -> HttpReply {
        reply.with_header("set-cookie", self.cookie())
    }

    /// The `set-cookie` value of the browser-session cookie.
    pub fn cookie(&self) -> String {
        csrf::set_cookie(&self.nonce, self.secure)
    }
}

fn is_secure(req: &Request) -> worker::Result<bool> {
    Ok(req.url()?.scheme() == "https")
}

fn cookie_header(req: &Request) -> Option<String> {
    req.headers().get("cookie").ok().flatten()
}

/// The token a page shows `person` (the signed-in person's id, or empty for nobody) in this
/// browser: made from the browser session's nonce, a new one when the browser has none. With no
/// session key configured, a token that no check accepts (every form is refused then anyway).
pub fn page_token(req: &Request, config: &Config, person: &str) -> worker::Result<PageToken> {
    let secure = is_secure(req)?;
    let header = cookie_header(req);
    let existing = csrf::usable_nonce(cookie::read(header.as_deref(), csrf::cookie_name(secure)));
    let nonce = match existing {
        Some(nonce) => nonce.to_string(),
        None => csrf::nonce().map_err(|e| worker::Error::RustError(e.to_string()))?,
    };
    let token = config
        .session_key()
        .map(|key| key.token(&nonce, person))
        .unwrap_or_default();
    Ok(PageToken {
        token,
        nonce,
        secure,
    })
}

/// A refusal as a page, for a browser that posted a form.
pub fn refusal_page(refusal: Refusal, base_url: &str) -> HttpReply {
    super::html(refusal.status(), csrf::refusal_page(refusal, base_url))
        .with_header("cache-control", "no-store")
}

/// A refusal as `{"error": …}`, for the pages' scripts.
pub fn refusal_json(refusal: Refusal) -> HttpReply {
    HttpReply::json(
        refusal.status(),
        &serde_json::json!({ "error": refusal.message() }),
    )
    .with_header("cache-control", "no-store")
}

/// Reads a state-changing POST from a browser and holds it to `web::csrf::verify_post`: the
/// content type `kind` names, same origin, and the token of this browser session and `person`
/// (the signed-in person's id as the page that made the token saw it, empty for nobody). A form
/// carries the token in its `csrf` field, a JSON body in the `X-CSRF-Token` header. Returns the
/// body, at most `max_bytes`, only when every check passed.
pub async fn verified_post(
    req: &mut Request,
    config: &Config,
    base_url: &str,
    person: &str,
    kind: BodyKind,
    max_bytes: usize,
) -> worker::Result<Result<Vec<u8>, Refusal>> {
    let secure = is_secure(req)?;
    let headers = Headers::new(req.headers().entries());
    let body = match crate::body::read(req.inner(), max_bytes).await? {
        crate::body::Capped::Body(body) => body,
        crate::body::Capped::TooLarge => return Ok(Err(Refusal::TooLarge)),
    };
    let form = match kind {
        BodyKind::Form => crate::security::form::pairs(&body),
        BodyKind::Json => Vec::new(),
    };
    let token = match kind {
        BodyKind::Form => crate::security::form::value(&form, "csrf"),
        BodyKind::Json => headers.get("x-csrf-token"),
    };
    let post = Post {
        content_type: headers.get("content-type"),
        origin: headers.get("origin"),
        sec_fetch_site: headers.get("sec-fetch-site"),
        nonce: cookie::read(headers.get("cookie"), csrf::cookie_name(secure)),
        token,
    };
    Ok(csrf::verify_post(&post, kind, config.session_key(), person, base_url).map(|()| body))
}
