//! A person's data on request: the messages and limits behind "Delete my data" on `/settings`,
//! and what is kept and for how long (`docs/security.md`, "What is kept, and for how long").
//!
//! Why an index of ticked pull requests: ticks live in each pull request's Durable Object, and
//! nothing can list every object a person touched. So each tick also notes its pull request in
//! the person's object (`app::person`, table `ticked`), and deleting walks that list.
//! Deleting goes in batches of [`PULLS_PER_REQUEST`], pull requests first and credentials last:
//! a batch that fails leaves the person signed in with the rest still listed, to try again, and a
//! Worker request never runs into its subrequest limit however many pull requests there are.
//!
//! What not: no I/O. `app::oauth::settings` runs the steps; `app::person` and
//! `store::pull_request` delete the rows.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Person-object operations (JSON POSTs, like `oauth::person_api`'s).
pub const NOTE_TICKED: &str = "/data/ticked/note";
pub const LIST_TICKED: &str = "/data/ticked/list";
pub const DROP_TICKED: &str = "/data/ticked/drop";
pub const FORGET: &str = "/data/forget";
/// `{owner, repo, number, login}` → `{"listed": bool}`: whether the person's index lists that
/// pull request under that key (issue 36, [`adopts_login_rows`]).
pub const HAS_TICKED: &str = "/data/ticked/has";

/// The pull request object's operation that deletes one person's ticks and drafts
/// ([`ForgetTicks`] → `{"removed": n}`).
pub const FORGET_TICKS: &str = "/ticks/forget";

/// [`FORGET_TICKS`]'s request: whose ticks to delete (the key they were written under).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct ForgetTicks {
    pub person: String,
}

/// [`LIST_TICKED`]'s request: at most this many pull requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub struct ListTicked {
    pub limit: usize,
}

/// [`FORGET`]'s request: nothing to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub struct ForgetAll {}

/// Whether the rows a pull request's object holds under `login` (ticks and drafts written before
/// issue 36, when they were keyed by login) are `person`'s, so they move to `person`'s key.
///
/// A login names an account only for a while: GitHub lets a person rename their account and
/// anyone claim the released name, and the account a login named when a row was written is not
/// stored with the row. What is stored is the person's own index (`app::person`, table
/// `ticked`, keyed `gh:<id>`): before any tick or draft was stored, its pull request was noted
/// there with the login the rows went under. So the rule: rows under `login` move to `person`
/// only when `person`'s own index lists this pull request under `login` (`listed_in_index`),
/// that is when this account wrote rows here as `login`. A new holder of a released login wrote
/// nothing here under it (their rows are under their id since this change), so their index
/// doesn't list it and they never see the earlier holder's rows; the renamed account keeps its
/// index, so its rows move to it on its first visit, whatever login it has by then (the pull
/// request's object asks the index which logins it lists the pull request under). Only rows written before
/// the index existed, or two accounts that both wrote here under the same login before this
/// change (the rows can't be told apart: the first to come takes them), fall outside it.
/// A local user (`local:<login>`, local development) has no index and is the only user: theirs.
pub fn adopts_login_rows(person: &str, login: &str, listed_in_index: bool) -> bool {
    if login.is_empty() || login.contains(':') || person == login {
        return false;
    }
    match person.strip_prefix("local:") {
        Some(local) => local == login,
        None => person.starts_with("gh:") && listed_in_index,
    }
}

/// How many pull requests one "Delete my data" request clears ticks on: each is one Durable
/// Object request, and a Worker request may make 50 subrequests on the free plan (1,000 on paid);
/// this leaves room for the page's own.
pub const PULLS_PER_REQUEST: usize = 40;

/// The batch a `LIST_TICKED` request asks for (`{"limit": n}`), at most [`PULLS_PER_REQUEST`].
pub fn batch_limit(body: &str) -> usize {
    crate::json::value(body.as_bytes())
        .and_then(|value| value.get("limit").and_then(serde_json::Value::as_u64))
        .map_or(PULLS_PER_REQUEST, |n| {
            (n as usize).clamp(1, PULLS_PER_REQUEST)
        })
}

