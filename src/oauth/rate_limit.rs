//! Sliding-window request limits: 120 MCP requests a minute per person, and a per-address limit
//! on the OAuth endpoints that create state (`/authorize`, `/oauth/token`, `/oauth/register`).
//!
//! Why sliding: the spec promises "120 MCP requests per minute per person", and a fixed window
//! lets 240 through across a window's edge (120 in its last second, 120 in the next one's first).
//! Here no 60-second span ever admits more than the limit: the window remembers when each
//! admitted request came, and a request is admitted when fewer than `limit` came in the minute
//! before it. A refusal says exactly when the oldest of them leaves the minute (`Retry-After`).
//! Memory is one timestamp per request admitted in the last minute, so at most `limit` of them
//! (960 bytes at the default); it lives in the person's Durable Object, in the same hop as the
//! token check.
//! What not: no storage, no clock (both passed in).

use std::collections::VecDeque;

/// A window's length.
pub const WINDOW_MS: u64 = 60_000;
/// MCP requests per person per minute unless `RATE_LIMIT_PER_MINUTE` says otherwise.
pub const DEFAULT_PER_PERSON: u32 = 120;
/// The review pages' own budget per person per minute (issue 36), apart from MCP's, so a
/// reviewer's browsing never spends an agent's budget nor the other way round: form posts
/// (ticks, drafts, comments, arrange saves) count against it; page views, diffs and context
/// (reads, each one GitHub read with the person's own token, which GitHub limits) count against
/// none. 600 is five times MCP's: a fast review of a 320-file pull request, every file ticked one
/// by one, posts about 330 (`app::person::tests::checks::a_fast_review_of_a_320_file_pull_request_never_meets_a_429`;
/// through workerd, `tests/e2e/security-round3.test.mjs` ticks past MCP's window).
pub const WEB_POSTS_PER_PERSON: u32 = 600;

/// Which budget a web request spends: `None` for reads, `Some(limit)` for posts.
pub fn web_limit(post: bool) -> Option<u32> {
    post.then_some(WEB_POSTS_PER_PERSON)
}

/// OAuth endpoint requests per address per minute unless `ADDRESS_RATE_LIMIT_PER_MINUTE` says
/// otherwise. Generous, because offices share one address behind NAT.
pub const DEFAULT_PER_ADDRESS: u32 = 60;

/// One counter's state: when each request admitted in the last minute came, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Window {
    admitted_ms: VecDeque<u64>,
}

/// The decision for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    Allowed,
    /// Over the limit: a request will be admitted again in this many whole seconds (at least 1).
    Limited {
        retry_after_seconds: u64,
    },
}

impl Window {
    /// Admits or refuses one request at `now_ms` against `limit` per minute. A refused request
    /// is not counted, so a client that waits as told gets in.
    pub fn admit(&mut self, now_ms: u64, limit: u32) -> Admission {
        // A clock that went backwards (another machine, a corrected clock) must not lock anyone
        // out for longer than a minute: forget only the admissions that claim to come later.
        while self.admitted_ms.back().is_some_and(|&last| last > now_ms) {
            self.admitted_ms.pop_back();
        }
        while self
            .admitted_ms
            .front()
            .is_some_and(|&at| at.saturating_add(WINDOW_MS) <= now_ms)
        {
            self.admitted_ms.pop_front();
        }
        let limit = usize::try_from(limit.max(1)).unwrap_or(usize::MAX);
        // A lowered limit leaves extra entries; only the newest `limit` matter.
        while self.admitted_ms.len() > limit {
            self.admitted_ms.pop_front();
        }
        if self.admitted_ms.len() >= limit {
            let oldest = self.admitted_ms.front().copied().unwrap_or(now_ms);
            let frees_at = oldest.saturating_add(WINDOW_MS);
            let retry_after_seconds = frees_at.saturating_sub(now_ms).div_ceil(1000).max(1);
            return Admission::Limited {
                retry_after_seconds,
            };
        }
        self.admitted_ms.push_back(now_ms);
        Admission::Allowed
    }
}

/// Reads a per-minute limit from a var: a positive integer, else the default.
pub fn parse_limit(text: Option<&str>, default: u32) -> u32 {
    text.and_then(|t| t.trim().parse::<u32>().ok())
        .filter(|&limit| limit > 0)
        .unwrap_or(default)
}

