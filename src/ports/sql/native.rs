//! The SQL port's native stand-in: SQLite in memory (the `rusqlite` crate with its bundled
//! SQLite, a dev-dependency), so in-process tests run the records' real statements.
//!
//! Rows become JSON objects by column name (integers stay integers, as SQLite's storage class
//! says) and are decoded with serde, as `serde-wasm-bindgen` decodes them from the object's
//! cursor on Workers.

use rusqlite::types::ValueRef;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Sql, SqlError, SqlValue};

/// An in-memory SQLite database, one per test.
pub struct MemorySql(rusqlite::Connection);

impl MemorySql {
    pub fn new() -> MemorySql {
        let connection = rusqlite::Connection::open_in_memory()
            .expect("an in-memory SQLite database opens (tests only)");
        MemorySql(connection)
    }
}

impl Default for MemorySql {
    fn default() -> Self {
        MemorySql::new()
    }
}

fn bind(value: &SqlValue) -> rusqlite::types::Value {
    use rusqlite::types::Value as V;
    match value {
        SqlValue::Null => V::Null,
        SqlValue::Integer(n) => V::Integer(*n),
        SqlValue::Real(x) => V::Real(*x),
        SqlValue::Text(text) => V::Text(text.clone()),
        SqlValue::Blob(bytes) => V::Blob(bytes.clone()),
    }
}

fn json(value: ValueRef<'_>) -> Value {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::from(n),
        ValueRef::Real(x) => Value::from(x),
        ValueRef::Text(text) => Value::from(String::from_utf8_lossy(text).into_owned()),
        ValueRef::Blob(bytes) => Value::from(bytes.to_vec()),
    }
}

impl Sql for MemorySql {
    fn run(&self, statement: &str, bindings: &[SqlValue]) -> Result<(), SqlError> {
        let mut prepared = self
            .0
            .prepare(statement)
            .map_err(|e| SqlError::new(statement, e))?;
        let params: Vec<_> = bindings.iter().map(bind).collect();
        let mut rows = prepared
            .query(rusqlite::params_from_iter(params))
            .map_err(|e| SqlError::new(statement, e))?;
        while rows
            .next()
            .map_err(|e| SqlError::new(statement, e))?
            .is_some()
        {}
        Ok(())
    }

    fn rows<T: DeserializeOwned>(
        &self,
        statement: &str,
        bindings: &[SqlValue],
    ) -> Result<Vec<T>, SqlError> {
        let mut prepared = self
            .0
            .prepare(statement)
            .map_err(|e| SqlError::new(statement, e))?;
        let names: Vec<String> = prepared
            .column_names()
            .iter()
            .map(|name| name.to_string())
            .collect();
        let params: Vec<_> = bindings.iter().map(bind).collect();
        let mut rows = prepared
            .query(rusqlite::params_from_iter(params))
            .map_err(|e| SqlError::new(statement, e))?;
        let mut decoded = Vec::new();
        while let Some(row) = rows.next().map_err(|e| SqlError::new(statement, e))? {
            let mut object = Map::new();
            for (index, name) in names.iter().enumerate() {
                let value = row
                    .get_ref(index)
                    .map_err(|e| SqlError::new(statement, e))?;
                object.insert(name.clone(), json(value));
            }
            decoded.push(
                serde_json::from_value(Value::Object(object))
                    .map_err(|e| SqlError::new(statement, e))?,
            );
        }
        Ok(decoded)
    }

    fn script(&self, statements: &str) -> Result<(), SqlError> {
        self.0
            .execute_batch(statements)
            .map_err(|e| SqlError::new(statements, e))
    }
}

#[cfg(test)]
mod tests {
    use super::MemorySql;
    use crate::ports::sql::{Sql, SqlValue};

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Row {
        id: i64,
        name: Option<String>,
    }

    #[test]
    fn rows_decode_by_column_name() {
        let sql = MemorySql::new();
        sql.script("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            .unwrap();
        sql.run(
            "INSERT INTO t (id, name) VALUES (?, ?)",
            &[1_i64.into(), "a".into()],
        )
        .unwrap();
        sql.run(
            "INSERT INTO t (id, name) VALUES (?, ?)",
            &[2_i64.into(), SqlValue::Null],
        )
        .unwrap();
        let rows: Vec<Row> = sql.rows("SELECT name, id FROM t ORDER BY id", &[]).unwrap();
        assert_eq!(
            rows,
            vec![
                Row {
                    id: 1,
                    name: Some("a".into())
                },
                Row { id: 2, name: None }
            ]
        );
    }

    #[test]
    fn a_failing_statement_is_an_error_value() {
        let sql = MemorySql::new();
        let error = sql.run("INSERT INTO missing VALUES (1)", &[]).unwrap_err();
        assert!(error.cause.contains("missing"), "{error}");
    }
}