/// Ticks and their index entries unchanged for this long are removed (a year): a pull request's
/// review is long over by then, and it bounds both tables.
pub const TICK_RETENTION_SECONDS: u64 = 365 * 24 * 60 * 60;

/// The most versions of an order, or of a diagram, a pull request keeps; older ones are removed
/// when a newer one is saved. History stays (the spec: "earlier versions stay in history") but
/// cannot grow without bound under an agent that saves in a loop.
pub const MAX_VERSIONS: u64 = 1000;

/// A pull request a person ticked on, with the key its ticks and drafts were written under:
/// the person id (`gh:<id>`) since issue 36, a GitHub login before (which a person can change on
/// GitHub, and another account then claim; see [`adopts_login_rows`]). The field keeps its
/// name so entries written before read the same.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Ticked {
    pub owner: String,
    pub repo: String,
    pub number: u64,
    pub login: String,
}

impl Ticked {
    /// The JSON the Worker and the person's object exchange.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    /// The pull request's object name (`owner/repo#number`, lower-cased: GitHub names are
    /// case-insensitive), as `service::saved_store::object_name` spells it.
    pub fn object_name(&self) -> String {
        format!(
            "{}/{}#{}",
            self.owner.to_ascii_lowercase(),
            self.repo.to_ascii_lowercase(),
            self.number
        )
    }

    /// The index's key: the pull request as its object is named and the login.
    pub fn key(&self) -> String {
        format!("{}@{}", self.object_name(), self.login)
    }
}

/// `LIST_TICKED`'s reply (at most [`PULLS_PER_REQUEST`] entries, least recently ticked first),
/// and `DROP_TICKED`'s request (the entries whose ticks are gone).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
pub struct TickedList {
    pub pulls: Vec<Ticked>,
}

impl TickedList {
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// What `FORGET` removed, for the confirmation page.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
pub struct Forgotten {
    pub grants: u64,
    pub api_tokens: u64,
    pub github_token: bool,
}

impl Forgotten {
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 36: rows under a login move only to the account whose own index lists them.
    #[test]
    fn login_rows_move_only_to_the_account_that_wrote_them() {
        // The renamed account (its index lists the pull request under its old login).
        assert!(adopts_login_rows("gh:1", "octo", true));
        // The new holder of the released login: its index doesn't list it.
        assert!(!adopts_login_rows("gh:2", "octo", false));
        // Never a key that is itself an id, or nothing.
        assert!(!adopts_login_rows("gh:1", "gh:1", true));
        assert!(!adopts_login_rows("gh:1", "", true));
        assert!(!adopts_login_rows("gh:1", "gh:9", true));
        // Local development: the one local user.
        assert!(adopts_login_rows("local:octo", "octo", false));
        assert!(!adopts_login_rows("local:octo", "other", false));
        assert!(!adopts_login_rows("someone", "octo", true));
    }

    fn round_trip<T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(
        value: T,
        json: Value,
    ) {
        let text = json.to_string();
        assert_eq!(crate::json::decode::<T>(&text).unwrap(), value, "{text}");
    }

    fn ticked(owner: &str, number: u64) -> Ticked {
        Ticked {
            owner: owner.into(),
            repo: "Demo".into(),
            number,
            login: "Octo".into(),
        }
    }

    #[test]
    fn messages_round_trip() {
        let one = ticked("LogiKFlow", 3);
        round_trip(one.clone(), one.to_json());
        let list = TickedList {
            pulls: vec![ticked("a", 1), ticked("b", 2)],
        };
        round_trip(list.clone(), list.to_json());
        let forgotten = Forgotten {
            grants: 2,
            api_tokens: 1,
            github_token: true,
        };
        round_trip(forgotten.clone(), forgotten.to_json());
    }

    #[test]
    fn the_key_follows_the_object_name_and_keeps_the_login() {
        assert_eq!(ticked("LogiKFlow", 3).key(), "logikflow/demo#3@Octo");
    }

    #[test]
    fn a_missing_field_is_named() {
        let error = crate::json::decode::<Ticked>(r#"{"owner":"a","repo":"b","login":"c"}"#)
            .unwrap_err()
            .to_string();
        assert!(error.contains("number"), "{error}");
    }
}
