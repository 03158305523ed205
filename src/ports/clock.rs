//! The clock port: the application asks it for the time instead of reading the platform's, so
//! expiry, sweeps and rate windows are tested on a clock the test sets, with no sleeps.

use std::cell::Cell;

/// Where the application reads the time.
pub trait Clock {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> u64;

    /// Whole seconds since the Unix epoch (the unit of OAuth lifetimes).
    fn now_seconds(&self) -> u64 {
        self.now_ms() / 1000
    }
}

/// A clock that says what it is told: the tests' stand-in. Interior mutability so a test can
/// move it while the application holds a shared reference.
#[derive(Debug, Default)]
pub struct FixedClock(Cell<u64>);

impl FixedClock {
    /// A clock stopped at `ms` since the epoch.
    pub fn at(ms: u64) -> FixedClock {
        FixedClock(Cell::new(ms))
    }

    /// Moves the clock forward by `ms`.
    pub fn advance(&self, ms: u64) {
        self.0.set(self.0.get().saturating_add(ms));
    }

    /// Sets the clock to `ms` since the epoch.
    pub fn set(&self, ms: u64) {
        self.0.set(ms);
    }
}

impl Clock for FixedClock {
    fn now_ms(&self) -> u64 {
        self.0.get()
    }
}

#[cfg(test)]
mod tests {
    use super::{Clock, FixedClock};

    #[test]
    fn a_fixed_clock_moves_only_when_told() {
        let clock = FixedClock::at(5_000);
        assert_eq!(clock.now_seconds(), 5);
        clock.advance(2_500);
        assert_eq!(clock.now_ms(), 7_500);
        clock.set(1_000);
        assert_eq!(clock.now_ms(), 1_000);
    }
}
