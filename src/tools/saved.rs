//! What is stored for a pull request: moved to `review::model::{saved, ticks}` (issue #37).

// Moved to review::model; kept for store/app until they import it.
pub use crate::review::model::saved::*;
// Moved to review::model; kept for store/app until they import it.
pub use crate::review::model::ticks::{
    ReviewerState, TickOutcome, TickReply, TickRow, MAX_TICKS_PER_PERSON,
};
