//! Fixed-window request limits: 120 MCP requests a minute per person, and a per-address limit on
//! the OAuth endpoints that create state (`/authorize`, `/oauth/token`, `/oauth/register`).
//!
//! Why a fixed window: it is one counter and one start time, decided in the same Durable Object
//! hop as the token check, and "the 121st request within a minute of the first" is exactly what
//! people expect to read in a 429. A window opens at the first request after the last one closed,
//! so a burst of 120 at the end of one window and 120 at the start of the next is possible; at
//! this size that is harmless and the simplicity is worth it.
//! What not: no storage, no clock (both passed in).

/// A window's length.
pub const WINDOW_MS: u64 = 60_000;
/// MCP requests per person per minute unless `RATE_LIMIT_PER_MINUTE` says otherwise.
pub const DEFAULT_PER_PERSON: u32 = 120;
/// OAuth endpoint requests per address per minute unless `ADDRESS_RATE_LIMIT_PER_MINUTE` says
/// otherwise. Generous, because offices share one address behind NAT.
pub const DEFAULT_PER_ADDRESS: u32 = 60;

/// One counter's state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Window {
    /// When the window opened, epoch milliseconds.
    pub start_ms: u64,
    /// Requests admitted in it.
    pub count: u32,
}

/// The decision for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    Allowed,
    /// Over the limit: the window closes in this many whole seconds (at least 1).
    Limited {
        retry_after_seconds: u64,
    },
}

/// Admits or refuses one request at `now_ms` against `limit` per minute, returning the new window.
pub fn admit(window: Window, now_ms: u64, limit: u32) -> (Window, Admission) {
    let closed = now_ms >= window.start_ms.saturating_add(WINDOW_MS) || now_ms < window.start_ms;
    let window = if closed || window.count == 0 {
        Window {
            start_ms: now_ms,
            count: 0,
        }
    } else {
        window
    };
    if window.count >= limit {
        let closes_at = window.start_ms + WINDOW_MS;
        let retry_after_seconds = (closes_at - now_ms).div_ceil(1000).max(1);
        return (
            window,
            Admission::Limited {
                retry_after_seconds,
            },
        );
    }
    (
        Window {
            count: window.count + 1,
            ..window
        },
        Admission::Allowed,
    )
}

/// Reads a per-minute limit from a var: a positive integer, else the default.
pub fn parse_limit(text: Option<&str>, default: u32) -> u32 {
    text.and_then(|t| t.trim().parse::<u32>().ok())
        .filter(|&limit| limit > 0)
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs requests at the given times and returns each decision.
    fn check(limit: u32, times_ms: &[u64], expected: &[Admission]) {
        let mut window = Window::default();
        let mut got = Vec::new();
        for &now in times_ms {
            let (next, admission) = admit(window, now, limit);
            window = next;
            got.push(admission);
        }
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
        check(1, &[1_000, 500], &[Allowed, Allowed]);
    }

    #[test]
    fn the_121st_request_in_a_minute_is_refused() {
        let mut window = Window::default();
        for i in 0..120 {
            let (next, admission) = admit(window, 5_000 + i * 100, DEFAULT_PER_PERSON);
            assert_eq!(admission, Admission::Allowed, "request {}", i + 1);
            window = next;
        }
        let (_, admission) = admit(window, 30_000, DEFAULT_PER_PERSON);
        assert_eq!(
            admission,
            Admission::Limited {
                retry_after_seconds: 35
            }
        );
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
