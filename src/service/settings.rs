//! `/settings` (wasm only): a signed-in GitHub person's connected apps (Disconnect ends one at
//! once), API tokens (create, list, revoke), and "Delete my data" (`service::person_data`). The
//! person is found through the review pages' web session (`web_session::viewer`); every form
//! goes through `forms::verified_post` (a form body, same origin, the token of this browser
//! session and person: `web::csrf`). The person's Durable Object does the work
//! (`oauth::person_api`).
//!
//! Local development (a loopback request acting as `local:<login>`) has no person object; the
//! router shows `settings_page::local_dev` instead, before this module is reached.

use worker::{Env, Request};

use super::forms;
use super::oauth_server::call_person;
use super::person_data::Deleted;
use super::web_session;
use crate::config::Config;
use crate::http::HttpReply;
use crate::oauth::person_api as api;
use crate::oauth::tokens::PersonId;
use crate::router::Route;
use crate::security::form;
use crate::tools::caller::Caller;
use crate::web::csrf::BodyKind;
use crate::web::settings_page::{self, SettingsView};

/// The largest settings form: a token's name and a few ids.
const MAX_FORM_BYTES: usize = 16 * 1024;

fn header(req: &Request, name: &str) -> Option<String> {
    req.headers().get(name).ok().flatten()
}

fn cookie(req: &Request, name: &str) -> Option<String> {
    let header = header(req, "cookie");
    crate::security::cookie::read(header.as_deref(), name).map(str::to_string)
}

/// The web session's access token (to mark its grant as this browser's).
fn session_token(req: &Request, secure: bool) -> Option<String> {
    cookie(req, if secure { "__Host-lkf_at" } else { "lkf_at" })
}

fn person_of(caller: &Caller) -> Option<PersonId> {
    caller.person.strip_prefix("gh:").and_then(PersonId::parse)
}

fn no_store(reply: HttpReply) -> HttpReply {
    reply.with_header("cache-control", "no-store")
}

fn see_settings() -> HttpReply {
    no_store(HttpReply::empty(303).with_header("location", "/settings"))
}

