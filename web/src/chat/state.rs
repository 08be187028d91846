//! The state of one workspace's chat: [`Chat`] owns the chat's signals (the
//! message lines, the open conversation, the known channels and direct
//! conversations, the drafts), is provided through Leptos
//! context and sees the replica's effects in [`Chat::on_effect`]: messages
//! received, and what the network made of the person's own (also told to
//! the other tabs of this workspace, [`crate::chat::tabs`]).

use crate::chat::conversations::{EVERYONE, is_direct};
use crate::chat::list::time::Clock;
use crate::chat::messages::{Line, LineState, is_conversation_event, line_from, restored_lines};
use crate::chat::reads::Reads;
use crate::chat::sessions::model::Sessions;
use crate::chat::tabs::{TabNews, Tabs};
use crate::routes::Place;
use crate::session::Session;
use agentnet_core::ids::event_type::core_types;
use agentnet_core::replica::{Replica, ReplicaEffect};
use agentnet_core::vocabulary::event_types::SESSION_CREATED;
use agentnet_core::vocabulary::sessions::SessionUpdated;
use agentnet_core::{Address, EventId};
use leptos::prelude::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// Most message lines the page holds (the newest): a long-lived tab's memory
/// stays bounded like the stored log ([`crate::storage::LOG_KEPT`]).
pub const MAX_LINES: usize = 1_000;

/// The chat of one workspace: cheap to copy, from context with [`Chat::get`].
#[derive(Clone, Copy)]
pub struct Chat {
    pub(super) session: Session,
    /// Every message line, in the order they came.
    pub(super) lines: RwSignal<Vec<Line>>,
    /// The open conversation (the one the URL named last).
    pub(super) current: RwSignal<String>,
    /// The thread shown (its first message), when the URL names one.
    pub(super) thread: RwSignal<Option<EventId>>,
    /// Known channels (`channel/{name}`).
    pub(super) channels: RwSignal<Vec<String>>,
    /// Channels' display names ("Team Room" for `channel/team-room`).
    pub(super) names: RwSignal<BTreeMap<String, String>>,
    /// Direct conversations (the other person's address).
    directs: RwSignal<Vec<String>>,
    /// The sessions' titles, statuses and masters, by channel.
    pub(super) sessions: RwSignal<Sessions, LocalStorage>,
    /// The person's session updates waiting for the network, by event id.
    session_updates: RwSignal<BTreeMap<EventId, SessionUpdated>, LocalStorage>,
    /// What the person is typing.
    pub(super) draft: RwSignal<String>,
    /// What the person is typing in the thread's composer.
    pub(super) thread_draft: RwSignal<String>,
    tabs: StoredValue<Option<Tabs>, LocalStorage>,
    /// History reads in flight ([`crate::chat::history`]).
    pub(super) reads: StoredValue<Reads>,
    /// Conversations whose history is being read.
    pub(super) loading: RwSignal<BTreeSet<String>>,
    /// Conversations whose recent history the network has answered.
    pub(super) loaded: RwSignal<BTreeSet<String>>,
    /// Per conversation, the log position its history has been read from.
    pub(super) earliest: RwSignal<BTreeMap<String, u64>>,
    /// The time now, for message times.
    pub clock: Clock,
    /// Per conversation, the newest message the person has seen ([`crate::chat::attention::unread`]).
    pub(super) read: RwSignal<BTreeMap<String, u64>>,
    /// The read markers kept in IndexedDB are known (until then nothing is marked read).
    pub(super) read_ready: RwSignal<bool>,
    /// The person just came (back) to the open conversation ([`Chat::arrive`]).
    pub(super) arriving: RwSignal<bool>,
    /// The read marker shown: a conversation and where the person had left off.
    pub(super) left_off: RwSignal<Option<(String, u64)>>,
    /// Edits and deletions known, by message ([`crate::chat::changes::edits`]).
    pub(super) changes: StoredValue<crate::chat::changes::known::Changes>,
    /// The network's masters, as the roster says (who may delete others' messages).
    pub(super) masters: StoredValue<BTreeSet<String>>,
    /// Reactions known, by message ([`crate::chat::changes::reaction_counts`]).
    pub(super) reactions: RwSignal<crate::chat::changes::reaction_counts::Reactions>,
    /// The person's edits, deletions and reactions waiting for the network, by event id.
    pending_changes: StoredValue<BTreeMap<EventId, agentnet_core::Event>, LocalStorage>,
    /// The message the URL points at ([`crate::chat::list::jump`]).
    pub(super) target: RwSignal<Option<EventId>>,
    /// How many times the person asked again for the message the URL already
    /// points at (the same search result opened twice): each time it is
    /// scrolled to and highlighted again.
    pub(super) jumps_again: RwSignal<u64>,
    /// The message jumped to, highlighted for a moment.
    pub(super) highlighted: RwSignal<Option<EventId>>,
    /// The message being looked for in the history, while it is.
    pub(super) seek: RwSignal<Option<crate::chat::reads::Seek>>,
    /// Where a search found a message in the network's log, by id.
    pub(super) jump_hints: StoredValue<BTreeMap<EventId, u64>>,
    /// What agents are doing about messages ([`crate::chat::agents::working`]).
    pub(super) activities: RwSignal<crate::chat::agents::activity::Activities>,
    pub(super) approvals: RwSignal<crate::chat::agents::approval_cards::Cards>,
    /// The thread composer's choices ([`crate::chat::threads`]).
    pub(super) threads: crate::chat::threads::ThreadUi,
    /// The message whose edit box Up-arrow asked for ([`crate::chat::composer::recall`]).
    pub(super) edit_request: RwSignal<Option<EventId>>,
}

