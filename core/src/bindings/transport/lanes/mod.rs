//! Shared sockets: several members on one WebSocket, each in a lane of its own.
//!
//! A WebSocket costs the runtime far more than a member does (workerd keeps
//! about 93 KiB per socket, the network about 2 KiB per member), so the agents
//! of one process can share one: the upgrade asks for lanes with `?lanes=1`
//! ([`wants_lanes`]), and then every text frame, both ways, names its lane:
//!
//! * `<lane>:<frame>` carries one frame of that lane (an event, a batch of
//!   events, a reply), exactly as a socket of its own would carry it;
//! * `<lane>!<code> <reason>` closes that lane alone, with a WebSocket close
//!   code and reason ([`Close`]), from either side.
//!
//! A lane is a socket in everything else: it joins, is bound to one member,
//! has the join deadline, the caps and the bad-frame count of a socket
//! ([`super::sockets::Sockets`]). Lane 0 opens with the socket (and is bound
//! at the upgrade when the upgrade joins); the client opens another by sending
//! its first frame, and never reuses a lane's number on the same socket. At
//! most [`MAX_LANES`] are open at once. When the last lane closes, the
//! network closes the socket. Its first frame, on no lane, says whom it may
//! carry: [`PLACED_ANYWHERE`], or [`placed_on`] a gateway. docs/wire.md ("Shared sockets") is the reference.

use super::sockets::{Close, SocketId, SocketRecord};
use crate::bindings::message::Request;
use crate::{Address, ErrorCode, Timestamp};

/// A lane's number on its socket.
pub type Lane = u16;

/// How many lanes one socket carries at once.
pub const MAX_LANES: usize = 16;

/// The lane that opens with the socket.
pub const FIRST_LANE: Lane = 0;

/// True when the upgrade asks for a shared socket (`?lanes=1`).
pub fn wants_lanes(req: &Request) -> bool {
    req.query("lanes").as_deref() == Some("1")
}

/// One frame of a shared socket, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaneFrame<'a> {
    /// A frame of `lane`.
    Frame {
        /// Its lane.
        lane: Lane,
        /// The frame, as a socket of its own would carry it.
        text: &'a str,
    },
    /// The sender closes `lane`.
    Close {
        /// Its lane.
        lane: Lane,
        /// The WebSocket close code.
        code: u16,
        /// Why (may be empty).
        reason: &'a str,
    },
}

/// A frame of a shared socket that does not start with its lane.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "malformed_event: each frame of a shared socket (?lanes=1) is `<lane>:<frame>` or `<lane>!<code> <reason>`, with a lane from 0 to 65535"
)]
pub struct NotALaneFrame;

impl NotALaneFrame {
    /// Its stable error code.
    pub const CODE: ErrorCode = ErrorCode::MalformedEvent;

    /// The close of a socket that sent one.
    pub fn close(&self) -> Close {
        Close::new(
            Self::CODE,
            "a frame on a shared socket must start with its lane",
        )
    }
}

/// Reads one frame of a shared socket.
pub fn parse(text: &str) -> Result<LaneFrame<'_>, NotALaneFrame> {
    let split = text
        .find([':', '!'])
        .filter(|&at| (1..=5).contains(&at))
        .ok_or(NotALaneFrame)?;
    let lane = number(&text[..split]).ok_or(NotALaneFrame)?;
    let lane = Lane::try_from(lane).map_err(|_| NotALaneFrame)?;
    let rest = &text[split + 1..];
    if text.as_bytes()[split] == b':' {
        return Ok(LaneFrame::Frame { lane, text: rest });
    }
    let (code, reason) = rest.split_once(' ').unwrap_or((rest, ""));
    let code = number(code)
        .and_then(|c| u16::try_from(c).ok())
        .filter(|c| (1000..=4999).contains(c))
        .ok_or(NotALaneFrame)?;
    Ok(LaneFrame::Close { lane, code, reason })
}

/// Decimal digits only (no sign, no space), at most five of them.
fn number(digits: &str) -> Option<u32> {
    let plain =
        !digits.is_empty() && digits.len() <= 5 && digits.bytes().all(|b| b.is_ascii_digit());
    plain.then(|| digits.parse().ok()).flatten()
}

/// What separates the lanes' frames of one message from the network: a
/// message may carry several, one per line (a frame itself has no line break:
/// events and batches are compact JSON).
pub const LINE_BREAK: &str = "\n";

/// What goes before each frame of `lane`: `"<lane>:"`.
pub fn prefix(lane: Lane) -> String {
    format!("{lane}:")
}

/// `frame` on `lane`.
pub fn frame(lane: Lane, frame: &str) -> String {
    format!("{lane}:{frame}")
}

/// The frame that closes `lane` with `close`.
pub fn close_frame(lane: Lane, close: &Close) -> String {
    format!("{lane}!{} {}", close.code, close.reason)
}

/// The first frame of a shared socket the network object holds: any member
/// may join on it.
pub const PLACED_ANYWHERE: &str = "placed any";