fn unavailable(error: worker::Error) -> HttpReply {
    worker::console_error!("settings: the person object failed: {error}");
    no_store(HttpReply::new(
        503,
        "text/plain; charset=utf-8",
        "Settings are unavailable right now; retry in a minute.",
    ))
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
        // A form posted with an expired access token: the session was refreshed and the
        // browser is sent back to the page (a form can't be replayed by a redirect).
        Err(mut reply) if *route != Route::Settings && reply.status == 303 => {
            for (name, value) in reply.headers.iter_mut() {
                if name.eq_ignore_ascii_case("location") {
                    *value = "/settings".into();
                }
            }
            return Ok(no_store(reply));
        }
        Err(reply) => return Ok(reply),
    };
    let Some(person) = person_of(&caller) else {
        return Ok(super::html(200, settings_page::local_dev(base_url)));
    };
    let object = person.object_name();
    let session = Session {
        env,
        caller: &caller,
        object: &object,
        current_token: session_token(req, secure),
        page_token: forms::page_token(req, config, &caller.person)?,
        base_url,
        secure,
    };

    if *route == Route::Settings {
        return session.show(None, None).await;
    }

    // A form: the checks of every browser POST first.
    let body = match forms::verified_post(
        req,
        config,
        base_url,
        &caller.person,
        BodyKind::Form,
        MAX_FORM_BYTES,
    )
    .await?
    {
        Ok(body) => body,
        Err(refusal) => return Ok(forms::refusal_page(refusal, base_url)),
    };
    let form = form::pairs(&body);

    match route {
        Route::SettingsDisconnect => {
            let grant_id = form::value(&form, "grant").unwrap_or_default().to_string();
            // Is it this browser's own session? Then Disconnect signs out too.
            let listed = match session.list().await {
                Ok(listed) => listed,
                Err(reply) => return Ok(reply),
            };
            let current = listed
                .apps
                .iter()
                .any(|app| app.current && app.grant_id == grant_id);
            let request = api::DisconnectRequest { grant_id };
            if let Err(error) =
                call_person::<_, api::Removed>(env, &object, api::DISCONNECT, &request).await
            {
                return Ok(unavailable(error));
            }
            if current {
                // This browser's own grant is gone: clear its cookies (signing out by a
                // redirect to /signout would need a second, CSRF-checked POST).
                return Ok(web_session::signed_out(session.secure));
            }
            Ok(see_settings())
        }
        Route::SettingsCreateToken => {
            let Some(name) =
                settings_page::token_name(form::value(&form, "name").unwrap_or_default())
            else {
                let notice = format!(
                    "Give the token a name of 1 to {} characters.",
                    settings_page::MAX_TOKEN_NAME_CHARS
                );
                return session
                    .show(None, Some(&notice))
                    .await
                    .map(|reply| with_status(reply, 400));
            };
            let may_write = match form::value(&form, "access") {
                Some("write") => true,
                Some("read") | None => false,
                Some(_) => {
                    return session
                        .show(None, Some("Choose read or write access."))
                        .await
                        .map(|reply| with_status(reply, 400));
                }
            };
            let request = api::CreateApiTokenRequest {
                person: person.clone(),
                name: name.clone(),
                may_write,
            };
            let created: api::CreateApiTokenReply =
                match call_person(env, &object, api::CREATE_API_TOKEN, &request).await {
                    Ok(created) => created,
                    Err(error) => return Ok(unavailable(error)),
                };
            session.show(Some((&name, &created.token)), None).await
        }
        Route::SettingsRevokeToken => {
            let request = api::RevokeApiTokenRequest {
                id: form::value(&form, "token").unwrap_or_default().to_string(),
            };
            if let Err(error) =
                call_person::<_, api::Removed>(env, &object, api::REVOKE_API_TOKEN, &request).await
            {
                return Ok(unavailable(error));
            }
            Ok(see_settings())
        }
        Route::SettingsDeleteData => {
            if form::value(&form, "confirm") != Some("delete") {
                return session
                    .show(None, Some("Tick “Yes, delete my data” to confirm."))
                    .await
                    .map(|reply| with_status(reply, 400));
            }
            match super::person_data::delete(env, &object, config.delete_batch_pulls).await {
                Ok(Deleted::All(forgotten)) => {
                    let page = settings_page::deleted(&caller.login, &forgotten, base_url);
                    Ok(no_store(web_session::end_session(
                        super::html(200, page),
                        secure,
                    )))
                }
                Ok(Deleted::Partly { cleared }) => {
                    let notice = format!(
                        "Deleted your ticks on {cleared} pull requests; more are left. Press Delete my data again to go on."
                    );
                    session.show(None, Some(&notice)).await
                }
                Err(error) => Ok(unavailable(error)),
            }
        }
        _ => Ok(super::html(404, crate::web::pages::not_found(base_url))),
    }
}

fn with_status(mut reply: HttpReply, status: u16) -> HttpReply {
    reply.status = status;
    reply
}

/// What every settings answer needs: who is asking, their person object, and the browser's
/// session and CSRF cookies.
struct Session<'a> {
    env: &'a Env,
    caller: &'a Caller,
    object: &'a str,
    /// This browser's own access token, so its session is marked in the list.
    current_token: Option<String>,
    /// The token the page's forms carry, and its browser-session cookie.
    page_token: forms::PageToken,
    base_url: &'a str,
    secure: bool,
}

impl Session<'_> {
    /// The person's connected apps and API tokens, or the reply when their object is unreachable.
    async fn list(&self) -> Result<api::SettingsReply, HttpReply> {
        let request = api::SettingsRequest {
            current_token: self.current_token.clone(),
        };
        call_person(self.env, self.object, api::SETTINGS, &request)
            .await
            .map_err(unavailable)
    }

    /// The page, with its forms' token and the browser-session cookie it is bound to.
    async fn show(
        &self,
        new_token: Option<(&str, &str)>,
        notice: Option<&str>,
    ) -> worker::Result<HttpReply> {
        let listed = match self.list().await {
            Ok(listed) => listed,
            Err(reply) => return Ok(reply),
        };
        let page = settings_page::settings(
            &SettingsView {
                login: &self.caller.login,
                apps: &listed.apps,
                tokens: &listed.tokens,
                csrf: &self.page_token.token,
                new_token,
                notice,
            },
            self.base_url,
        );
        Ok(self
            .page_token
            .with_cookie(no_store(super::html(200, page))))
    }
}
