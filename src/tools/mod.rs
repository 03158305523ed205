//! The tools' pure halves: argument parsing, result shaping and the caller they act for.
//!
//! Each tool has its own module. Running a tool needs GitHub and storage, which only the wasm
//! adapters reach (`service`); everything that can be decided without them is decided here.

pub mod answer;
pub mod arguments;
pub mod caller;
pub mod conventions;
pub mod get_pull_request;
pub mod get_review_feedback;
pub mod ordering_guide;
pub mod pull_target;
pub mod relay;
pub mod save_document;
pub mod save_reading_order;
pub mod show_reading_order;
pub mod view_change;
pub mod view_diagram;
pub mod view_reading_order;
pub mod views;
pub mod worker_side;
