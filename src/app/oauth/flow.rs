//! The authorization flow: `/authorize` → GitHub → `/oauth/callback` → the consent page →
//! `/authorize/consent`, each step a method over the ports.
//!
//! The validated request waits in KV under `flow:<sha256(state)>` for [`FLOW_TTL_SECONDS`],
//! bound to the browser that started it by a `__Host-` cookie holding `state`; the callback uses
//! it up (deleted before it is checked, so a second callback with the same `state` finds
//! nothing) and refuses it once older than the lifetime even if KV still held it.

use super::{host_cookie, redirect, Incoming, Server, WorkerPorts};
use crate::github::api::{path, Account};
use crate::http::HttpReply;
use crate::oauth::authorize::{
    self, csrf_cookie_name, flow_cookie_name, AuthorizationRequest, Refusal, SignInFlow,
};
use crate::oauth::clients::ClientRecord;
use crate::oauth::error::{self, Error};
use crate::oauth::form::Params;
use crate::oauth::github_flow::{self, GitHubTokens};
use crate::oauth::grants;
use crate::oauth::metadata;
use crate::oauth::person_api as api;
use crate::oauth::redirect_uri::RedirectUri;
use crate::oauth::tokens::{self, PersonId, TokenKind};
use crate::ports::edge::Kv;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Console;
use crate::security::compare::constant_time_eq;
use crate::security::cookie::{self, SameSite};
use crate::security::pkce;
use crate::web;

/// How long a sign-in may take at GitHub.
pub const FLOW_TTL_SECONDS: u64 = 600;

/// Who signed in at GitHub.
struct SignedIn {
    person: PersonId,
    login: String,
    github: GitHubTokens,
}

