//! The network's own handling of each core event type (ONM appendix B),
//! and routing decisions for everything else.
//!
//! Each handler validates its payload, changes the state and says what to do
//! next in an [`Outcome`]: effects, whether to log, route and ack the event.
//! One file per area: [`agents`], [`channels`] (and groups), [`resources`],
//! [`invitations`] (Workspace invitation events), [`admin`], [`admin_mods`] and [`admin_actions`] (masters managing the network, and what they may do now), [`events`] (the log, acks, and events for mods or members), [`discovery`] (`network.discovery.query`), [`tasks`] (`task.*`)
//! [`task_push`] (their push notifications) and [`task_list`] (a member's
//! tasks, read).

mod admin;
pub mod admin_actions;
mod admin_hosted;
mod admin_mods;
pub mod admin_types;
mod agents;
mod channels;
mod discovery;
mod events;
pub mod invitations;
mod payload;
mod resources;
mod task_list;
mod task_push;
mod tasks;

use crate::ids::time::Timestamp;
use crate::network::pipeline::outcome::{self, Handled};
pub(crate) use admin::is_banned;
pub use agents::DEFAULT_INVITATION_TTL_MS;
pub use tasks::{MAX_OPEN_TASKS, types as task_types};

use crate::event::Event;
use crate::event::metadata::ProtocolMetadata;
use crate::ids::address::{Address, Entity};
use crate::ids::event_type::core_types as t;
use crate::mods::JoinClaim;
use crate::network::engine::Network;
use crate::vocabulary::event_types::{INVITATION_CREATED, TYPING};

/// Runs one event type's handler as a function of its own (`#[inline(never)]`): the
/// dispatcher below stays small, and a WebAssembly host compiles each handler when an event of
/// its type first comes, not all of them with the first event. Inlined into one function, the
/// handlers and the pipeline around them were 90 KB that V8 compiled at the first join, with
/// 4 MB of scratch memory that workerd keeps (BENCHMARKS.md, "Memory at the peer's").
#[inline(never)]
fn apart<R>(handler: impl FnOnce() -> R) -> R {
    handler()
}

/// Handles `event` after the guards accepted it.
pub(crate) fn handle(
    network: &mut Network,
    event: &Event,
    claim: Option<&JoinClaim>,
    metadata: &ProtocolMetadata,
    now: Timestamp,
) -> Handled {
    match event.event_type.as_str() {
        t::AGENT_JOIN => apart(|| agents::join(network, event, claim, now)),
        t::AGENT_LEAVE => apart(|| agents::leave(network, event, now)),
        t::AGENT_DISCOVER => apart(|| agents::discover(network, event, now)),
        t::AGENT_ANNOUNCE => apart(|| agents::announce(event)),
        t::AGENT_PROFILE => apart(|| agents::set_profile(network, event)),
        t::AGENT_INVITE => apart(|| agents::invite(network, event, now)),
        INVITATION_CREATED if event.target == Address::core() => {
            agents::invite(network, event, now)
        }
        INVITATION_CREATED => Err(payload::invalid(
            "workspace.invitation.created goes to core",
        )),
        t::PING => apart(|| agents::ping(network, event, now)),
        t::BRIDGE_UPDATE => apart(|| agents::bridge(network, event)),
        t::CHANNEL_CREATE => apart(|| channels::create_channel(network, event)),
        t::CHANNEL_DELETE => apart(|| channels::delete_channel(network, event)),
        t::CHANNEL_JOIN | t::CHANNEL_LEAVE => {
            apart(|| channels::join_or_leave_channel(network, event))
        }
        t::GROUP_UPDATE => apart(|| channels::update_group(network, event)),
        t::GROUP_DELETE => apart(|| channels::delete_group(network, event)),
        t::RESOURCE_REGISTER => apart(|| resources::register(network, event, now)),
        t::RESOURCE_UNREGISTER => apart(|| resources::unregister(network, event, now)),
        t::RESOURCE_DISCOVER => apart(|| resources::discover(network, event, now)),
        t::RESOURCE_INVOKE => apart(|| resources::invoke(network, event)),
        t::RESOURCE_INVOKE_RESULT => apart(|| resources::invoke_result(metadata)),
        t::RESOURCE_READ => apart(|| resources::read(network, event, now)),
        t::RESOURCE_UPDATE if crate::documents::is_sync_event(event) => {
            payload::resource_at(&network.state, &event.target)?;
            if !network.serves_documents() {
                // Never an update: a sync needs only `read` (`mods::access_control`).
                return Err(crate::error::Rejection::new(
                    crate::error::ErrorCode::NotSupported,
                    "this network does not keep shared documents",
                ));
            }
            apart(|| network.sync_document(event, now))
        }
        t::RESOURCE_UPDATE => apart(|| resources::update(network, event, now)),
        t::EVENTS_QUERY => apart(|| events::query(network, event)),
        crate::discovery::network_query::QUERY => apart(|| discovery::query(event)),
        t::EVENT_ACK if event.target == Address::core() => {
            apart(|| events::acknowledge(network, event, now))
        }
        t::EVENT_ACK => Ok(outcome::routed()),
        t::AGENT_RESUME => apart(|| events::resume(network, event)),
        tasks::types::PUSH => apart(|| task_push::configure(network, event)),
        tasks::types::LIST if event.target == Address::core() => {
            apart(|| task_list::list(network, event, now))
        }
        tasks::types::LIST => Err(payload::invalid("task.list goes to core")),
        kind if kind.starts_with("task.") => {
            let mut outcome = match kind {
                tasks::types::CREATE => apart(|| tasks::create(network, event, now)),
                tasks::types::MESSAGE => apart(|| tasks::message_in(network, event, now)),
                tasks::types::UPDATE => apart(|| tasks::update(network, event, now)),
                tasks::types::ARTIFACT => apart(|| tasks::artifact(network, event, now)),
                tasks::types::CANCEL => apart(|| tasks::cancel(network, event, now)),
                other => Err(payload::invalid(format!("{other} is not a task event"))),
            }?;
            task_push::queue(network, &mut outcome, now);
            Ok(outcome)
        }
        crate::network::pipeline::agent_mods::VERDICT => Ok(outcome::Outcome {
            effects: network.verdict(event, now)?,
            ..outcome::Outcome::default()
        }),
        kind if kind.starts_with(admin::types::PREFIX) => {
            apart(|| admin::handle(network, event, now))
        }
        other if other.starts_with("network.") => Err(payload::invalid(format!(
            "{other} is not an event type this network handles"
        ))),
        _ => match event.target.entity() {
            Entity::Core => Err(payload::invalid(format!(
                "core does not handle {}",
                event.event_type
            ))),
            Entity::Mod(_) => apart(|| events::to_mod(network, event, now)),
            Entity::Channel(name)
                if network
                    .state
                    .channels
                    .get(name)
                    .is_some_and(|c| c.private && !c.members.contains(&event.source)) =>
            {
                Err(crate::error::Rejection::new(
                    crate::error::ErrorCode::Forbidden,
                    format!("{} is private: only its members post to it", event.target),
                ))
            }
            // `workspace.typing` (`{}` to a conversation: a channel,
            // `agent:broadcast` or a person): its sender is typing there.
            // Delivered to whoever is online and may see it, never logged
            // or stored: a moment later it means nothing.
            _ if event.event_type.as_str() == TYPING => Ok(outcome::Outcome {
                route: true,
                ..outcome::Outcome::default()
            }),
            _ => Ok(outcome::routed()),
        },
    }
}