impl Chat {
    /// The chat of `session`'s network, provided to the components below.
    pub fn provide(session: Session) -> Self {
        let chat = Self {
            session,
            lines: RwSignal::new(Vec::new()),
            current: RwSignal::new(EVERYONE.to_owned()),
            thread: RwSignal::new(None),
            channels: RwSignal::new(Vec::new()),
            names: RwSignal::new(Self::recall_names(&session.network_name())),
            directs: RwSignal::new(Vec::new()),
            sessions: RwSignal::new_local(Sessions::default()),
            session_updates: RwSignal::new_local(BTreeMap::new()),
            draft: RwSignal::new(String::new()),
            thread_draft: RwSignal::new(String::new()),
            tabs: StoredValue::new_local(None),
            reads: StoredValue::new(Reads::default()),
            loading: RwSignal::new(BTreeSet::new()),
            loaded: RwSignal::new(BTreeSet::new()),
            earliest: RwSignal::new(BTreeMap::new()),
            clock: Clock::start(),
            read: RwSignal::new(BTreeMap::new()),
            read_ready: RwSignal::new(false),
            arriving: RwSignal::new(true),
            left_off: RwSignal::new(None),
            changes: StoredValue::new(BTreeMap::new()),
            masters: StoredValue::new(BTreeSet::new()),
            reactions: RwSignal::new(BTreeMap::new()),
            pending_changes: StoredValue::new_local(BTreeMap::new()),
            target: RwSignal::new(None),
            jumps_again: RwSignal::new(0),
            highlighted: RwSignal::new(None),
            seek: RwSignal::new(None),
            jump_hints: StoredValue::new(BTreeMap::new()),
            activities: RwSignal::new(Default::default()),
            approvals: RwSignal::new(Default::default()),
            threads: crate::chat::threads::ThreadUi::new(),
            edit_request: RwSignal::new(None),
        };
        chat.recall_read(session.network_name());
        let tabs = Tabs::open(&session.network_name(), move |news| chat.apply_news(news));
        chat.tabs.set_value(Some(tabs));
        provide_context(chat);
        chat.title_follows_unread();
        Effect::new(move |_| chat.seek_step());
        chat
    }

    /// The chat of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// Shows what a restored replica already holds: its log's messages and its outbox.
    pub fn restore(&self, replica: &Replica) {
        for event in replica.log().values() {
            self.take_change(event);
        }
        let lines: Vec<Line> = restored_lines(replica, &self.session.me.get_value())
            .into_iter()
            .map(|line| self.patched(line))
            .collect();
        // Direct conversations come back with their messages.
        for line in &lines {
            if is_direct(&line.conversation) {
                self.add_direct(line.conversation.clone());
            }
        }
        self.lines.set(lines);
        self.sessions.update(|s| {
            for event in replica.log().values() {
                s.apply(event);
            }
        });
    }

