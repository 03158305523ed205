//! The web pages LogiKFlow serves itself: the landing page, the ordering guide and the 404 page.
//!
//! Why: every page is a pure function from data to escaped HTML, so pages build and test natively
//! and the entry point only picks a function and adds headers (`html::CSP` among them).
//! `html` holds the shared document shell and escaping, `safe_markdown` the one Markdown renderer
//! (our own docs, agents' notes and reviewers' comments), and `pages` the pages themselves.
//!
//! What not: no routing, no HTTP types, no `worker` imports, no scripts, no external assets.
//! The review view for a pull request lives elsewhere and only borrows the shell and the renderers.

pub mod arrange_page;
pub mod comment_markdown;
pub mod consent;
pub mod csrf;
pub mod escape;
pub mod html;
pub mod pages;
pub mod review_page;
pub mod review_state;
pub mod review_write;
pub mod safe_markdown;
pub mod settings_page;
pub mod setup_page;
pub mod sign_in;
pub mod template;
pub mod tick_batch;
