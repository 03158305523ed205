//! The sealing port: how a person's GitHub token is sealed at rest and opened again.
//!
//! Why a port: sealing is WebCrypto's AES-GCM on Workers (`oauth::seal`, an adapter), which does
//! not exist natively; the person's application (`app::person`) only needs "seal this text bound
//! to that name" and "open it", so it is written against this trait and tested with
//! [`stand_in::ReversibleSeal`], which binds the name the same way but hides nothing.
//! What not: no key handling here; the adapter imports its key once and keeps it.

/// Why sealing or opening failed. The words are for logs only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealFailure {
    /// No key (the secret is not set, or importing it failed): a fault of the deployment; the
    /// operation fails and nothing is changed.
    Unavailable(String),
    /// The sealed text does not open with this key and name (a rotated key, a damaged row, a
    /// value copied from another person's object).
    Unreadable(String),
}

impl std::fmt::Display for SealFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SealFailure::Unavailable(why) => write!(f, "no sealing key: {why}"),
            SealFailure::Unreadable(why) => write!(f, "the sealed value does not open: {why}"),
        }
    }
}

/// Seals text bound to `additional_data` (the person's object name), and opens it again.
///
/// `async fn` without a `Send` bound, as the GitHub transport's: objects are single-threaded.
#[allow(async_fn_in_trait)]
pub trait Sealer {
    async fn seal(&self, additional_data: &str, plaintext: &str) -> Result<String, SealFailure>;
    async fn open(&self, additional_data: &str, sealed: &str) -> Result<String, SealFailure>;
}

#[cfg(test)]
pub mod stand_in {
    //! The tests' sealer: `test.<name>|<plaintext>`, so a value sealed for another name, or
    //! damaged, does not open; `unavailable` makes every call fail as a missing key does.

    use std::cell::Cell;

    use super::{SealFailure, Sealer};

    #[derive(Debug, Default)]
    pub struct ReversibleSeal {
        pub unavailable: Cell<bool>,
    }

    impl Sealer for ReversibleSeal {
        async fn seal(
            &self,
            additional_data: &str,
            plaintext: &str,
        ) -> Result<String, SealFailure> {
            if self.unavailable.get() {
                return Err(SealFailure::Unavailable("no key in this test".into()));
            }
            Ok(format!("test.{additional_data}|{plaintext}"))
        }

        async fn open(&self, additional_data: &str, sealed: &str) -> Result<String, SealFailure> {
            if self.unavailable.get() {
                return Err(SealFailure::Unavailable("no key in this test".into()));
            }
            sealed
                .strip_prefix("test.")
                .and_then(|rest| rest.strip_prefix(additional_data))
                .and_then(|rest| rest.strip_prefix('|'))
                .map(str::to_string)
                .ok_or_else(|| SealFailure::Unreadable("not sealed for this name".into()))
        }
    }
}
