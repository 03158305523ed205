//! The security primitives, one home each, used by the OAuth endpoints and the web pages alike:
//! a fix made here is made everywhere.
//!
//! - [`cookie`]: reading a `Cookie` header and building `Set-Cookie` values;
//! - [`random`]: random bytes and the 43-character tokens and ids made from them;
//! - [`compare`]: constant-time comparison of secrets;
//! - [`pkce`]: the S256 code challenge of a verifier;
//! - [`form`]: `application/x-www-form-urlencoded` bodies as pairs;
//! - [`sha256`]: SHA-256, for ids, anchors, PKCE and token hashes;
//! - [`base64`]: the URL-safe text of tokens and ids, and GitHub's file contents;
//! - [`hmac`]: HMAC-SHA-256, for token tags and the pages' session tokens;
//! - [`browser_post`]: what every state-changing browser request must show (same origin, its body's
//!   content type, the session token).
//!
//! CSRF for the pages (`web::csrf`) and the OAuth rules (`oauth::*`) are built on these.

pub mod base64;
pub mod browser_post;
pub mod compare;
pub mod cookie;
pub mod form;
pub mod hmac;
pub mod pkce;
pub mod random;
pub mod sha256;