/// The first frame of a shared socket that gateway `gateway` of `gateways`
/// holds: only members placed on it may join on it (docs/wire.md).
pub fn placed_on(gateway: u32, gateways: u32) -> String {
    format!("placed {gateway}/{gateways}")
}

/// The close of a lane the socket has no room for.
pub fn full() -> Close {
    Close::new(
        ErrorCode::RateLimited,
        "this connection carries as many members as it can; open another",
    )
}

/// The close of a shared socket whose last lane closed.
pub fn emptied() -> Close {
    Close {
        code: 1000,
        reason: "no lanes left".into(),
    }
}

/// The most bytes of [`kept_lanes`]' text a host keeps with a shared socket.
///
/// workerd keeps at most 2,048 bytes of a WebSocket's attachment, and the
/// rest of it (the network's id, the client's IP, the format) takes up to
/// about 300: a member whose lane would pass this is refused with [`full`],
/// as a 17th lane is, rather than bound and then forgotten at the next wake.
/// Sixteen lanes fit with addresses of 40 bytes; longer ones take fewer.
pub const MAX_KEPT_BYTES: usize = 1_600;

/// Whether [`kept_lanes`]' `text` fits what a host keeps ([`MAX_KEPT_BYTES`]).
pub fn fits_kept(text: &str) -> bool {
    text.len() <= MAX_KEPT_BYTES
}

/// One open lane of a shared socket as a host keeps it across hibernation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptLane {
    /// Its lane.
    pub lane: Lane,
    /// Its connection's (socket's) id.
    pub id: SocketId,
    /// When it opened or was last unbound.
    pub since: Timestamp,
    /// The member it is bound to.
    pub member: Option<Address>,
    /// On a gateway: the network object's instance that bound the member.
    pub epoch: Option<u64>,
}

/// What a host keeps of a shared socket across hibernation, as one short
/// text: its highest lane so far, then each open lane as
/// `<lane> <id> <since ms>[ <epoch>][ <member>]` (an epoch is digits, a
/// member address never is, and has no spaces), separated by `;`.
pub fn kept_lanes<'a>(top: Lane, lanes: impl Iterator<Item = &'a KeptLane>) -> String {
    let mut text = top.to_string();
    for lane in lanes {
        text.push_str(&format!(";{} {} {}", lane.lane, lane.id, lane.since));
        if let Some(epoch) = lane.epoch {
            text.push_str(&format!(" {epoch}"));
        }
        if let Some(member) = &lane.member {
            text.push_str(&format!(" {member}"));
        }
    }
    text
}

/// A shared socket [`kept_lanes`] across hibernation: its highest lane and
/// its open lanes (`None` when the text is not one; a lane that does not
/// read is left out, one whose member does not comes back unjoined).
pub fn restored_lanes(text: &str) -> Option<(Lane, Vec<KeptLane>)> {
    let mut parts = text.split(';');
    let top = parts.next()?.parse().ok()?;
    Some((top, parts.filter_map(one_restored).collect()))
}

fn one_restored(text: &str) -> Option<KeptLane> {
    let mut parts = text.splitn(4, ' ');
    let lane = parts.next()?.parse().ok()?;
    let id = parts.next()?.parse().ok()?;
    let since = Timestamp::from(parts.next()?.parse::<u64>().ok()?);
    let rest = parts.next().unwrap_or_default();
    let (epoch, member) = match rest.split_once(' ') {
        Some((epoch, member)) if epoch.bytes().all(|b| b.is_ascii_digit()) => {
            (epoch.parse().ok(), member)
        }
        _ if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
            (rest.parse().ok(), "")
        }
        _ => (None, rest),
    };
    Some(KeptLane {
        lane,
        id,
        since,
        member: member.parse().ok(),
        epoch,
    })
}

/// [`kept_lanes`] of the network object's lanes (connections of its table).
pub fn kept<'a>(top: Lane, lanes: impl Iterator<Item = (Lane, &'a SocketRecord)>) -> String {
    let lanes: Vec<KeptLane> = lanes
        .map(|(lane, record)| KeptLane {
            lane,
            id: record.id,
            since: record.since,
            member: record.member.clone(),
            epoch: None,
        })
        .collect();
    kept_lanes(top, lanes.iter())
}

/// A shared socket [`kept`] across hibernation, as its table's records with
/// its client IP `peer` ([`restored_lanes`]).
pub fn restored(text: &str, peer: Option<&str>) -> Option<(Lane, Vec<(Lane, SocketRecord)>)> {
    let (top, lanes) = restored_lanes(text)?;
    let records = lanes
        .into_iter()
        .map(|kept| {
            let record = SocketRecord {
                id: kept.id,
                member: kept.member,
                peer: peer.map(str::to_owned),
                since: kept.since,
            };
            (kept.lane, record)
        })
        .collect();
    Some((top, records))
}

#[cfg(test)]
mod tests;
