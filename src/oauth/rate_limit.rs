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
        // out for longer than a minute: forget what claims to come from the future.
        if self.admitted_ms.back().is_some_and(|&last| last > now_ms) {
            self.admitted_ms.clear();
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

#[cfg(test)]
mod tests {
    use super::*;

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
        check(1, &[1_000, 500], &[Admission::Allowed, Admission::Allowed]);
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

    /// The fixed window's flaw: 120 at the end of one minute and 120 at the start of the next.
    #[test]
    fn no_minute_admits_more_than_the_limit_across_an_edge() {
        let mut window = Window::default();
        for i in 0..120 {
            assert_eq!(window.admit(59_000 + i, 120), Admission::Allowed);
        }
        let mut admitted_next_second = 0;
        for i in 0..120 {
            if window.admit(61_000 + i, 120) == Admission::Allowed {
                admitted_next_second += 1;
            }
        }
        assert_eq!(admitted_next_second, 0);
        // Once the first burst has left the minute, a full minute's worth is admitted again.
        for i in 0..120 {
            assert_eq!(window.admit(119_200 + i, 120), Admission::Allowed);
        }
    }

    /// Checked exhaustively on a steady stream: in every 60-second span at most `limit` are
    /// admitted, and no refused request came when fewer than `limit` were admitted before it.
    #[test]
    fn every_span_of_a_minute_holds_at_most_the_limit() {
        let limit = 7;
        let mut window = Window::default();
        let mut admitted = Vec::new();
        for step in 0..2_000u64 {
            let now = step * 173; // an awkward period, so edges land everywhere
            let in_last_minute = admitted.iter().filter(|&&at| at + WINDOW_MS > now).count();
            match window.admit(now, limit) {
                Admission::Allowed => {
                    assert!(in_last_minute < limit as usize, "admitted at {now}");
                    admitted.push(now);
                }
                Admission::Limited {
                    retry_after_seconds,
                } => {
                    assert_eq!(in_last_minute, limit as usize, "refused at {now}");
                    assert!((1..=60).contains(&retry_after_seconds));
                }
            }
        }
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
