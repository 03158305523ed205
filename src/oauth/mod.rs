//! OAuth 2.1 for the MCP endpoint: protected-resource metadata (RFC 9728) and the bearer
//! challenge (RFC 6750) that points clients at it. Pure.

pub mod challenge;
