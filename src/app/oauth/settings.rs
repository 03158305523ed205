//! `/settings` as an application (issue #45): a signed-in GitHub person's connected apps
//! (Disconnect ends one at once), API tokens (create, list, revoke), and "Delete my data", over
//! the Worker's ports: the person's object (`oauth::person_api`, `person_data`'s messages) and
//! the pull requests' objects (`person_data::FORGET_TICKS`).
//!
//! "Delete my data" goes ticks first, a batch of pull requests per request, each batch dropped
//! from the person's index only once its ticks are gone; the credentials last, in one operation
//! of the person's object. So a failure anywhere leaves the person signed in with what is left
//! still listed, and the tokens stop working only when nothing of theirs is left to find.
//!
//! What not: who the person is (`session`'s viewer), the checks of every browser POST
//! (`service::forms`), the page's markup and texts (`web::settings_page`). `service::settings`
//! is the shell: it reads the request, checks the form, and calls [`Server::settings_form`].

use super::session::{end_session, signed_out};
use super::{Server, WorkerPorts};
use crate::http::HttpReply;
use crate::oauth::person_api as api;
use crate::oauth::tokens::PersonId;
use crate::person_data::{self as data, ForgetAll, ForgetTicks, Forgotten, ListTicked, TickedList};
use crate::ports::edge::{Objects, PlatformError};
use crate::ports::pull_request::Console;
use crate::security::form;
use crate::tools::caller::Caller;
use crate::web::pages::reply as page_reply;
use crate::web::settings_page::{self, texts, SettingsView};

/// A settings form, by the route it was posted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsForm {
    Disconnect,
    CreateToken,
    RevokeToken,
    DeleteData,
}

/// Who is asking and what their browser holds: everything a settings answer needs.
pub struct SettingsVisit<'a> {
    pub caller: &'a Caller,
    pub person: PersonId,
    /// This browser's own access token, so its session is marked in the list.
    pub current_token: Option<String>,
    /// The token the page's forms carry.
    pub csrf: String,
    /// The `set-cookie` value binding that token to this browser session.
    pub csrf_cookie: String,
    pub secure: bool,
}

/// How far one "Delete my data" request got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deleted {
    /// Everything is gone; the person's tokens no longer work.
    All(Forgotten),
    /// Ticks on `cleared` pull requests were deleted; some remain, and so do the credentials.
    Partly { cleared: usize },
}

fn no_store(reply: HttpReply) -> HttpReply {
    reply.with_header("cache-control", "no-store")
}

fn see_settings() -> HttpReply {
    no_store(HttpReply::empty(303).with_header("location", "/settings"))
}

fn with_status(mut reply: HttpReply, status: u16) -> HttpReply {
    reply.status = status;
    reply
}

