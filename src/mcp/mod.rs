//! The MCP layer: JSON-RPC framing, the Streamable HTTP transport rules, and method dispatch for
//! protocol versions 2026-07-28, 2025-11-25 and 2025-06-18. Pure: no platform types.

pub mod apps;
pub mod catalog;
pub mod dispatch;
pub mod jsonrpc;
pub mod transport;
