//! The GitHub transport port: one exchange with GitHub's API, its reply read whole.
//!
//! Everything above the exchange (headers, retries of reads, one attempt for writes, classifying
//! failures, decoding) is the core's (`github::api`), so it runs the same natively against a
//! scripted stand-in that counts requests and injects faults. The platform's side sends the
//! request over the Worker's fetch (`github::fetch`).

/// The methods GitHub's API is called with here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Patch,
    Delete,
}

/// One request to GitHub: an absolute URL, its headers (the token among them) and a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    pub method: Method,
    pub url: String,
    pub headers: Vec<(&'static str, String)>,
    pub body: Option<String>,
}

/// GitHub's answer: status, the headers the core reads, and the body as text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Answer {
    pub status: u16,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    /// A header's value by its (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// Why no answer came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoAnswer {
    /// Nothing within the time limit.
    Timeout,
    /// The connection failed, with the platform's words (logged, never shown).
    Network(String),
}

/// Sends one exchange and reads the answer whole within `timeout_ms`.
///
/// `async fn` in the trait without a `Send` bound on purpose: the Worker and its Durable Objects
/// are single-threaded, and the native stand-ins are driven by a single-threaded executor.
#[allow(async_fn_in_trait)]
pub trait GitHubTransport {
    async fn exchange(&self, exchange: Exchange, timeout_ms: u64) -> Result<Answer, NoAnswer>;
}
