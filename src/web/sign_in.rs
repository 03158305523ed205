//! The review pages' sign-in surface's words: the pages a failed or expired web sign-in shows,
//! and the plain-text answers of a session that cannot go on (issue #45: one home for them).
//!
//! What not: no cookies, statuses or headers beyond the page itself (`app::oauth::session`).

use super::html::{escape, page};

/// GitHub or the person did not complete the sign-in; `reason` is the authorization server's
/// words, `next_encoded` the page to go back to, URL-encoded.
pub fn failed(reason: &str, next_encoded: &str, base_url: &str) -> String {
    let body = format!(
        "<h1>Sign-in failed</h1><p>{}</p><p><a href=\"/signin?next={}\">Try again</a></p>",
        escape(reason),
        escape(next_encoded)
    );
    page("Sign-in failed", &body, base_url)
}

/// The reason shown when the authorization server gave none.
pub const NOT_COMPLETED: &str = "sign-in was not completed";

/// The callback's `state` is not this browser's.
pub fn expired(base_url: &str) -> String {
    page("Sign-in expired", "<h1>Sign-in expired</h1><p>This sign-in was started in another browser or took too long. <a href=\"/signin\">Start again</a>.</p>", base_url)
}

/// The code was refused at the token endpoint.
pub fn not_redeemed(base_url: &str) -> String {
    page("Sign-in failed", "<h1>Sign-in failed</h1><p>The sign-in code could not be redeemed. <a href=\"/signin\">Start again</a>.</p>", base_url)
}

/// A session over the person's web limit.
pub fn too_many_requests(retry_after_seconds: u64) -> String {
    format!("Too many requests; retry in {retry_after_seconds} seconds.")
}

/// The person's object could not be reached.
pub const UNAVAILABLE: &str = "Sign-in is unavailable right now; retry in a minute.";

/// A post (or another method than GET) from a browser whose session is gone.
pub const SESSION_ENDED: &str = "Sign in again: your session ended.";