impl<P: WorkerPorts> Server<'_, P> {
    /// The 503 for a person's object that failed, logged.
    fn settings_unavailable(&self, error: PlatformError) -> HttpReply {
        let line = format!("settings: the person object failed: {error}");
        self.ports.console().error(&line);
        no_store(HttpReply::new(
            503,
            "text/plain; charset=utf-8",
            texts::UNAVAILABLE,
        ))
    }

    /// The person's connected apps and API tokens, or the reply when their object is unreachable.
    async fn settings_list(
        &self,
        visit: &SettingsVisit<'_>,
    ) -> Result<api::SettingsReply, HttpReply> {
        let request = api::SettingsRequest {
            current_token: visit.current_token.clone(),
        };
        let object = visit.person.object_name();
        self.call_person(&object, api::SETTINGS, &request)
            .await
            .map_err(|e| self.settings_unavailable(e))
    }

    /// `GET /settings` (and a form's answer): the page, with its forms' token and the
    /// browser-session cookie it is bound to.
    pub async fn settings_page(
        &self,
        visit: &SettingsVisit<'_>,
        new_token: Option<(&str, &str)>,
        notice: Option<&str>,
    ) -> HttpReply {
        let listed = match self.settings_list(visit).await {
            Ok(listed) => listed,
            Err(reply) => return reply,
        };
        let view = SettingsView {
            login: &visit.caller.login,
            apps: &listed.apps,
            tokens: &listed.tokens,
            csrf: &visit.csrf,
            new_token,
            notice,
        };
        let page = settings_page::settings(&view, self.base_url);
        no_store(page_reply(200, page)).with_header("set-cookie", visit.csrf_cookie.clone())
    }

    /// A form that passed the checks of every browser POST, its body `body`.
    pub async fn settings_form(
        &self,
        visit: &SettingsVisit<'_>,
        which: SettingsForm,
        body: &[u8],
    ) -> HttpReply {
        let form = form::pairs(body);
        let field = |name| form::value(&form, name);
        match which {
            SettingsForm::Disconnect => self.disconnect(visit, field("grant")).await,
            SettingsForm::CreateToken => {
                self.create_token(visit, field("name"), field("access"))
                    .await
            }
            SettingsForm::RevokeToken => self.revoke_token(visit, field("token")).await,
            SettingsForm::DeleteData => self.delete_data(visit, field("confirm")).await,
        }
    }

    /// Disconnect: ends the grant `grant` at once; this browser's own signs it out too.
    async fn disconnect(&self, visit: &SettingsVisit<'_>, grant: Option<&str>) -> HttpReply {
        let grant_id = grant.unwrap_or_default().to_string();
        let listed = match self.settings_list(visit).await {
            Ok(listed) => listed,
            Err(reply) => return reply,
        };
        let current = listed
            .apps
            .iter()
            .any(|app| app.current && app.grant_id == grant_id);
        let request = api::DisconnectRequest { grant_id };
        let object = visit.person.object_name();
        let done = self.call_person::<_, api::Removed>(&object, api::DISCONNECT, &request);
        if let Err(error) = done.await {
            return self.settings_unavailable(error);
        }
        if current {
            // This browser's own grant is gone: clear its cookies (signing out by a redirect
            // to /signout would need a second, CSRF-checked POST).
            return signed_out(visit.secure);
        }
        see_settings()
    }

    /// A new API token named `name` with `access` (`read`, the default, or `write`): shown once.
    async fn create_token(
        &self,
        visit: &SettingsVisit<'_>,
        name: Option<&str>,
        access: Option<&str>,
    ) -> HttpReply {
        let Some(name) = settings_page::token_name(name.unwrap_or_default()) else {
            let notice = texts::name_the_token();
            let page = self.settings_page(visit, None, Some(&notice)).await;
            return with_status(page, 400);
        };
        let may_write = match access {
            Some("write") => true,
            Some("read") | None => false,
            Some(_) => {
                let page = self
                    .settings_page(visit, None, Some(texts::CHOOSE_ACCESS))
                    .await;
                return with_status(page, 400);
            }
        };
        let request = api::CreateApiTokenRequest {
            person: visit.person.clone(),
            name: name.clone(),
            may_write,
        };
        let object = visit.person.object_name();
        let created: api::CreateApiTokenReply = match self
            .call_person(&object, api::CREATE_API_TOKEN, &request)
            .await
        {
            Ok(created) => created,
            Err(error) => return self.settings_unavailable(error),
        };
        self.settings_page(visit, Some((&name, &created.token)), None)
            .await
    }

    /// Revokes the API token whose id is `token`.
    async fn revoke_token(&self, visit: &SettingsVisit<'_>, token: Option<&str>) -> HttpReply {
        let request = api::RevokeApiTokenRequest {
            id: token.unwrap_or_default().to_string(),
        };
        let object = visit.person.object_name();
        let done = self.call_person::<_, api::Removed>(&object, api::REVOKE_API_TOKEN, &request);
        if let Err(error) = done.await {
            return self.settings_unavailable(error);
        }
        see_settings()
    }

    /// "Delete my data", confirmed by `confirm=delete`: one step of [`Server::delete_my_data`].
    async fn delete_data(&self, visit: &SettingsVisit<'_>, confirm: Option<&str>) -> HttpReply {
        if confirm != Some("delete") {
            let notice = Some(texts::CONFIRM_DELETE);
            return with_status(self.settings_page(visit, None, notice).await, 400);
        }
        let object = visit.person.object_name();
        match self.delete_my_data(&object).await {
            Ok(Deleted::All(forgotten)) => {
                let page = settings_page::deleted(&visit.caller.login, &forgotten, self.base_url);
                no_store(end_session(page_reply(200, page), visit.secure))
            }
            Ok(Deleted::Partly { cleared }) => {
                let notice = texts::deleted_partly(cleared);
                self.settings_page(visit, None, Some(&notice)).await
            }
            Err(error) => self.settings_unavailable(error),
        }
    }

    /// One step of "Delete my data" for the person whose object is `object`: the ticks on a
    /// batch of pull requests (`config.delete_batch_pulls`), then, once none is left, the
    /// credentials.
    pub async fn delete_my_data(&self, object: &str) -> Result<Deleted, PlatformError> {
        let batch = self.config.delete_batch_pulls;
        let request = ListTicked { limit: batch };
        let listed: TickedList = self
            .call_person(object, data::LIST_TICKED, &request)
            .await?;
        let mut cleared = TickedList::default();
        let mut failed = false;
        for pull in &listed.pulls {
            match self.forget_ticks(pull).await {
                Ok(()) => cleared.pulls.push(pull.clone()),
                Err(error) => {
                    let line = format!("deleting ticks failed: {error}");
                    self.ports.console().error(&line);
                    failed = true;
                }
            }
        }
        if !cleared.pulls.is_empty() {
            let _: serde_json::Value = self
                .call_person(object, data::DROP_TICKED, &cleared)
                .await?;
        }
        if failed || listed.pulls.len() >= batch {
            let cleared = cleared.pulls.len();
            return Ok(Deleted::Partly { cleared });
        }
        let forgotten = self
            .call_person(object, data::FORGET, &ForgetAll {})
            .await?;
        Ok(Deleted::All(forgotten))
    }

    /// Deletes one person's ticks and drafts in one pull request's object.
    async fn forget_ticks(&self, pull: &data::Ticked) -> Result<(), PlatformError> {
        let body = ForgetTicks {
            person: pull.login.clone(),
        };
        let body = serde_json::to_string(&body).map_err(|e| PlatformError(e.to_string()))?;
        let name = pull.object_name();
        let reply = self
            .ports
            .pulls()
            .post(&name, data::FORGET_TICKS, &body)
            .await?;
        match reply.status {
            200 => Ok(()),
            status => Err(PlatformError(format!(
                "pull request store answered {status}"
            ))),
        }
    }
}
