//! What the pull request's in-process tests share: a poll loop that runs a future whose
//! stand-ins answer at once (`block_on`, on `std::task::Waker::noop`, so no executor crate), and
//! fresh records on SQLite in memory.
//!
//! What not: no test cases; each module keeps its own.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::ports::sql::native::MemorySql;

/// Runs `future` to its end by polling it. Every stand-in here answers at once or after a number
/// of polls it counts itself, so a future that stays pending past the bound is a test's bug.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    for _ in 0..1_000_000 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
    panic!("a future stayed pending with stand-ins that answer at once");
}

/// A pull request's SQL storage with its schema created.
pub fn storage() -> MemorySql {
    let sql = MemorySql::new();
    super::records::Records::new(&sql)
        .schema()
        .expect("the schema is created on SQLite in memory");
    sql
}
