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
//! | [`Reader::CatchUp`] | deliveries to the member; its next page is read when it has room ([`crate::network::delivery::tracker`]) |
//! | [`Reader::Page`] | one [`Effect::Page`] for the connection that asked |
//! | [`Reader::Query`] | a `network.events.response` delivered to the requester |

use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::model::payloads::{EventsPage, LoggedEvent, Payload};
use crate::model::state::{Row, RowKind};
use crate::network::delivery;
use crate::network::delivery::routing;
use crate::network::delivery::tracker::{CATCH_UP_PAGE, PageAnswered};
use crate::network::effects::{Effect, LogFilter, Order, Page, ReadRequest, Reader};
use crate::network::engine::Network;
use std::rc::Rc;

/// Largest page a poll or a query may ask for.
pub const MAX_READ_LIMIT: usize = 200;

impl Network {
    /// Starts sending `member` everything visible to it after `after`, a page
    /// at a time as it acknowledges ([`crate::network::delivery::tracker`]).
    /// A cursor past the end of the log (as a member may claim) reads as the end.
    pub(crate) fn catch_up(&mut self, member: &Address, after: u64) -> Effect {
        let after = after.min(self.last_seq);
        self.restored_online.remove(member);
        self.tracker.start_catch_up(member, after);
        self.catch_up_read(member, after)
    }

    /// The read of `member`'s next catch-up page, when one is due at `now`.
    pub(crate) fn next_catch_up_page(
        &mut self,
        member: &Address,
        now: Timestamp,
    ) -> Option<Effect> {
        let after = self.tracker.next_page(member, now)?;
        Some(self.catch_up_read(member, after))
    }

    /// A catch-up page for `member` after `after`, read under its audiences as they are now.
    fn catch_up_read(&self, member: &Address, after: u64) -> Effect {
        Effect::Read(ReadRequest {
            reader: Reader::CatchUp {
                member: member.clone(),
            },
            filter: LogFilter::Audiences {
                audiences: delivery::member_audiences(&self.state, member),
            },
            after,
            limit: CATCH_UP_PAGE,
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
        now: Timestamp,
    ) -> Result<Vec<Effect>, Rejection> {
        self.joined_member(member)?;
        // A member cannot hold what the log does not have yet.
        let after = after.min(self.last_seq);
        let mut effects = self.heartbeat_if_offline(member, now);
        if let Some(cursor) = self.tracker.holds_up_to(member, after, now) {
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
    pub fn acknowledge_pushed(
        &mut self,
        member: &Address,
        seq: u64,
        now: Timestamp,
    ) -> Vec<Effect> {
        match self.tracker.holds_up_to(member, seq, now) {
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
        now: Timestamp,
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
                        events.push(LoggedEvent { event, seq });
                    }
                }
                let page = EventsPage {
                    events,
                    has_more: more,
                    next_after,
                };
                let response = self.core_event(
                    EventsPage::EVENT_TYPE,
                    requester,
                    Some(*request_id),
                    page.to_json(),
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

    /// Delivers a catch-up page to `member`; its next page waits until it has
    /// room for it, and is never read in this turn.
    fn answer_catch_up(
        &mut self,
        request: &ReadRequest,
        member: &Address,
        rows: impl Iterator<Item = (u64, Event)>,
        exhausted: bool,
        now: Timestamp,
    ) -> Vec<Effect> {
        let mut rows = rows.peekable();
        if !self
            .tracker
            .catching_up
            .get(member)
            .is_some_and(|c| c.reading && c.after == request.after)
        {
            return Vec::new();
        }
        let mut effects = Vec::new();
        let mut last = request.after;
        for (seq, event) in rows.by_ref().take(request.limit) {
            last = last.max(seq);
            if &event.source == member || !routing::logged_visible_to(&self.state, &event, member) {
                continue;
            }
            let prev = self
                .tracker
                .delivered(member, seq, event.encoded_len(), now);
            effects.push(Effect::Deliver {
                to: vec![member.clone()],
                event: Rc::new(event),
                order: Some(Order {
                    seq,
                    prev: vec![prev],
                }),
            });
        }
        // Rows beyond the page's limit are read again with the next page.
        let exhausted = exhausted && rows.peek().is_none();
        match self
            .tracker
            .page_answered(member, request.after, last, exhausted, now)
        {
            PageAnswered::More => {
                effects.extend(self.tracker.catch_up_row(member).map(Effect::Store))
            }
            PageAnswered::Done { stored: true } => effects.push(catch_up_removed(member)),
            PageAnswered::Done { stored: false } | PageAnswered::Stale => {}
        }
        effects
    }

    /// `member` went offline or left: its catch-up stops (and its row goes).
    pub(crate) fn stop_catch_up(&mut self, member: &Address) -> Option<Effect> {
        self.tracker.stop(member).then(|| catch_up_removed(member))
    }

    /// A catch-up page the host could not read (its storage failed): the
    /// member's catch-up is read again later; nobody else is held up.
    pub fn read_failed(&mut self, request: &ReadRequest, now: Timestamp) {
        if let Reader::CatchUp { member } = &request.reader {
            self.tracker.page_failed(member, now);
        }
    }
}

/// The removal of `member`'s stored catch-up.
fn catch_up_removed(member: &Address) -> Effect {
    Effect::Remove {
        kind: RowKind::CatchUp,
        key: member.to_string(),
    }
}
