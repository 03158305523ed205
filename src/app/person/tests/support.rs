//! The world a person's object runs in for a test, and the one way its futures are driven.
//!
//! Why a poll loop with `Waker::noop()`: every stand-in answers at once, so a future finishes in
//! one poll; a test that needs a request to wait (a GitHub refresh in flight) holds the GitHub
//! stand-in's gate and polls by hand ([`poll_once`]).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use crate::app::person::{Memory, Person};
use crate::config::Config;
use crate::oauth::authorize::AuthorizationRequest;
use crate::oauth::github_flow::GitHubTokens;
use crate::oauth::person_api as api;
use crate::oauth::pkce::CodeChallenge;
use crate::oauth::tokens::PersonId;
use crate::ports::clock::FixedClock;
use crate::ports::github::{Answer, Exchange, GitHubTransport, NoAnswer};
use crate::ports::person::stand_in::ReversibleSeal;
use crate::ports::sql::native::MemorySql;

/// Runs a future whose stand-ins answer at once.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    for _ in 0..100 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
    panic!("a stand-in never answered (is the GitHub gate held?)");
}

/// Polls a pinned future once.
pub fn poll_once<F: Future>(future: Pin<&mut F>) -> Poll<F::Output> {
    future.poll(&mut Context::from_waker(Waker::noop()))
}

/// GitHub's token endpoint as a script: answers in order, counts the exchanges, and can hold
/// every answer until released.
#[derive(Default)]
pub struct ScriptedGitHub {
    pub answers: RefCell<Vec<Result<Answer, NoAnswer>>>,
    pub exchanges: RefCell<Vec<Exchange>>,
    pub held: Cell<bool>,
}

impl ScriptedGitHub {
    /// Queues a token endpoint answer with this body.
    pub fn answer(&self, body: &str) {
        self.answers.borrow_mut().push(Ok(Answer {
            status: 200,
            headers: Vec::new(),
            body: body.to_string(),
        }));
    }

    pub fn count(&self) -> usize {
        self.exchanges.borrow().len()
    }
}

struct Gate<'a>(&'a Cell<bool>);

impl Future for Gate<'_> {
    type Output = ();
    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.0.get() {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    }
}

impl GitHubTransport for ScriptedGitHub {
    async fn exchange(&self, exchange: Exchange, _timeout_ms: u64) -> Result<Answer, NoAnswer> {
        self.exchanges.borrow_mut().push(exchange);
        Gate(&self.held).await;
        let mut answers = self.answers.borrow_mut();
        if answers.is_empty() {
            return Err(NoAnswer::Timeout);
        }
        answers.remove(0)
    }
}

/// The epoch second the tests start at.
pub const START: u64 = 1_800_000_000;

/// One person's object and everything around it.
pub struct World {
    pub sql: MemorySql,
    pub clock: FixedClock,
    pub sealer: ReversibleSeal,
    pub github: ScriptedGitHub,
    pub config: Config,
    pub memory: Memory,
    pub person: PersonId,
}

pub type TestPerson<'a> = Person<'a, MemorySql, FixedClock, ReversibleSeal, ScriptedGitHub>;

impl World {
    pub fn new() -> World {
        World {
            sql: MemorySql::new(),
            clock: FixedClock::at(START * 1000),
            sealer: ReversibleSeal::default(),
            github: ScriptedGitHub::default(),
            config: Config::from_vars(|name| match name {
                "TOKEN_ENCRYPTION_KEY" => Some("a-test-secret".into()),
                "GITHUB_CLIENT_ID" => Some("Iv1.test".into()),
                "GITHUB_CLIENT_SECRET" => Some("shh".into()),
                "GITHUB_OAUTH_URL" => Some("http://github.test".into()),
                _ => None,
            }),
            memory: Memory::default(),
            person: PersonId::from_github_id(42),
        }
    }

