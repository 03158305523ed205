//! The Worker's OAuth server in-process (issue #45): every rule the end-to-end OAuth tests
//! checked through `wrangler dev`, here over the ports' stand-ins (`support`), the people's
//! objects being the real `app::person`.

mod clients;
mod flow;
mod limits;
mod session;
mod settings;
mod support;
mod tokens;

use support::*;

use crate::http::HttpReply;
use crate::router::OAuthEndpoint;
use crate::security::pkce;

/// The redirect URI the tests' clients register.
pub const REDIRECT: &str = "http://127.0.0.1:33418/callback";
/// The PKCE verifier the tests' clients use.
pub const VERIFIER: &str = "a-verifier-of-forty-three-characters-xxxxxx";

/// One client's way through the flow, step by step, so a test can stop anywhere.
pub struct Flow<'w> {
    pub world: &'w World,
    pub client_id: String,
    /// The browser's cookies, as `name=value` pairs.
    pub jar: Vec<String>,
}

impl<'w> Flow<'w> {
    /// Registers a client named `name` with [`REDIRECT`].
    pub fn register(world: &'w World, name: &str) -> Flow<'w> {
        let body = format!(r#"{{"client_name":"{name}","redirect_uris":["{REDIRECT}"]}}"#);
        let reply = world.call(OAuthEndpoint::Register, json(&body));
        assert_eq!(reply.status, 201, "{}", reply.body);
        let registered: serde_json::Value =
            serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}"));
        let client_id = registered["client_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        Flow::for_client(world, &client_id)
    }

    pub fn for_client(world: &'w World, client_id: &str) -> Flow<'w> {
        Flow {
            world,
            client_id: client_id.into(),
            jar: Vec::new(),
        }
    }

    /// The `/authorize` query for this client, with `state`.
    pub fn query(&self, state: &str) -> String {
        format!(
            "response_type=code&client_id={}&redirect_uri={}&code_challenge={}\
             &code_challenge_method=S256&state={state}",
            enc(&self.client_id),
            enc(REDIRECT),
            pkce::s256(VERIFIER),
        )
    }

    /// `GET /authorize`; keeps the cookies it sets.
    pub fn authorize(&mut self, query: &str) -> HttpReply {
        let reply = self.world.call(OAuthEndpoint::Authorize, get(query));
        self.keep(&reply);
        reply
    }

    /// Keeps the `name=value` of every cookie `reply` sets, dropping the ones it clears.
    pub fn keep(&mut self, reply: &HttpReply) {
        for cookie in cookies(reply) {
            let pair = cookie.split(';').next().unwrap_or_default().to_string();
            let name = pair.split('=').next().unwrap_or_default().to_string();
            self.jar
                .retain(|kept| !kept.starts_with(&format!("{name}=")));
            if !cookie.contains("Max-Age=0") {
                self.jar.push(pair);
            }
        }
    }

    /// The browser's `cookie` header.
    pub fn cookie_header(&self) -> Option<String> {
        Some(self.jar.join("; "))
    }

    /// GitHub's redirect back to `/oauth/callback` for the `/authorize` reply `started`.
    pub fn callback(&mut self, started: &HttpReply) -> HttpReply {
        let location = started.header("location").unwrap_or_default();
        let state = param(location, "state").unwrap_or_default();
        let mut incoming = get(&format!("code=github-code&state={}", enc(&state)));
        incoming.cookie = self.cookie_header();
        let reply = self.world.call(OAuthEndpoint::Callback, incoming);
        self.keep(&reply);
        reply
    }

    /// Authorizes and comes back from GitHub as `octo`: the consent page (or a redirect).
    pub fn through_github(&mut self, state: &str) -> HttpReply {
        self.world.github_signs_in("octo", 1001);
        let started = self.authorize(&self.query(state));
        assert_eq!(started.status, 302, "{}", started.body);
        self.callback(&started)
    }

    /// Posts the consent page's form with `action` (and `write=on` when `write`).
    pub fn answer(&mut self, page: &HttpReply, action: &str, write: bool) -> HttpReply {
        let consent = hidden(&page.body, "consent");
        let csrf = hidden(&page.body, "csrf");
        let write = if write { "&write=on" } else { "" };
        let body = format!("consent={consent}&csrf={csrf}&action={action}{write}");
        let mut incoming = form(&body);
        incoming.cookie = self.cookie_header();
        incoming.origin = Some(BASE.into());
        let reply = self.world.call(OAuthEndpoint::Consent, incoming);
        self.keep(&reply);
        reply
    }

    /// The whole way to a code: consent approved with write access.
    pub fn code(&mut self, state: &str) -> String {
        let page = self.through_github(state);
        assert_eq!(page.status, 200, "{}", page.body);
        let approved = self.answer(&page, "approve", true);
        assert_eq!(approved.status, 303, "{}", approved.body);
        param(approved.header("location").unwrap_or_default(), "code").unwrap_or_default()
    }

    /// `POST /oauth/token` for `code`.
    pub fn exchange(&self, code: &str) -> HttpReply {
        let body = format!(
            "grant_type=authorization_code&code={}&code_verifier={VERIFIER}&client_id={}\
             &redirect_uri={}",
            enc(code),
            enc(&self.client_id),
            enc(REDIRECT)
        );
        self.world.call(OAuthEndpoint::Token, form(&body))
    }

    /// Tokens for this client: `(access, refresh)`.
    pub fn tokens(&mut self) -> (String, String) {
        let code = self.code("st");
        let reply = self.exchange(&code);
        assert_eq!(reply.status, 200, "{}", reply.body);
        let body: serde_json::Value =
            serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}"));
        let text = |key: &str| body[key].as_str().unwrap_or_default().to_string();
        (text("access_token"), text("refresh_token"))
    }
}

/// A hidden input's value on a page.
pub fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    html.split_once(&marker)
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(value, _)| value.to_string())
        .unwrap_or_default()
}

/// A reply's body as JSON.
pub fn body_json(reply: &HttpReply) -> serde_json::Value {
    serde_json::from_str(&reply.body).unwrap_or(serde_json::Value::Null)
}
