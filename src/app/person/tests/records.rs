//! The person's records on the real SQL.
