//! The SQL port: a Durable Object's SQLite storage, as the records implementations use it.
//!
//! The records (`app` code's stores of orders, ticks, drafts, grants, …) are written once, in
//! SQL, against this trait. On Workers it is the object's `SqlStorage` (`store::sql`); natively
//! it is the same SQLite engine in memory (`native::MemorySql`, tests only), so the real
//! statements, their constraints and their `ORDER BY`s are what the in-process tests run.
//!
//! Synchronous on purpose: a Durable Object's SQL never awaits, and the rule "read, decide, write
//! with no `await` in between" (what makes `base_version` conflicts exact) holds by construction
//! for any function that takes `&impl Sql` and is not `async`.
//!
//! Rows are decoded by column name into typed structs with serde, on both sides.

use serde::de::DeserializeOwned;

/// One bound parameter (`?` in a statement), SQLite's storage classes.
#[derive(Debug, Clone, PartialEq)]
pub enum SqlValue {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl From<i64> for SqlValue {
    fn from(value: i64) -> Self {
        SqlValue::Integer(value)
    }
}

impl From<u32> for SqlValue {
    fn from(value: u32) -> Self {
        SqlValue::Integer(i64::from(value))
    }
}

impl From<f64> for SqlValue {
    fn from(value: f64) -> Self {
        SqlValue::Real(value)
    }
}

impl From<&str> for SqlValue {
    fn from(value: &str) -> Self {
        SqlValue::Text(value.to_string())
    }
}

impl From<String> for SqlValue {
    fn from(value: String) -> Self {
        SqlValue::Text(value)
    }
}

impl From<Vec<u8>> for SqlValue {
    fn from(value: Vec<u8>) -> Self {
        SqlValue::Blob(value)
    }
}

impl<T: Into<SqlValue>> From<Option<T>> for SqlValue {
    fn from(value: Option<T>) -> Self {
        value.map_or(SqlValue::Null, Into::into)
    }
}

/// A statement that failed, or rows that didn't decode: a fault of ours or the platform's,
/// logged and answered as a 500, never shown to a user in these words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlError {
    /// The statement's first words, to find it in the code.
    pub statement: String,
    pub cause: String,
}

impl SqlError {
    pub fn new(statement: &str, cause: impl std::fmt::Display) -> SqlError {
        SqlError {
            statement: statement.chars().take(60).collect(),
            cause: cause.to_string(),
        }
    }
}

impl std::fmt::Display for SqlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sql `{}…`: {}", self.statement, self.cause)
    }
}

/// A SQLite database the records run their statements on.
pub trait Sql {
    /// Runs a statement that returns no rows (or whose rows are not wanted).
    fn run(&self, statement: &str, bindings: &[SqlValue]) -> Result<(), SqlError>;

    /// Runs a query and decodes each row, by column name, into `T`.
    fn rows<T: DeserializeOwned>(
        &self,
        statement: &str,
        bindings: &[SqlValue],
    ) -> Result<Vec<T>, SqlError>;

    /// Runs several `;`-separated statements with no bindings (a schema).
    fn script(&self, statements: &str) -> Result<(), SqlError>;
}

#[cfg(all(test, not(target_arch = "wasm32")))]
pub mod native;
