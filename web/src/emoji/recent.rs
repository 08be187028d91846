//! The emoji the person used lately, for the picker's "Recent" row: the
//! last [`KEPT`] emoji picked (in reactions, the composer and by
//! `:shortcode:`), each with how often, kept in localStorage across reloads.
//! The row shows the most used first, the latest among equals.

use agentnet_core::sorting::sort_by_key;
use serde::{Deserialize, Serialize};

/// How many emoji are remembered (and shown at most).
pub const KEPT: usize = 16;

/// The localStorage key (under the workspace's `agentnet:` prefix).
const KEY: &str = "emoji-recent";

/// The emoji used lately, the latest first, each with how often it was used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recent(Vec<(String, u32)>);

impl Recent {
    /// What was kept (nothing when nothing was, or it no longer reads).
    pub fn load() -> Self {
        crate::storage::recall_json(KEY).unwrap_or_default()
    }

    /// Records that `glyph` was used now and keeps the list.
    pub fn use_and_keep(glyph: &str) {
        let mut recent = Self::load();
        recent.used(glyph);
        if let Ok(text) = serde_json::to_string(&recent) {
            crate::storage::keep(KEY, &text);
        }
    }

    /// Records that `glyph` was used now: it goes first, counted once more;
    /// the oldest beyond [`KEPT`] is forgotten.
    pub fn used(&mut self, glyph: &str) {
        let count = match self.0.iter().position(|(g, _)| g == glyph) {
            Some(i) => self.0.remove(i).1.saturating_add(1),
            None => 1,
        };
        self.0.insert(0, (glyph.to_owned(), count));
        self.0.truncate(KEPT);
    }

    /// The row: the most used first, the latest first among equals.
    pub fn shown(&self) -> Vec<String> {
        let mut list = self.0.clone();
        // A stable sort keeps the latest first among equal counts.
        sort_by_key(&mut list, |(_, count)| std::cmp::Reverse(*count));
        list.into_iter().map(|(glyph, _)| glyph).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_used_come_first_then_the_latest() {
        let mut recent = Recent::default();
        for glyph in ["👍", "🎉", "👍", "🚀", "👀"] {
            recent.used(glyph);
        }
        assert_eq!(recent.shown(), vec!["👍", "👀", "🚀", "🎉"]);
    }

    #[test]
    fn only_the_latest_are_kept_and_a_new_one_always_shows() {
        let mut recent = Recent::default();
        for i in 0..KEPT as u32 {
            let glyph = char::from_u32(0x1F600 + i).unwrap().to_string();
            recent.used(&glyph);
            recent.used(&glyph);
        }
        recent.used("🦄");
        let shown = recent.shown();
        assert_eq!(shown.len(), KEPT);
        assert!(
            shown.contains(&"🦄".to_owned()),
            "the one used now is there"
        );
        assert!(!shown.contains(&"😀".to_owned()), "the oldest is forgotten");
    }

    #[test]
    fn it_reads_back_what_it_wrote() {
        let mut recent = Recent::default();
        recent.used("✅");
        let text = serde_json::to_string(&recent).unwrap();
        assert_eq!(serde_json::from_str::<Recent>(&text).unwrap(), recent);
    }
}
