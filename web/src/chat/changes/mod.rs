//! What happens to a message after it is posted: its author edits or deletes it
//! ([`edits`], in place: [`own`]), what the workspace knows of edits and deletions
//! ([`known`]), and reactions ([`reactions`], counted in [`reaction_counts`]).

pub mod edits;
pub mod known;
pub mod own;
pub mod reaction_counts;
pub mod reactions;