    /// A session update the person sent: shown once the network accepts it.
    pub(super) fn expect_session_update(
        &self,
        id: EventId,
        channel: String,
        update: SessionUpdated,
    ) {
        let update = SessionUpdated {
            channel: Some(channel),
            ..update
        };
        self.session_updates.update(|u| {
            u.insert(id, update);
        });
    }

    /// The person's messages still waiting for the network.
    pub fn queued(&self) -> usize {
        self.lines
            .with(|l| l.iter().filter(|l| l.state == LineState::Pending).count())
    }

    /// Everyone, the channels, then direct conversations (the open one
    /// too, when a link opened it before the network listed it).
    pub fn conversations(&self) -> Vec<String> {
        let me = self.session.me_text();
        let mut list = vec![EVERYONE.to_owned()];
        list.extend(self.channels.get());
        list.extend(self.directs.get().into_iter().filter(|d| *d != me));
        let open = self.current.get();
        if !list.contains(&open) {
            list.push(open);
        }
        list
    }

    /// The conversation of the thread shown (of its first message, once
    /// known), else the one open last.
    pub fn thread_conversation(&self) -> String {
        let root = self.thread.get();
        root.and_then(|root| {
            self.lines.with(|l| {
                l.iter()
                    .find(|x| x.id == root)
                    .map(|x| x.conversation.clone())
            })
        })
        .unwrap_or_else(|| self.current.get())
    }

    /// [`Self::thread_conversation`], read without tracking.
    pub(super) fn thread_conversation_untracked(&self) -> String {
        untrack(|| self.thread_conversation())
    }

    /// The conversation open last.
    pub fn open_conversation(&self) -> String {
        self.current.get()
    }

    /// The channels the network listed (a roster answer).
    pub fn set_channels(&self, channels: Vec<String>) {
        self.channels.set(channels);
    }

