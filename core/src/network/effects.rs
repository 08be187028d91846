//! What the host must do after an input: the [`Effect`]s the network returns,
//! and the log reads among them ([`ReadRequest`]) with their answers ([`Page`]).

use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::EventPattern;
use crate::ids::ulid::EventId;
use crate::model::payloads::{EventsPage, LoggedEvent, Payload};
use crate::model::search::SearchText;
use crate::model::state::{Row, RowKind};
use crate::network::delivery;
use crate::network::delivery::ack::Ack;
use std::borrow::Cow;
use std::rc::Rc;

/// What the host must do after an input.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send the event on the connection whose input produced it.
    Reply(Event),
    /// Send this `network.event.ack` on the connection whose input produced
    /// it ([`Ack::encode`] gives its text, [`Ack::to_event`] the event).
    Ack(Ack),
    /// Send the event to every connection of each member in `to`.
    /// Use [`Effect::frames`] to get each recipient's frame.
    Deliver {
        /// Recipient members.
        to: Vec<Address>,
        /// The event, shared with the log entry rather than copied.
        event: Rc<Event>,
        /// For logged events: the `seq` and each recipient's `prev`.
        order: Option<Order>,
    },
    /// The current connection is now authenticated as this address.
    Bind(Address),
    /// The current connection is no longer a member's (it left).
    Unbind,
    /// The member is no longer one (it left, was removed or banned, or
    /// retention forgot it): end every credential it holds, each kind of
    /// [`crate::host::credentials::Credentials`], through
    /// [`crate::host::credentials::end_all`]. Comes after [`Effect::Unbind`],
    /// so the connection a leave came on is not among the sockets closed.
    EndCredentials(Address),
    /// Append the accepted event to the log at `seq`.
    Append {
        /// Sequence number, strictly increasing within the network.
        seq: u64,
        /// The accepted event as delivered.
        event: Rc<Event>,
        /// Keep it as history (`mod/persistence`), not only until delivered.
        retain: bool,
        /// Index it under these audiences for catch-up reads.
        audiences: Vec<String>,
        /// Its rows in the message graph's index, `(key, seq)`
        /// ([`crate::model::graph::Placement::links`]); empty outside a channel.
        links: Vec<(String, u64)>,
    },
    /// Delete the log rows retention no longer keeps (`Network::prune`):
    /// rows without history (`retain` false) up to `transient_through`,
    /// history up to `history_through`, and their audience index rows.
    PruneLog {
        /// Rows kept only for delivery, up to this `seq`, are gone.
        transient_through: u64,
        /// History rows up to this `seq` are gone.
        history_through: u64,
    },
    /// Read log rows and answer with [`Network::answer_read`] (catch-up, a page, a query).
    Read(ReadRequest),
    /// A page of the log for the connection whose input asked for it ([`Network::read_page`]).
    Page(Page),
    /// Insert or replace a state row.
    Store(Row),
    /// The configuration changed (a master's `network.admin.*` event): store
    /// it in place of the stored one, so a restored network has it.
    StoreConfig(Box<crate::model::config::NetworkConfig>),
    /// Ask the deployment's registry for the agents `query` finds, and answer
    /// with [`Network::answer_discovery`] (now, or later for a host whose
    /// registry is across an await).
    Discover(DiscoveryAsk),
    /// Ask the keeper of the shared documents, kept elsewhere
    /// ([`Network::keep_documents_elsewhere`]), and hand its answer to
    /// [`Network::answer_document`] (now, or later across an await).
    Document(crate::network::documents::ask::DocumentAsk),
    /// Delete a state row.
    Remove {
        /// Row kind.
        kind: RowKind,
        /// Row key.
        key: String,
    },
}

/// A member's `network.discovery.query`, waiting for the registry's part of the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoveryAsk {
    /// The query event's id (the answer's `in_reply_to`).
    pub request_id: EventId,
    /// Who asked.
    pub requester: Address,
    /// What it asked for.
    pub query: crate::discovery::search::Query,
}

impl DiscoveryAsk {
    /// The registry route (path and query string) that answers the registry's part.
    pub fn registry_path(&self) -> String {
        crate::discovery::network_query::registry_path(&self.query)
    }
}

/// Where a logged event sits in each recipient's delivery chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The event's network-wide sequence number.
    pub seq: u64,
    /// For each recipient (parallel to `to`): the `seq` delivered to it before this one.
    pub prev: Vec<u64>,
}

impl Effect {
    /// The event a `Reply` or an `Ack` sends on the connection whose input
    /// produced it (the ack built as an event); `None` for other effects.
    pub fn reply(&self) -> Option<Cow<'_, Event>> {
        match self {
            Effect::Reply(event) => Some(Cow::Borrowed(event)),
            Effect::Ack(ack) => Some(Cow::Owned(ack.to_event())),
            _ => None,
        }
    }

    /// The JSON text of [`Effect::reply`]'s event.
    pub fn reply_text(&self) -> Option<String> {
        match self {
            Effect::Reply(event) => Some(event.encode()),
            Effect::Ack(ack) => Some(ack.encode()),
            _ => None,
        }
    }

    /// The frames of a `Deliver`: `(recipient, JSON text)`, with
    /// `metadata.delivery` set per recipient for logged events. Empty for other effects.
    pub fn frames(&self) -> Vec<(&Address, String)> {
        match self {
            Effect::Deliver {
                to,
                event,
                order: None,
            } => {
                let frame = event.encode();
                to.iter().map(|a| (a, frame.clone())).collect()
            }
            Effect::Deliver {
                to,
                event,
                order: Some(order),
            } => {
                if to.len() >= delivery::FRAME_TEMPLATE_FROM
                    && let Some(template) = delivery::FrameTemplate::new(event, order.seq)
                {
                    // A fan-out: encoded twice, then only the `prev` digits differ.
                    return to
                        .iter()
                        .zip(&order.prev)
                        .map(|(a, prev)| (a, template.with_prev(*prev)))
                        .collect();
                }
                to.iter()
                    .zip(&order.prev)
                    .map(|(a, prev)| (a, event.encode_delivered(order.seq, *prev)))
                    .collect()
            }
            _ => Vec::new(),
        }
    }
}

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
    /// Rows kept as history (`retain`), optionally narrowed by type, source,
    /// target and the words of their text ([`SearchText`]).
    History {
        /// Only this type (exact) or below this prefix.
        types: Option<EventPattern>,
        /// Only events from this source.
        source: Option<Address>,
        /// Only events to this target.
        target: Option<Address>,
        /// Only messages whose text has every word of this.
        text: Option<SearchText>,
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
                text,
            } => {
                retained
                    && types.as_ref().is_none_or(|p| p.matches(&event.event_type))
                    && source.as_ref().is_none_or(|s| s == &event.source)
                    && target.as_ref().is_none_or(|t| t == &event.target)
                    && text.as_ref().is_none_or(|t| t.matches(event))
            }
        }
    }
}

/// What a host read for a [`ReadRequest`]: the rows `(seq, event)` in order,
/// and whether the log has no more such rows after them.
pub type ReadRows = (Vec<(u64, Event)>, bool);

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
        self.to_payload().to_json()
    }

    /// The page as a typed [`EventsPage`] (copies the events).
    pub fn to_payload(&self) -> EventsPage {
        EventsPage {
            events: self
                .events
                .iter()
                .map(|(seq, event)| LoggedEvent {
                    event: (**event).clone(),
                    seq: *seq,
                })
                .collect(),
            has_more: self.has_more,
            next_after: self.next_after,
        }
    }
}
