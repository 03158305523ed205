//! The clock port on Workers (wasm only): the platform's time, `Date.now()`.

use crate::ports::clock::Clock;

/// The Worker's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkerClock;

impl Clock for WorkerClock {
    fn now_ms(&self) -> u64 {
        worker::Date::now().as_millis()
    }
}