    /// What the replica reports that concerns the chat.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        self.on_history(effect);
        match effect {
            ReplicaEffect::Received(event) if self.take_change(event) => {}
            ReplicaEffect::Received(e) if self.take_activity(e) || self.take_approval(e) => {}
            ReplicaEffect::Received(event) if is_conversation_event(event) => {
                let line = line_from(event, LineState::Received, &self.session.me_text());
                if is_direct(&line.conversation) {
                    self.add_direct(line.conversation.clone());
                }
                self.notify(&line);
                self.take_answer(&line);
                self.add_line(line);
            }
            // A channel opened by a link before the connection was: join it now.
            ReplicaEffect::Online => {
                let open = self.current.get_untracked();
                if let Some(name) = open.strip_prefix("channel/") {
                    self.join_channel(name);
                }
                self.load_history(&open);
            }
            ReplicaEffect::Received(event) => {
                self.sessions.update(|s| s.apply(event));
                // A new session is a channel to list (it joins when opened).
                if event.event_type.as_str() == SESSION_CREATED
                    && let Some(channel) = event.payload.get("channel").and_then(Value::as_str)
                {
                    self.channels.update(|c| {
                        if !c.iter().any(|known| known == channel) {
                            c.push(channel.to_owned());
                        }
                    });
                }
            }
            ReplicaEffect::Accepted { id, .. } => {
                if let Some(update) = self.session_updates.try_update(|u| u.remove(id)).flatten()
                    && let Ok(me) = self.session.me_text().parse::<Address>()
                {
                    self.sessions.update(|s| s.fold(&me, &update));
                }
                self.tell(TabNews::Accepted { id: *id });
            }
            ReplicaEffect::Rejected { id, rejection } => {
                if self
                    .session_updates
                    .try_update(|u| u.remove(id))
                    .flatten()
                    .is_some()
                {
                    self.session.report(format!(
                        "The session was not updated: {}",
                        rejection.message
                    ));
                }
                self.tell(TabNews::Rejected {
                    id: *id,
                    reason: rejection.message.clone(),
                });
            }
            _ => {}
        }
    }

    /// Tells the other tabs, and shows it here.
    pub(super) fn tell(&self, news: TabNews) {
        self.tabs.with_value(|t| {
            if let Some(t) = t {
                t.tell(&news);
            }
        });
        self.apply_news(news);
    }

    /// What a tab of this workspace posted, and what became of it.
    fn apply_news(&self, news: TabNews) {
        match news {
            TabNews::Posted { event }
                if crate::chat::changes::known::change_of(&event).is_some()
                    || crate::chat::changes::reaction_counts::reaction_of(&event).is_some() =>
            {
                let _ = self
                    .pending_changes
                    .try_update_value(|p| p.insert(event.id, *event));
            }
            TabNews::Posted { event } => self.add_line(line_from(
                &event,
                LineState::Pending,
                &self.session.me_text(),
            )),
            TabNews::Accepted { id } => {
                match self
                    .pending_changes
                    .try_update_value(|p| p.remove(&id))
                    .flatten()
                {
                    Some(change) => {
                        self.note_change_refused(&change, None);
                        self.take_change(&change);
                    }
                    None => self.set_state(id, LineState::Sent),
                }
            }
            TabNews::Rejected { id, reason } => {
                match self
                    .pending_changes
                    .try_update_value(|p| p.remove(&id))
                    .flatten()
                {
                    // Why, in the network's words, beside the message it was about.
                    Some(change) => self.note_change_refused(&change, Some(reason)),
                    None => self.set_state(id, LineState::Rejected(reason)),
                }
            }
        }
    }

    fn add_line(&self, line: Line) {
        let line = self.patched(line);
        self.lines.update(|l| {
            if !l.iter().any(|known| known.id == line.id) {
                l.push(line);
            }
            if l.len() > MAX_LINES {
                let extra = l.len() - MAX_LINES;
                l.drain(..extra);
            }
        });
    }

    fn set_state(&self, id: EventId, state: LineState) {
        self.lines.update(|l| {
            if let Some(line) = l.iter_mut().find(|line| line.id == id) {
                line.state = state;
            }
        });
    }

    fn add_direct(&self, person: String) {
        self.directs.update(|d| {
            if !d.contains(&person) {
                d.push(person);
            }
        });
    }

    pub(super) fn join_channel(&self, name: &str) {
        self.session.post(
            core_types::CHANNEL_JOIN,
            Address::core(),
            json!({ "channel": name }),
        );
    }

    /// Follows the place in the URL: a conversation opens (a channel is
    /// joined, a person becomes a direct conversation); a thread shows.
    pub fn follow(&self, place: &Place) {
        self.thread.set(match place {
            Place::Thread(id) => Some(*id),
            _ => None,
        });
        let Some(conversation) = place.conversation() else {
            // A thread opened by a link: its conversation's history holds it.
            if matches!(place, Place::Thread(_)) {
                self.load_history(&self.current.get_untracked());
            }
            return;
        };
        if conversation == self.current.get_untracked() {
            self.load_history(conversation);
            return;
        }
        if let Some(name) = conversation.strip_prefix("channel/") {
            self.join_channel(name);
        } else if conversation != EVERYONE {
            self.add_direct(conversation.to_owned());
        }
        self.current.set(conversation.to_owned());
        self.load_history(conversation);
    }

    /// Shows a message the person posted from elsewhere on the page (an IOA
    /// card's answer) as its own, and tells the other tabs.
    pub fn show_posted(&self, event: agentnet_core::Event) {
        self.tell(TabNews::Posted {
            event: Box::new(event),
        });
    }

    /// The option picked in the first answer to IOA checkpoint `id`, if any.
    pub fn answer_to(&self, id: EventId) -> Option<String> {
        self.lines.with(|lines| {
            lines.iter().find_map(|l| match &l.ioa {
                Some(ioa) if ioa.parents.contains(&id) => match &ioa.kind {
                    crate::ioa::IoaKind::Answer { option, .. } => Some(option.clone()),
                    _ => None,
                },
                _ => None,
            })
        })
    }
}