impl<P: WorkerPorts> Server<'_, P> {
    /// `GET /authorize`: the per-address limit, the client, the request's rules, then GitHub.
    pub(super) async fn authorize_endpoint(&self, incoming: &Incoming) -> HttpReply {
        let base_url = self.base_url;
        if let Err(error) = self.address_limit(&incoming.address).await {
            return web::consent::error_reply(&error, base_url);
        }
        let params = Params::parse(&incoming.query);
        let client = match authorize::client_id(&params) {
            Ok(client_id) => self.load_client(&client_id).await,
            Err(error) => Err(error),
        };
        let client = match client {
            Ok(client) => client,
            Err(error) => return web::consent::error_reply(&error, base_url),
        };
        let request = match authorize::validate(&params, &client, base_url) {
            Ok(request) => request,
            Err(Refusal::Page(error)) => return web::consent::error_reply(&error, base_url),
            Err(Refusal::Redirect {
                redirect_uri,
                state,
                error,
            }) => return error::redirect_reply(&redirect_uri, &error, state.as_deref(), base_url),
        };
        match self.start_sign_in(&client, request.clone()).await {
            Ok(reply) => reply,
            Err(error) => error::redirect_reply(
                &request.redirect_uri,
                &error,
                request.state.as_deref(),
                base_url,
            ),
        }
    }

    /// Keeps the validated request server-side and sends the browser to GitHub.
    async fn start_sign_in(
        &self,
        client: &ClientRecord,
        request: AuthorizationRequest,
    ) -> Result<HttpReply, Error> {
        let config = self.config;
        let client_id = config
            .github_client_id
            .as_deref()
            .ok_or(Error::NotConfigured("GITHUB_CLIENT_ID"))?;
        config
            .github_client_secret
            .as_deref()
            .ok_or(Error::NotConfigured("GITHUB_CLIENT_SECRET"))?;
        config
            .token_encryption_key
            .as_deref()
            .ok_or(Error::NotConfigured("TOKEN_ENCRYPTION_KEY"))?;
        // Registered clients stay registered while they are in use.
        if client.verified_domain().is_none() {
            self.store_client(client).await?;
        }
        let state = self.random_text()?;
        let verifier = self.random_text()?;
        let flow = SignInFlow {
            request,
            github_verifier: verifier.clone(),
            created_at: self.now(),
        };
        let key = format!("flow:{}", tokens::hash(&state));
        self.kv_put_json(&key, &flow, FLOW_TTL_SECONDS, "encoding a flow")
            .await?;
        let location = github_flow::authorize_url(
            &config.github_oauth_url,
            client_id,
            &format!("{}{}", self.base_url, metadata::CALLBACK_PATH),
            &state,
            &pkce::s256(&verifier),
        );
        let cookie = flow_cookie_name(&state);
        Ok(redirect(302, &location).with_header(
            "set-cookie",
            host_cookie(&cookie, &state, FLOW_TTL_SECONDS, SameSite::Lax),
        ))
    }

    /// `GET /oauth/callback`: the flow this browser started, GitHub's answer, then the person's
    /// object decides between a code and the consent page.
    pub(super) async fn callback_endpoint(&self, incoming: &Incoming) -> HttpReply {
        let params = Params::parse(&incoming.query);
        let state = params.get("state").ok().flatten().unwrap_or_default();
        let clear_flow = host_cookie(&flow_cookie_name(state), "", 0, SameSite::Lax);
        let flow = match self.take_flow(incoming, &params).await {
            Ok(flow) => flow,
            Err(error) => {
                return web::consent::error_reply(&error, self.base_url)
                    .with_header("set-cookie", clear_flow)
            }
        };
        let request = &flow.request;
        let back = |error: Error| {
            let state = request.state.as_deref();
            error::redirect_reply(&request.redirect_uri, &error, state, self.base_url)
                .with_header("set-cookie", clear_flow.clone())
        };
        if params.get("error").ok().flatten().is_some() {
            // The person declined at GitHub.
            return back(Error::AccessDenied);
        }
        let signed_in = match self.sign_in_with_github(&params, &flow).await {
            Ok(signed_in) => signed_in,
            Err(error) => return back(error),
        };
        let csrf = match self.random_text() {
            Ok(csrf) => csrf,
            Err(error) => return back(error),
        };
        let login = signed_in.login.clone();
        let reply = match self.begin(signed_in, request, &csrf).await {
            Ok(reply) => reply,
            Err(error) => return back(error),
        };
        let location = |code: &str| authorize::success_location(request, code, self.base_url);
        match reply {
            api::BeginReply::Code { code } => {
                redirect(302, &location(&code)).with_header("set-cookie", clear_flow)
            }
            api::BeginReply::Consent { consent_id } => {
                let page = self.consent_page(request, &login, &consent_id, &csrf);
                let csrf_cookie = csrf_cookie_name(&consent_id);
                let ttl = grants::CONSENT_TTL_SECONDS;
                page.with_header("set-cookie", clear_flow).with_header(
                    "set-cookie",
                    host_cookie(&csrf_cookie, &csrf, ttl, SameSite::Strict),
                )
            }
        }
    }

    /// Hands the signed-in person and the request to their object, which issues a code
    /// (remembered consent) or holds a pending consent bound to the hash of `csrf`.
    async fn begin(
        &self,
        signed_in: SignedIn,
        request: &AuthorizationRequest,
        csrf: &str,
    ) -> Result<api::BeginReply, Error> {
        let object = signed_in.person.object_name();
        let begin = api::BeginRequest {
            person: signed_in.person,
            login: signed_in.login,
            github: signed_in.github,
            request: request.clone(),
            csrf_hash: tokens::hash(csrf),
        };
        self.call_person(&object, api::BEGIN, &begin)
            .await
            .map_err(|error| self.internal("person object begin", error))
    }

    /// The consent page for a pending consent, with its own CSP (the form may post only here and
    /// redirect only to the client's redirect URI).
    fn consent_page(
        &self,
        request: &AuthorizationRequest,
        login: &str,
        consent_id: &str,
        csrf: &str,
    ) -> HttpReply {
        let redirect_uri = RedirectUri::parse(&request.redirect_uri).ok();
        let display = redirect_uri
            .as_ref()
            .map(RedirectUri::display)
            .unwrap_or_else(|| request.redirect_uri.clone());
        let view = web::consent::ConsentView {
            client_name: &request.client_name,
            verified_domain: request.verified_domain.as_deref(),
            redirect_display: &display,
            login,
            consent_id,
            csrf,
            base_url: self.base_url,
        };
        let source = redirect_uri.as_ref().and_then(RedirectUri::csp_source);
        let csp = web::consent::consent_csp(source.as_deref());
        HttpReply::new(
            200,
            "text/html; charset=utf-8",
            web::consent::consent_page(&view),
        )
        .with_header("content-security-policy", csp)
        .with_header("x-frame-options", "DENY")
        .with_header("referrer-policy", "no-referrer")
        .with_header("cache-control", "no-store")
    }

    /// The pending sign-in named by `state`, if this browser started it; used up on the way.
    async fn take_flow(&self, incoming: &Incoming, params: &Params) -> Result<SignInFlow, Error> {
        let state = params
            .get("state")
            .ok()
            .flatten()
            .ok_or(Error::SignInExpired)?;
        let bound = cookie::read(incoming.cookie.as_deref(), &flow_cookie_name(state))
            .is_some_and(|value| constant_time_eq(value.as_bytes(), state.as_bytes()));
        if !bound {
            return Err(Error::SignInExpired);
        }
        let key = format!("flow:{}", tokens::hash(state));
        let flow: Option<SignInFlow> = self.kv_json(&key).await?;
        let flow = flow.ok_or(Error::SignInExpired)?;
        self.ports
            .clients()
            .delete(&key)
            .await
            .map_err(|e| self.internal("KV delete", e))?;
        if self.now() >= flow.created_at + FLOW_TTL_SECONDS {
            return Err(Error::SignInExpired);
        }
        Ok(flow)
    }

    /// Exchanges GitHub's code (with our PKCE verifier) and asks GitHub who signed in.
    async fn sign_in_with_github(
        &self,
        params: &Params,
        flow: &SignInFlow,
    ) -> Result<SignedIn, Error> {
        let config = self.config;
        let code = params.get("code")?.ok_or(Error::GitHubRefused)?;
        let (Some(client_id), Some(secret)) = (
            config.github_client_id.as_deref(),
            config.github_client_secret.as_deref(),
        ) else {
            return Err(Error::NotConfigured("GITHUB_CLIENT_ID"));
        };
        let body = github_flow::code_exchange_body(
            client_id,
            secret,
            code,
            &format!("{}{}", self.base_url, metadata::CALLBACK_PATH),
            &flow.github_verifier,
        );
        let text = self.post_github_form(body).await?;
        let console = self.ports.console();
        let github = github_flow::parse_token_response(&text, self.now()).map_err(|failure| {
            console.error(&format!("oauth: GitHub code exchange refused: {failure}"));
            Error::GitHubRefused
        })?;
        let clock = self.ports.clock();
        let client = crate::github::client::GitHub::new(
            config,
            &github.access_token,
            self.ports.github_api(),
            clock,
        );
        let account: Account = client.get(&path::user()).await.map_err(|failure| {
            console.error(&format!("oauth: GitHub /user failed: {failure}"));
            Error::GitHubUnavailable
        })?;
        if account.id == 0 {
            return Err(Error::GitHubUnavailable);
        }
        Ok(SignedIn {
            person: PersonId::from_github_id(account.id),
            login: account.login,
            github,
        })
    }

    /// Posts a form to GitHub's token endpoint; its 200 answer's body.
    async fn post_github_form(&self, form: String) -> Result<String, Error> {
        let exchange = crate::app::person::github::token_endpoint_exchange(self.config, form);
        let answer = self
            .ports
            .token_endpoint()
            .exchange(exchange, self.config.github_timeout_ms)
            .await;
        let console = self.ports.console();
        match answer {
            Ok(answer) if answer.status == 200 => Ok(answer.body),
            Ok(answer) => {
                console.error(&format!(
                    "oauth: GitHub token endpoint answered HTTP {}",
                    answer.status
                ));
                Err(Error::GitHubUnavailable)
            }
            Err(error) => {
                console.error(&format!("oauth: GitHub token endpoint failed: {error:?}"));
                Err(Error::GitHubUnavailable)
            }
        }
    }

    /// `POST /authorize/consent`: the person's answer on the consent page.
    pub(super) async fn consent_endpoint(&self, incoming: Incoming) -> HttpReply {
        let base_url = self.base_url;
        let body = incoming
            .body
            .and_then(|b| String::from_utf8(b).ok())
            .unwrap_or_default();
        let params = Params::parse(&body);
        let consent_param = params.get("consent").ok().flatten().unwrap_or_default();
        let clear_csrf = host_cookie(&csrf_cookie_name(consent_param), "", 0, SameSite::Strict);
        let headers = authorize::ConsentHeaders {
            content_type: incoming.content_type.as_deref(),
            cookie: incoming.cookie.as_deref(),
            origin: incoming.origin.as_deref(),
            sec_fetch_site: incoming.sec_fetch_site.as_deref(),
        };
        let form = match authorize::parse_consent_form(&body, headers, base_url) {
            Ok(form) => form,
            Err(error) => return web::consent::error_reply(&error, base_url),
        };
        let Some((TokenKind::Consent, person)) = self.ours(&form.consent_id) else {
            return web::consent::error_reply(&Error::ConsentExpired, base_url);
        };
        let request = api::ConsentRequest {
            consent_id: form.consent_id.clone(),
            csrf: form.csrf.clone(),
            approve: form.approve,
            may_write: form.may_write,
        };
        let object = person.object_name();
        let reply: api::ConsentReply = match self.call_person(&object, api::CONSENT, &request).await
        {
            Ok(reply) => reply,
            Err(error) => {
                let error = self.internal("person object consent", error);
                return web::consent::error_reply(&error, base_url);
            }
        };
        match reply {
            api::ConsentReply::Approved { code, request } => {
                let location = authorize::success_location(&request, &code, base_url);
                redirect(303, &location).with_header("set-cookie", clear_csrf)
            }
            api::ConsentReply::Denied { request } => {
                let state = request.state.as_deref();
                let mut reply = error::redirect_reply(
                    &request.redirect_uri,
                    &Error::AccessDenied,
                    state,
                    base_url,
                );
                reply.status = 303;
                reply.with_header("set-cookie", clear_csrf)
            }
            api::ConsentReply::Expired => {
                web::consent::error_reply(&Error::ConsentExpired, base_url)
                    .with_header("set-cookie", clear_csrf)
            }
        }
    }
}
