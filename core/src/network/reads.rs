//! Reads of the log: one request, one answer.
//!
//! The network never holds its log; when it needs rows — a member catching
//! up, a page for an HTTP poll or an SSE stream, a `network.events.query` —
//! it returns [`Effect::Read`] with a [`ReadRequest`]. The host reads the
//! rows the request's [`LogFilter`] names after `after` (at most `limit`, in
//! `seq` order) and hands them to [`Network::answer_read`], which decides
//! what the reader may see and answers as the [`Reader`] needs:
//!
//! | reader | answer |
//! |---|---|
//! | [`Reader::CatchUp`] | deliveries to the member, then the next read until the log is exhausted |
//! | [`Reader::Page`] | one [`Effect::Page`] for the connection that asked |
//! | [`Reader::Query`] | a `network.events.response` delivered to the requester |

use super::Network;
use super::delivery;
use super::routing;
use super::{Effect, Order, Row};
use crate::address::Address;
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::event_type::{EventPattern, core_types};
use crate::ulid::EventId;
use serde_json::json;
use std::rc::Rc;

/// Log rows per catch-up page; hosts also bound a page by bytes (the edge: 4 MB).
pub const BACKLOG_PAGE: usize = 500;
/// Largest page a poll or a query may ask for.
pub const MAX_READ_LIMIT: usize = 200;

/// Who a read is for, and so how its rows are answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reader {
    /// A member catching up on what it missed (join, resume, redelivery).
    CatchUp {
        /// Who catches up.
        member: Address,
    },
    /// A page a pull transport (HTTP poll, an SSE stream's opening) returns to its caller.
    Page {
        /// Who reads.
        member: Address,
    },
    /// A `network.events.query` of the history.
    Query {
        /// The query event's id (the answer's `in_reply_to`).
        request_id: EventId,
        /// Who asked.
        requester: Address,
    },
}

/// Which log rows the host returns for a read (the core re-checks visibility).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogFilter {
    /// Rows indexed under any of these audiences (`public`, `member:{address}`, …).
    Audiences {
        /// The audiences.
        audiences: Vec<String>,
    },
    /// Rows kept as history (`retain`), optionally narrowed by type, source and target.
    History {
        /// Only this type (exact) or below this prefix.
        types: Option<EventPattern>,
        /// Only events from this source.
        source: Option<Address>,
        /// Only events to this target.
        target: Option<Address>,
    },
}

impl LogFilter {
    /// True when a stored row passes this filter (hosts that hold rows in memory use it).
    pub fn admits(&self, event: &Event, audiences: &[String], retained: bool) -> bool {
        match self {
            LogFilter::Audiences { audiences: wanted } => {
                audiences.iter().any(|a| wanted.contains(a))
            }
            LogFilter::History {
                types,
                source,
                target,
            } => {
                retained
                    && types.as_ref().is_none_or(|p| p.matches(&event.event_type))
                    && source.as_ref().is_none_or(|s| s == &event.source)
                    && target.as_ref().is_none_or(|t| t == &event.target)
            }
        }
    }
}

/// A read of the log the host answers with [`Network::answer_read`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRequest {
    /// Who the rows are for.
    pub reader: Reader,
    /// Which rows.
    pub filter: LogFilter,
    /// Rows with `seq` greater than this…
    pub after: u64,
    /// …at most this many, in `seq` order (a host may return fewer, e.g. to
    /// bound bytes). For [`LogFilter::History`] it bounds the events answered,
    /// after visibility: the host returns candidate rows up to its own scan bound.
    pub limit: usize,
}

/// A page of the log for the connection that asked ([`Reader::Page`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// Who reads.
    pub member: Address,
    /// The visible events `(seq, event)`, in order.
    pub events: Vec<(u64, Rc<Event>)>,
    /// The cursor to read on from: the last row read, visible or not.
    pub next_after: u64,
    /// True when the log may hold more rows after `next_after`.
    pub has_more: bool,
}

impl Page {
    /// The page as the HTTP binding answers it: `{events: [{seq, event}], next_after}`.
    pub fn to_json(&self) -> serde_json::Value {
        let events: Vec<serde_json::Value> = self
            .events
            .iter()
            .map(|(seq, event)| json!({"seq": seq, "event": &**event}))
            .collect();
        json!({"events": events, "next_after": self.next_after, "has_more": self.has_more})
    }
}

impl Network {
    /// Starts sending `member` everything visible to it after `after`, page by page.
    pub(crate) fn catch_up(&mut self, member: &Address, after: u64) -> Effect {
        self.tracker.start_catch_up(member, after);
        Effect::Read(ReadRequest {
            reader: Reader::CatchUp {
                member: member.clone(),
            },
            filter: LogFilter::Audiences {
                audiences: delivery::member_audiences(&self.state, member),
            },
            after,
            limit: BACKLOG_PAGE,
        })
    }

