//! What the workspace knows of reactions: per message, emoji and person,
//! the newest event's time and whether the reaction is on, so history read
//! in any order and live events agree ([`record`]); and what a message shows
//! ([`shown`]): each emoji someone still reacts with, how many, who, and
//! whether the person is among them.

use agentnet_core::sorting::sort_by_key;
use agentnet_core::vocabulary::event_types::{REACTION_ADDED, REACTION_REMOVED};
use agentnet_core::{Event, EventId};
use serde_json::Value;
use std::collections::BTreeMap;

/// Per message, per (emoji, person): when they last changed it, and whether it is on.
pub type Reactions = BTreeMap<EventId, BTreeMap<(String, String), (u64, bool)>>;

/// One emoji under a message: how many react with it, and whether the person does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The emoji.
    pub emoji: String,
    /// How many people react with it.
    pub count: usize,
    /// The person is among them.
    pub mine: bool,
    /// Who they are, for the tooltip.
    pub who: Vec<String>,
}

/// The message, emoji and on/off of a reaction event, if `event` is one.
pub fn reaction_of(event: &Event) -> Option<(EventId, String, bool)> {
    let on = match event.event_type.as_str() {
        REACTION_ADDED => true,
        REACTION_REMOVED => false,
        _ => return None,
    };
    let message = crate::chat::changes::known::message_of(event)?;
    let emoji = event.payload.get("emoji").and_then(Value::as_str)?;
    Some((message, emoji.to_owned(), on))
}

/// Records `who`'s reaction change made at `at`; an older event than the one known changes nothing.
pub fn record(
    known: &mut Reactions,
    message: EventId,
    emoji: String,
    who: String,
    at: u64,
    on: bool,
) {
    let entry = known.entry(message).or_default();
    let key = (emoji, who);
    if entry.get(&key).is_none_or(|(seen, _)| at >= *seen) {
        entry.insert(key, (at, on));
    }
}

/// The reactions `message` shows, in the order they were first made.
pub fn shown(known: &Reactions, message: &EventId, me: &str) -> Vec<Shown> {
    let Some(entries) = known.get(message) else {
        return Vec::new();
    };
    let mut by_emoji: BTreeMap<&str, (u64, Vec<String>)> = BTreeMap::new();
    for ((emoji, who), (at, on)) in entries {
        if *on {
            let (first, people) = by_emoji.entry(emoji).or_insert((*at, Vec::new()));
            *first = (*first).min(*at);
            people.push(who.clone());
        }
    }
    let mut list: Vec<(u64, Shown)> = by_emoji
        .into_iter()
        .map(|(emoji, (first, who))| {
            let shown = Shown {
                emoji: emoji.to_owned(),
                count: who.len(),
                mine: who.iter().any(|w| w == me),
                who,
            };
            (first, shown)
        })
        .collect();
    sort_by_key(&mut list, |(first, _)| *first);
    list.into_iter().map(|(_, s)| s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u64) -> EventId {
        EventId::from_parts(n, 1)
    }

    #[test]
    fn the_newest_change_of_each_persons_reaction_counts_whatever_the_order() {
        let mut known = Reactions::new();
        let m = id(1);
        // Ann added then removed 👍 (read in reverse order); Bob's 👍 stays; Ann's 🎉 came first.
        record(&mut known, m, "👍".into(), "human:ann".into(), 30, false);
        record(&mut known, m, "👍".into(), "human:ann".into(), 20, true);
        record(&mut known, m, "👍".into(), "agent:bob".into(), 25, true);
        record(&mut known, m, "🎉".into(), "human:ann".into(), 10, true);
        let list = shown(&known, &m, "human:ann");
        assert_eq!(
            list.iter()
                .map(|s| (s.emoji.as_str(), s.count, s.mine))
                .collect::<Vec<_>>(),
            vec![("🎉", 1, true), ("👍", 1, false)]
        );
        assert_eq!(list[1].who, vec!["agent:bob".to_owned()]);
        assert!(shown(&known, &id(2), "human:ann").is_empty());
    }
}
