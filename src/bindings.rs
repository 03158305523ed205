//! The Worker's vars and secrets read into a [`Config`], once per isolate, and the platform's clock
//! (`WorkerClock`, the clock port's Workers side) (wasm only).
//!
//! Why once: vars and secrets change only with a deploy, which starts new isolates, and reading
//! thirteen bindings per request was ~3% of the Worker's CPU on `/mcp` (`tests/bench/profile.mjs`).
//! What not: no parsing or defaults; `Config::from_vars` decides those, natively tested.

use std::sync::OnceLock;

use crate::config::Config;

/// The configuration, read from the first request's bindings and kept for the isolate's life.
pub fn config(env: &worker::Env) -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(|| read(env))
}

/// The configuration `env`'s vars and secrets make, read now (a var before a secret of the same
/// name); [`config`] keeps the first one for the isolate.
pub fn read(env: &worker::Env) -> Config {
    Config::from_vars(|name| {
        env.var(name)
            .map(|v| v.to_string())
            .or_else(|_| env.secret(name).map(|v| v.to_string()))
            .ok()
    })
}

/// The clock port on Workers: the platform's time, `Date.now()`.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkerClock;

impl crate::ports::clock::Clock for WorkerClock {
    fn now_ms(&self) -> u64 {
        worker::Date::now().as_millis()
    }
}
