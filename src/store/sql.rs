//! The SQL port on Workers: a Durable Object's `SqlStorage` (wasm only).
//!
//! Rows are decoded by column name with `serde-wasm-bindgen` (workers-rs `SqlCursor::to_array`),
//! the same way the native stand-in decodes them from SQLite (`ports::sql::native`).

use serde::de::DeserializeOwned;
use worker::{SqlStorage, SqlStorageValue};

use crate::ports::sql::{Sql, SqlError, SqlValue};

fn bind(values: &[SqlValue]) -> Vec<SqlStorageValue> {
    values
        .iter()
        .map(|value| match value {
            SqlValue::Null => SqlStorageValue::Null,
            SqlValue::Integer(n) => SqlStorageValue::Integer(*n),
            SqlValue::Real(x) => SqlStorageValue::Float(*x),
            SqlValue::Text(text) => SqlStorageValue::String(text.clone()),
            SqlValue::Blob(bytes) => SqlStorageValue::Blob(bytes.clone()),
        })
        .collect()
}

impl Sql for SqlStorage {
    fn run(&self, statement: &str, bindings: &[SqlValue]) -> Result<(), SqlError> {
        self.exec(statement, bind(bindings))
            .map(drop)
            .map_err(|e| SqlError::new(statement, e))
    }

    fn rows<T: DeserializeOwned>(
        &self,
        statement: &str,
        bindings: &[SqlValue],
    ) -> Result<Vec<T>, SqlError> {
        self.exec(statement, bind(bindings))
            .and_then(|cursor| cursor.to_array())
            .map_err(|e| SqlError::new(statement, e))
    }

    fn script(&self, statements: &str) -> Result<(), SqlError> {
        self.exec(statements, None)
            .map(drop)
            .map_err(|e| SqlError::new(statements, e))
    }
}

/// A records failure inside an object's request: a 500 there, its words logged.
impl From<SqlError> for worker::Error {
    fn from(error: SqlError) -> Self {
        worker::Error::RustError(error.to_string())
    }
}
