//! `/settings`'s shell (wasm only): finds the person through the review pages' web session
//! (`web_session::viewer`), holds every form to the checks of every browser POST
//! (`forms::verified_post`: a form body, same origin, the token of this browser session and
//! person), and calls `app::oauth::settings`, which does the rest over the Worker's ports.
//!
//! Local development (a loopback request acting as `local:<login>`) has no person object; the
//! router shows `settings_page::local_dev` instead, before this module is reached.

use worker::{Env, Request};

use super::forms;
use super::web_session;
use crate::app::oauth::settings::{SettingsForm, SettingsVisit};
use crate::app::oauth::Server;
use crate::config::Config;
use crate::http::HttpReply;
use crate::oauth::tokens::PersonId;
use crate::router::Route;
use crate::store::WorkerPlatform;
use crate::web::csrf::BodyKind;
use crate::web::settings_page;

/// The largest settings form: a token's name and a few ids.
const MAX_FORM_BYTES: usize = 16 * 1024;

/// The web session's access token (to mark its grant as this browser's).
fn session_token(req: &Request, secure: bool) -> Option<String> {
    let header = req.headers().get("cookie").ok().flatten();
    let name = if secure { "__Host-lkf_at" } else { "lkf_at" };
    crate::security::cookie::read(header.as_deref(), name).map(str::to_string)
}

/// The form a settings route takes, `None` for the page itself.
fn form_of(route: &Route) -> Option<SettingsForm> {
    match route {
        Route::SettingsDisconnect => Some(SettingsForm::Disconnect),
        Route::SettingsCreateToken => Some(SettingsForm::CreateToken),
        Route::SettingsRevokeToken => Some(SettingsForm::RevokeToken),
        Route::SettingsDeleteData => Some(SettingsForm::DeleteData),
        _ => None,
    }
}

/// A form posted with an expired access token: the session was refreshed and the browser is
/// sent back to the page (a form can't be replayed by a redirect).
fn back_to_settings(mut reply: HttpReply) -> HttpReply {
    for (name, value) in reply.headers.iter_mut() {
        if name.eq_ignore_ascii_case("location") {
            *value = "/settings".into();
        }
    }
    reply.with_header("cache-control", "no-store")
}

/// Serves the settings routes.
pub async fn handle(
    req: &mut Request,
    route: &Route,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let secure = req.url()?.scheme() == "https";
    let caller = match web_session::viewer(req, env, config, base_url).await? {
        Ok(caller) => caller,
        Err(reply) if *route != Route::Settings && reply.status == 303 => {
            return Ok(back_to_settings(reply));
        }
        Err(reply) => return Ok(reply),
    };
    let person = caller.person.strip_prefix("gh:").and_then(PersonId::parse);
    let Some(person) = person else {
        return Ok(super::html(200, settings_page::local_dev(base_url)));
    };
    let page_token = forms::page_token(req, config, &caller.person)?;
    let visit = SettingsVisit {
        caller: &caller,
        person,
        current_token: session_token(req, secure),
        csrf: page_token.token.clone(),
        csrf_cookie: page_token.cookie(),
        secure,
    };
    let ports = WorkerPlatform::new(env);
    let server = Server {
        ports: &ports,
        config,
        base_url,
    };
    let Some(which) = form_of(route) else {
        return Ok(server.settings_page(&visit, None, None).await);
    };
    let kind = BodyKind::Form;
    let verified =
        forms::verified_post(req, config, base_url, &caller.person, kind, MAX_FORM_BYTES).await?;
    match verified {
        Ok(body) => Ok(server.settings_form(&visit, which, &body).await),
        Err(refusal) => Ok(forms::refusal_page(refusal, base_url)),
    }
}