    /// A pull by `member` of what comes after `after` (which it thereby
    /// acknowledges): the cursor row to store if it moved, then the read whose
    /// answer is an [`Effect::Page`].
    pub fn read_page(
        &mut self,
        member: &Address,
        after: u64,
        limit: usize,
        now: u64,
    ) -> Result<Vec<Effect>, Rejection> {
        if !self.state.members.contains_key(member) {
            return Err(Rejection::new(
                ErrorCode::NotJoined,
                format!("{member} is not a member"),
            ));
        }
        let mut effects = self.heartbeat_if_offline(member, now);
        if let Some(cursor) = self.tracker.holds_up_to(member, after) {
            effects.push(Effect::Store(Row::Cursor {
                address: member.clone(),
                seq: cursor,
            }));
        }
        effects.push(Effect::Read(ReadRequest {
            reader: Reader::Page {
                member: member.clone(),
            },
            filter: LogFilter::Audiences {
                audiences: delivery::member_audiences(&self.state, member),
            },
            after,
            limit: limit.clamp(1, MAX_READ_LIMIT),
        }));
        Ok(effects)
    }

    /// A push transport that cannot acknowledge per event (SSE) has delivered
    /// `seq` to `member`: treat it as delivered and acknowledged.
    pub fn acknowledge_pushed(&mut self, member: &Address, seq: u64, now: u64) -> Vec<Effect> {
        match self.tracker.holds_up_to(member, seq) {
            Some(cursor) if self.tracker.should_persist(member, cursor, now) => {
                vec![Effect::Store(Row::Cursor {
                    address: member.clone(),
                    seq: cursor,
                })]
            }
            _ => Vec::new(),
        }
    }

    /// Answers a [`ReadRequest`] with the log rows `(seq, event)` the host
    /// found for it, in order; `exhausted` says the log has no more such rows.
    pub fn answer_read(
        &mut self,
        request: &ReadRequest,
        rows: Vec<(u64, Event)>,
        exhausted: bool,
        now: u64,
    ) -> Vec<Effect> {
        let rows = rows.into_iter().filter(|(seq, _)| *seq > request.after);
        match &request.reader {
            Reader::CatchUp { member } => {
                self.answer_catch_up(request, member, rows, exhausted, now)
            }
            Reader::Page { member } => {
                let mut next_after = request.after;
                let mut events = Vec::new();
                for (seq, event) in rows.take(request.limit) {
                    next_after = seq;
                    if &event.source != member
                        && routing::logged_visible_to(&self.state, &event, member)
                    {
                        events.push((seq, Rc::new(event)));
                    }
                }
                vec![Effect::Page(Page {
                    member: member.clone(),
                    events,
                    next_after,
                    has_more: !exhausted,
                })]
            }
            Reader::Query {
                request_id,
                requester,
            } => {
                let mut events = Vec::new();
                let mut next_after = request.after;
                let mut more = !exhausted;
                for (seq, event) in rows {
                    if events.len() == request.limit {
                        more = true;
                        break;
                    }
                    next_after = seq;
                    if request.filter.admits(&event, &[], true)
                        && routing::logged_visible_to(&self.state, &event, requester)
                    {
                        events.push(json!({"seq": seq, "event": event}));
                    }
                }
                let payload = json!({"events": events, "next_after": next_after, "has_more": more});
                let response = self.core_event(
                    core_types::EVENTS_RESPONSE,
                    requester,
                    Some(*request_id),
                    payload,
                    now,
                );
                vec![Effect::Deliver {
                    to: vec![requester.clone()],
                    event: Rc::new(response),
                    order: None,
                }]
            }
        }
    }

    /// Delivers a catch-up page to `member` and asks for the next one until the log is exhausted.
    fn answer_catch_up(
        &mut self,
        request: &ReadRequest,
        member: &Address,
        rows: impl Iterator<Item = (u64, Event)>,
        exhausted: bool,
        now: u64,
    ) -> Vec<Effect> {
        if !self.tracker.catching_up.contains(member) {
            return Vec::new();
        }
        let mut effects = Vec::new();
        let mut last = request.after;
        for (seq, event) in rows {
            last = last.max(seq);
            if &event.source == member || !routing::logged_visible_to(&self.state, &event, member) {
                continue;
            }
            let prev = self.tracker.delivered(member, seq, now);
            effects.push(Effect::Deliver {
                to: vec![member.clone()],
                event: Rc::new(event),
                order: Some(Order {
                    seq,
                    prev: vec![prev],
                }),
            });
        }
        if exhausted {
            self.tracker.catching_up.remove(member);
        } else {
            effects.push(Effect::Read(ReadRequest {
                after: last,
                ..request.clone()
            }));
        }
        effects
    }
}
