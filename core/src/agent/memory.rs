//! What an agent remembers of the conversations it is in: their last
//! messages (the history a model call carries), the run of agent messages
//! without a person, the threads it was mentioned in or answered, and the
//! messages it answered — all bounded.

use crate::agent::chat::Entry;
use crate::agent::rules::{Place, agent_run, content_of, is_message, place_of, thread_root};
use crate::bounded::trim_oldest;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Conversations remembered; the least recently active is forgotten first.
pub const MAX_PLACES: usize = 256;
/// Messages remembered per conversation.
pub const MAX_MESSAGES: usize = 200;
/// Thread roots and answered messages remembered.
pub const MAX_IDS: usize = 4096;
/// The longest message text kept, in characters.
pub const MAX_TEXT: usize = 8 * 1024;

/// A set of ids that forgets its oldest past [`MAX_IDS`].
#[derive(Debug, Default)]
pub struct IdRing {
    set: BTreeSet<EventId>,
    order: VecDeque<EventId>,
}

impl IdRing {
    /// Adds an id; false when it was there already.
    pub fn insert(&mut self, id: EventId) -> bool {
        if !self.set.insert(id) {
            return false;
        }
        self.order.push_back(id);
        if self.order.len() > MAX_IDS
            && let Some(old) = self.order.pop_front()
        {
            self.set.remove(&old);
        }
        true
    }

    /// Whether the id is remembered.
    pub fn contains(&self, id: &EventId) -> bool {
        self.set.contains(id)
    }
}

/// One message remembered.
#[derive(Debug, Clone)]
struct Said {
    /// None for the agent's own answer until the network delivers it back.
    id: Option<EventId>,
    source: Address,
    text: String,
}

#[derive(Debug, Default)]
struct Conversation {
    said: VecDeque<Said>,
    agent_run: u32,
    active: u64,
}

/// Everything an agent remembers.
#[derive(Debug, Default)]
pub struct Memory {
    places: BTreeMap<Place, Conversation>,
    clock: u64,
    /// Threads it was mentioned in or answered (by their root message).
    pub threads: IdRing,
    /// Messages it answered (or is answering).
    pub answered: IdRing,
}

impl Memory {
    /// The run of agent messages in a row in `place`.
    pub fn agent_run(&self, place: &Place) -> u32 {
        self.places.get(place).map_or(0, |c| c.agent_run)
    }

    /// Remembers a chat message seen by `me` (its own included).
    pub fn record(&mut self, me: &Address, event: &Event) {
        if !is_message(event) {
            return;
        }
        let place = place_of(me, event);
        if &event.source == me {
            self.threads.insert(thread_root(event));
        }
        self.clock += 1;
        let clock = self.clock;
        let conversation = self.places.entry(place).or_default();
        if conversation.said.iter().any(|s| s.id == Some(event.id)) {
            return;
        }
        conversation.active = clock;
        let text: String = content_of(event).chars().take(MAX_TEXT).collect();
        let provisional = conversation
            .said
            .iter_mut()
            .find(|s| s.id.is_none() && &s.source == me && s.text == text);
        if let Some(provisional) = provisional {
            // Counted in the run when it was said.
            provisional.id = Some(event.id);
            return;
        }
        conversation.agent_run = agent_run(conversation.agent_run, &event.source);
        conversation.said.push_back(Said {
            id: Some(event.id),
            source: event.source.clone(),
            text,
        });
        if conversation.said.len() > MAX_MESSAGES {
            conversation.said.pop_front();
        }
        trim_oldest(&mut self.places, MAX_PLACES, |c| c.active);
    }

    /// Remembers the agent's answer to `trigger` in `place` as soon as it is
    /// posted, right after the message it answers, so a turn that starts
    /// before the network delivers it back sees it; the delivered message
    /// takes its place.
    pub fn said(&mut self, me: &Address, place: &Place, trigger: EventId, text: &str) {
        let Some(conversation) = self.places.get_mut(place) else {
            return;
        };
        let at = conversation
            .said
            .iter()
            .position(|s| s.id == Some(trigger))
            .map_or(conversation.said.len(), |i| i + 1);
        conversation.said.insert(
            at,
            Said {
                id: None,
                source: me.clone(),
                text: text.chars().take(MAX_TEXT).collect(),
            },
        );
        // The agent's own answer counts in the run at once: the network need
        // not send it back, and the next agent's answer must see it.
        conversation.agent_run = agent_run(conversation.agent_run, me);
        if conversation.said.len() > MAX_MESSAGES {
            conversation.said.pop_front();
        }
    }

    /// The last `depth` messages of `place` as the model sees them, oldest
    /// first; a thread starts with its root message when it is remembered.
    pub fn history(&self, me: &Address, place: &Place, depth: usize) -> Vec<Entry> {
        let mut said: Vec<&Said> = Vec::new();
        if let Some(conversation) = self.places.get(place) {
            let skip = conversation.said.len().saturating_sub(depth);
            said.extend(conversation.said.iter().skip(skip));
        }
        if let Some(root) = place.thread
            && !said.iter().any(|s| s.id == Some(root))
        {
            let parent = Place {
                target: place.target.clone(),
                thread: None,
                task: None,
            };
            let found = self
                .places
                .get(&parent)
                .and_then(|c| c.said.iter().find(|s| s.id == Some(root)));
            if let Some(found) = found {
                said.insert(0, found);
            }
        }
        said.into_iter()
            .map(|s| {
                if &s.source == me {
                    Entry::Assistant {
                        text: s.text.clone(),
                        tool_calls: Vec::new(),
                    }
                } else {
                    Entry::User {
                        text: format!("{}: {}", s.source, s.text),
                    }
                }
            })
            .collect()
    }
}