    pub fn person(&self) -> TestPerson<'_> {
        Person {
            sql: &self.sql,
            clock: &self.clock,
            sealer: &self.sealer,
            github: &self.github,
            config: &self.config,
            memory: &self.memory,
        }
    }

    /// Moves the clock on by whole seconds.
    pub fn wait(&self, seconds: u64) {
        self.clock.advance(seconds * 1000);
    }

    /// An authorization request from `client` (redirect `https://<client>.example/cb`) with a
    /// PKCE challenge of [`VERIFIER`].
    pub fn authorization(client: &str) -> AuthorizationRequest {
        AuthorizationRequest {
            client_id: client.into(),
            client_name: format!("App {client}"),
            verified_domain: None,
            redirect_uri: format!("https://{client}.example/cb"),
            redirect_uri_sent: true,
            state: Some("st".into()),
            code_challenge: CodeChallenge::parse(
                Some(&crate::security::pkce::s256(VERIFIER)),
                Some("S256"),
            )
            .unwrap_or_else(|e| panic!("{e:?}")),
            resource: RESOURCE.into(),
            ask_again: false,
        }
    }

    /// `/begin` after a GitHub sign-in with a GitHub token that never expires.
    pub fn begin(&self, client: &str) -> api::BeginReply {
        self.begin_with(client, github_token("gho_one", None))
    }

    pub fn begin_with(&self, client: &str, github: GitHubTokens) -> api::BeginReply {
        self.begin_request(World::authorization(client), github)
    }

    /// `/begin` for an authorization request that asks for the consent page (`prompt=consent`).
    pub fn begin_asking_again(&self, client: &str) -> api::BeginReply {
        let mut request = World::authorization(client);
        request.ask_again = true;
        self.begin_request(request, github_token("gho_one", None))
    }

    fn begin_request(
        &self,
        request: AuthorizationRequest,
        github: GitHubTokens,
    ) -> api::BeginReply {
        let request = api::BeginRequest {
            person: self.person.clone(),
            login: "octo".into(),
            github,
            request,
            csrf_hash: crate::oauth::tokens::hash(CSRF),
        };
        block_on(self.person().begin(&request)).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Signs in from `client`, consenting with `may_write` when asked; the code.
    pub fn code(&self, client: &str, may_write: bool) -> String {
        match self.begin(client) {
            api::BeginReply::Code { code } => code,
            api::BeginReply::Consent { consent_id } => match self.consent(&consent_id, may_write) {
                api::ConsentReply::Approved { code, .. } => code,
                other => panic!("consent: {other:?}"),
            },
        }
    }

    pub fn consent(&self, consent_id: &str, may_write: bool) -> api::ConsentReply {
        let request = api::ConsentRequest {
            consent_id: consent_id.into(),
            csrf: CSRF.into(),
            approve: true,
            may_write,
        };
        self.person()
            .consent(&request)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The code exchange as `client` would send it.
    pub fn exchange(&self, code: &str, client: &str, verifier: &str) -> api::TokenReply {
        let request = api::CodeTokenRequest {
            code: code.into(),
            client_id: client.into(),
            redirect_uri: Some(format!("https://{client}.example/cb")),
            code_verifier: verifier.into(),
            resource: Some(RESOURCE.into()),
            access_ttl_seconds: ACCESS_TTL,
        };
        self.person()
            .exchange(&request)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Signs in from `client` with write access and returns (access, refresh).
    pub fn connect(&self, client: &str) -> (String, String) {
        let code = self.code(client, true);
        issued(self.exchange(&code, client, VERIFIER))
    }

    pub fn refresh(&self, refresh_token: &str, client: &str) -> api::TokenReply {
        let request = api::RefreshTokenRequest {
            refresh_token: refresh_token.into(),
            client_id: Some(client.into()),
            resource: None,
            access_ttl_seconds: ACCESS_TTL,
        };
        self.person()
            .refresh(&request)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn check_request(token: &str) -> api::CheckRequest {
        api::CheckRequest {
            token: token.into(),
            limit_per_minute: 120,
            web: false,
            resource: RESOURCE.into(),
        }
    }

    /// `/check` of a bearer token at the resource, 120 a minute.
    pub fn check(&self, token: &str) -> api::CheckReply {
        block_on(self.person().check(&World::check_request(token)))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Whether a bearer token is accepted now.
    pub fn allowed(&self, token: &str) -> bool {
        matches!(self.check(token), api::CheckReply::Allowed { .. })
    }

    /// Runs a request through the object's one entry, as the shell does.
    pub fn answer(&self, path: &str, body: &str) -> String {
        let request = crate::app::person::Request::decode(path, body)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("no operation {path}"));
        block_on(self.person().answer(request)).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A count of rows in a table.
    pub fn rows(&self, table: &str) -> u64 {
        crate::app::person::records::Records::new(&self.sql)
            .count(table)
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

pub const VERIFIER: &str = "a-verifier-of-enough-length-to-be-valid-0123456789";
pub const CSRF: &str = "the-csrf-token";
pub const RESOURCE: &str = "https://logikflow.test/mcp";
pub const ACCESS_TTL: u64 = 3600;

pub fn github_token(access: &str, expires_at: Option<u64>) -> GitHubTokens {
    GitHubTokens {
        access_token: access.into(),
        refresh_token: expires_at.map(|_| "ghr_refresh".into()),
        expires_at,
        refresh_expires_at: None,
    }
}

/// The tokens of an `Issued` reply.
pub fn issued(reply: api::TokenReply) -> (String, String) {
    match reply {
        api::TokenReply::Issued {
            access_token,
            refresh_token,
            ..
        } => (access_token, refresh_token),
        api::TokenReply::Refused { error } => panic!("refused: {error:?}"),
    }
}

/// The error of a `Refused` reply.
pub fn refused(reply: api::TokenReply) -> crate::oauth::error::GrantError {
    match reply {
        api::TokenReply::Refused { error } => error,
        api::TokenReply::Issued { .. } => panic!("issued, not refused"),
    }
}
