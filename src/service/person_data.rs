//! "Delete my data" and the index behind it (wasm only): runs `person_data`'s steps against the
//! person's object and the pull requests' objects.
//!
//! Order matters: ticks first, a batch of pull requests per request, each batch dropped from the
//! index only once its ticks are gone; the credentials last, in one operation of the person's
//! object. So a failure anywhere leaves the person signed in with what is left still listed, and
//! the tokens stop working only when nothing of theirs is left to find.
//!
//! Every call to the person's object goes through one non-generic [`call`]: a generic helper per
//! message type would be compiled again for each (`person_data`'s messages are built as JSON).

use worker::{Env, Error, Result};

use super::saved_store;
use crate::person_data::{self as data, Forgotten, TickedList};
use crate::router::PullPath;
use crate::tools::caller::Caller;

/// One operation of the person's object `object`; its reply's body.
async fn call(env: &Env, object: &str, op: &str, body: &str) -> Result<String> {
    let reply = crate::subrequest::post_to_object(env, "PERSONS", object, op, body).await?;
    if reply.status != 200 {
        return Err(Error::RustError(format!(
            "PERSONS {op} answered {}",
            reply.status
        )));
    }
    Ok(reply.body)
}

/// Notes in the person's object that they ticked on this pull request (see `person_data`).
/// Local users (`local:<login>`) have no object and nothing to note.
pub async fn note_ticked(env: &Env, caller: &Caller, pull: &PullPath) -> Result<()> {
    crate::store::note_ticked(env, &caller.person, &caller.login, pull).await
}

/// How far one "Delete my data" request got.
pub enum Deleted {
    /// Everything is gone; the person's tokens no longer work.
    All(Forgotten),
    /// Ticks on `cleared` pull requests were deleted; some remain, and so do the credentials.
    Partly { cleared: usize },
}

/// One step of "Delete my data" for the person whose object is `object`.
pub async fn delete(env: &Env, object: &str, batch: usize) -> Result<Deleted> {
    let request = format!("{{\"limit\":{batch}}}");
    let listed: TickedList =
        crate::json::decode(&call(env, object, data::LIST_TICKED, &request).await?)?;
    let mut cleared = TickedList::default();
    let mut failed = false;
    for pull in &listed.pulls {
        let deleted = saved_store::delete_person_ticks(
            env,
            &pull.owner,
            &pull.repo,
            pull.number,
            &pull.login,
        )
        .await;
        match deleted {
            Ok(_) => cleared.pulls.push(pull.clone()),
            Err(error) => {
                worker::console_error!("deleting ticks failed: {error}");
                failed = true;
            }
        }
    }
    if !cleared.pulls.is_empty() {
        let body = cleared.to_json().to_string();
        call(env, object, data::DROP_TICKED, &body).await?;
    }
    if failed || listed.pulls.len() >= batch {
        return Ok(Deleted::Partly {
            cleared: cleared.pulls.len(),
        });
    }
    let forgotten = crate::json::decode(&call(env, object, data::FORGET, "{}").await?)?;
    Ok(Deleted::All(forgotten))
}