/// Where a request's client address comes from, for the per-address limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ClientAddress {
    /// `cf-connecting-ip`, which only Cloudflare's edge sets: on a deployed Worker the edge
    /// overwrites whatever a client sent, so the header is the socket's address.
    #[default]
    Edge,
    /// Local `wrangler dev`, which keeps a `cf-connecting-ip` the client sent and sets it only
    /// when absent, so the header can be forged. The server listens on loopback only, so the
    /// socket's address is always this computer's: every request shares one window, as every
    /// request from one address does in production.
    Socket,
}

impl ClientAddress {
    /// `CLIENT_ADDRESS` = `edge` or `socket`; unset or unknown, `socket` in local development
    /// and `edge` otherwise.
    pub fn parse(text: Option<&str>, local_dev: bool) -> ClientAddress {
        match text.map(str::trim) {
            Some("edge") => ClientAddress::Edge,
            Some("socket") => ClientAddress::Socket,
            _ if local_dev => ClientAddress::Socket,
            _ => ClientAddress::Edge,
        }
    }

    /// The address a request's per-address window is keyed by.
    pub fn of(self, cf_connecting_ip: Option<&str>) -> String {
        match self {
            ClientAddress::Edge => cf_connecting_ip
                .map(str::trim)
                .filter(|ip| !ip.is_empty() && ip.len() <= 64)
                .unwrap_or("unknown")
                .to_string(),
            ClientAddress::Socket => "loopback".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 36: web reads spend no budget; web posts their own, larger than MCP's.
    #[test]
    fn the_web_budget() {
        assert_eq!(web_limit(false), None);
        assert_eq!(web_limit(true), Some(WEB_POSTS_PER_PERSON));
        const { assert!(WEB_POSTS_PER_PERSON >= 5 * DEFAULT_PER_PERSON) };
        // The web's window is apart from MCP's: an MCP window at its limit admits no more, a
        // web window beside it still admits its own.
        let (mut mcp, mut web) = (Window::default(), Window::default());
        for i in 0..DEFAULT_PER_PERSON {
            assert_eq!(
                mcp.admit(u64::from(i), DEFAULT_PER_PERSON),
                Admission::Allowed
            );
        }
        assert_ne!(mcp.admit(500, DEFAULT_PER_PERSON), Admission::Allowed);
        for i in 0..330 {
            assert_eq!(
                web.admit(1000 + i, WEB_POSTS_PER_PERSON),
                Admission::Allowed
            );
        }
    }

    #[test]
    fn a_forged_header_is_ignored_in_local_development() {
        let local = ClientAddress::parse(None, true);
        assert_eq!(local, ClientAddress::Socket);
        assert_eq!(local.of(Some("9.9.9.9")), local.of(Some("8.8.8.8")));
        assert_eq!(local.of(None), local.of(Some("1.2.3.4")));
        let edge = ClientAddress::parse(None, false);
        assert_eq!(edge, ClientAddress::Edge);
        assert_eq!(edge.of(Some("203.0.113.7")), "203.0.113.7");
        assert_ne!(edge.of(Some("203.0.113.7")), edge.of(Some("203.0.113.8")));
        assert_eq!(edge.of(None), "unknown");
        assert_eq!(edge.of(Some(&"1".repeat(500))), "unknown");
        assert_eq!(
            ClientAddress::parse(Some("edge"), true),
            ClientAddress::Edge
        );
        assert_eq!(
            ClientAddress::parse(Some("socket"), false),
            ClientAddress::Socket
        );
    }

    /// Runs requests at the given times and returns each decision.
    fn check(limit: u32, times_ms: &[u64], expected: &[Admission]) {
        let mut window = Window::default();
        let got: Vec<Admission> = times_ms
            .iter()
            .map(|&now| window.admit(now, limit))
            .collect();
        assert_eq!(got, expected, "limit {limit} at {times_ms:?}");
    }

    #[test]
    fn windows() {
        use Admission::*;
        check(
            2,
            &[1_000, 1_001, 1_002],
            &[
                Allowed,
                Allowed,
                Limited {
                    retry_after_seconds: 60,
                },
            ],
        );
        // The oldest admitted request (1 s) leaves the minute at 61 s.
        check(
            2,
            &[1_000, 30_000, 40_500, 61_000],
            &[
                Allowed,
                Allowed,
                Limited {
                    retry_after_seconds: 21,
                },
                Allowed,
            ],
        );
        check(
            1,
            &[1_000, 60_999],
            &[
                Allowed,
                Limited {
                    retry_after_seconds: 1,
                },
            ],
        );
        check(1, &[1_000, 61_000], &[Allowed, Allowed]);
    }

    #[test]
    fn a_clock_that_goes_back_does_not_lock_anyone_out() {
        use Admission::*;
        check(1, &[1_000, 500], &[Allowed, Allowed]);
        // A small step back forgets only what claims to be later: the earlier admission stays.
        check(
            2,
            &[1_000, 2_000, 1_500, 1_600],
            &[
                Allowed,
                Allowed,
                Allowed,
                Limited {
                    retry_after_seconds: 60,
                },
            ],
        );
    }

    #[test]
    fn the_121st_request_in_a_minute_is_refused() {
        let mut window = Window::default();
        for i in 0..120 {
            let admission = window.admit(5_000 + i * 100, DEFAULT_PER_PERSON);
            assert_eq!(admission, Admission::Allowed, "request {}", i + 1);
        }
        assert_eq!(
            window.admit(30_000, DEFAULT_PER_PERSON),
            Admission::Limited {
                retry_after_seconds: 35
            }
        );
    }

    /// The fixed window's flaw: a window opened by one early request closes a minute later, and
    /// a burst at its end plus a burst after it makes nearly twice the limit in two seconds.
    /// Sliding, only the early request's place frees up.
    #[test]
    fn no_minute_admits_more_than_the_limit_across_an_edge() {
        let mut window = Window::default();
        assert_eq!(window.admit(0, 120), Admission::Allowed);
        for i in 0..119 {
            assert_eq!(window.admit(59_000 + i, 120), Admission::Allowed);
        }
        let admitted_after_the_edge = (0..120)
            .filter(|i| window.admit(61_000 + i, 120) == Admission::Allowed)
            .count();
        assert_eq!(
            admitted_after_the_edge, 1,
            "only the request from 0 s left the minute"
        );
        // Once the burst has left the minute, a full minute's worth is admitted again.
        for i in 0..119 {
            assert_eq!(window.admit(119_200 + i, 120), Admission::Allowed);
        }
    }

    /// Checked against the definition on bursty, irregular arrivals: a request is admitted
    /// exactly when fewer than `limit` were admitted in the minute before it, and a refusal's
    /// `Retry-After` is when the oldest of those leaves the minute.
    #[test]
    fn every_span_of_a_minute_holds_at_most_the_limit() {
        let limit = 7;
        let mut window = Window::default();
        let mut admitted: Vec<u64> = Vec::new();
        let mut now = 0u64;
        let mut seed = 12_345u64;
        for _ in 0..5_000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            // Mostly bursts (0–3 ms apart), sometimes pauses of up to 40 s.
            now += match (seed >> 33) % 10 {
                0 => (seed >> 40) % 40_000,
                1 | 2 => (seed >> 40) % 9_000,
                _ => (seed >> 40) % 4,
            };
            let recent: Vec<u64> = admitted
                .iter()
                .copied()
                .filter(|&at| at + WINDOW_MS > now)
                .collect();
            match window.admit(now, limit) {
                Admission::Allowed => {
                    assert!(recent.len() < limit as usize, "admitted at {now}");
                    admitted.push(now);
                }
                Admission::Limited {
                    retry_after_seconds,
                } => {
                    assert_eq!(recent.len(), limit as usize, "refused at {now}");
                    let frees_at = recent[0] + WINDOW_MS;
                    assert_eq!(retry_after_seconds, (frees_at - now).div_ceil(1000).max(1));
                }
            }
        }
        assert!(admitted.len() > 100, "{}", admitted.len());
    }

    #[test]
    fn a_lowered_limit_takes_effect_at_once() {
        let mut window = Window::default();
        for i in 0..10 {
            assert_eq!(window.admit(1_000 + i, 100), Admission::Allowed);
        }
        assert!(matches!(window.admit(2_000, 5), Admission::Limited { .. }));
    }

    #[test]
    fn limits_from_vars() {
        assert_eq!(parse_limit(None, 120), 120);
        assert_eq!(parse_limit(Some("5"), 120), 5);
        assert_eq!(parse_limit(Some(" 7 "), 120), 7);
        assert_eq!(parse_limit(Some("0"), 120), 120);
        assert_eq!(parse_limit(Some("x"), 120), 120);
    }
}
