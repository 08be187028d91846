//! Handlers for members: join, leave, discover, announce, ping, invitations, bridges.

use super::payload::{address_in, invalid, require_master};
use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::standing::{Role, Verification};
use crate::ids::time::Timestamp;
use crate::model::membership::{Member, Presence};
use crate::model::payloads::{Payload, Pong, Roster};
use crate::model::profile::{KEPT_FIELDS, Profile};
use crate::model::requests::field::{AsSent, nested, read};
use crate::model::requests::members::{BridgeUpdate, Invite, Join};
use crate::model::state::{Invitation, Row};
use crate::mods::JoinClaim;
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, Outcome, logged, replied, routed};
use serde_json::{Value, json};

/// Shortest and longest member secret a first join may propose.
const MIN_SECRET_LEN: usize = 16;
const MAX_SECRET_LEN: usize = 256;

/// Default lifetime of an invitation.
pub const DEFAULT_INVITATION_TTL_MS: u64 = 7 * 24 * 3600 * 1000;

/// Most joins one invitation may admit (`max_uses`).
pub const MAX_INVITATION_USES: u64 = 10_000;

/// `network.agent.join`: the member record, its role, and where its delivery resumes.
pub(super) fn join(
    network: &mut Network,
    event: &Event,
    claim: Option<&JoinClaim>,
    now: Timestamp,
) -> Handled {
    let address = event.source.clone();
    let verification = claim.map(|c| c.verification).unwrap_or_default();
    let claim_did = claim.and_then(|c| c.did.clone());
    let request = read::<Join>(&event.payload);
    let wants_observer = request.role.as_given().map(String::as_str) == Some("observer");
    let credentials = nested(request.credentials);
    let is_master = network.config.masters.contains(&address)
        || network
            .config
            .is_admin_credential(credentials.admin_token.as_given().map(String::as_str));
    let proposed = credentials.member_secret.given();
    if proposed
        .as_ref()
        .is_some_and(|s| !(MIN_SECRET_LEN..=MAX_SECRET_LEN).contains(&s.len()))
    {
        return Err(invalid(format!(
            "credentials.member_secret has {MIN_SECRET_LEN} to {MAX_SECRET_LEN} characters"
        )));
    }
    // The profile stays JSON until it is read: [`merged`] needs which of its fields were sent.
    let profile = match &request.profile {
        AsSent::Absent | AsSent::Null => None,
        AsSent::Given(value) | AsSent::Wrong(value) => {
            Some(Profile::from_value(value).map_err(|e| Rejection::from(&e))?)
        }
    };
    let mut outcome = logged();
    let newcomer = !network.state.members.contains_key(&address);
    if let Some(code) = credentials.invite.as_given()
        && let Some((invitation, row)) = network.use_invitation(code, newcomer)
    {
        outcome.effects.push(row);
        let news = network.invitation_news(
            crate::vocabulary::event_types::INVITATION_ACCEPTED,
            &invitation,
            Some(&address),
            now,
        );
        outcome.after_ack.extend(news);
    }
    // A member's delivery stream starts when it first becomes a member.
    let existed = network.state.members.contains_key(&address);
    let member = network
        .state
        .members
        .entry(address.clone())
        .or_insert_with(|| Member::new(address.clone(), verification, Presence::Online, now));
    if is_master {
        member.role = Role::Master;
    } else if wants_observer {
        member.role = Role::Observer;
    } else if member.secret_sha256.is_none() && verification < Verification::KEY_PROOF {
        // A record from before member secrets is claimed by its next join, which
        // proved nothing: it gets the address, never the role the record held.
        member.role = Role::Member;
    }
    member.verification = verification;
    member.did = claim_did;
    if let (Some(profile), Some(payload)) = (profile, request.profile.as_given()) {
        member.profile = merged(profile, payload, &member.profile);
    }
    if let Some(tasks) = request.tasks.given() {
        // A join may say whether the member takes tasks (the npm SDK does).
        member.profile.tasks = Some(tasks);
    }
    member.status = Presence::Online;
    member.last_seen = now;
    if member.secret_sha256.is_none() {
        // The address is this joiner's from now on: the secret it proposes, else
        // one issued here, is what a later join of the address presents
        // (`credentials.member_secret`). Only its hash is kept.
        let secret = match proposed {
            Some(secret) => secret,
            None => {
                let secret = format!(
                    "{}{}",
                    crate::crypto::to_hex(&network.ids.random_bytes()),
                    crate::crypto::to_hex(&network.ids.random_bytes())
                );
                outcome.ack.insert("member_secret".into(), json!(secret));
                secret
            }
        };
        member.secret_sha256 = Some(crate::crypto::sha256_hex(secret.as_bytes()));
    }
    let member = member.clone();
    network.seen_online(now);
    outcome.ack.insert("member".into(), json!(member.public()));
    outcome
        .ack
        .insert("network".into(), json!(network.config.id));
    outcome.effects.insert(0, Effect::Bind(address.clone()));
    outcome.effects.push(Effect::Store(Row::Member(member)));
    if network.at_least_once() {
        // Resume where the member says, else from its acknowledged cursor; a member the
        // network has never delivered to starts at the present.
        let resume = event
            .payload
            .get("resume")
            .and_then(|r| r.get("after"))
            .and_then(Value::as_u64);
        let after = match resume {
            Some(after) => after,
            None if existed => network.tracker.cursor(&address),
            None => {
                // New member: it starts at the present, and that is its cursor from now on.
                let start = network.last_seq;
                network.tracker.cursors.insert(address.clone(), start);
                outcome.effects.push(Effect::Store(Row::Cursor {
                    address: address.clone(),
                    seq: start,
                }));
                start
            }
        };
        outcome.ack.insert("resume_after".into(), json!(after));
        outcome.after_ack.push(network.catch_up(&address, after));
    }
    Ok(outcome)
}

/// `network.agent.leave`: offline, unbound, its other connections closed, its
/// documents closed, and out of the network's public listing (it opts in again
/// with `listed` when it comes back).
pub(super) fn leave(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let mut outcome = logged();
    if let Some(member) = network.state.members.get_mut(&event.source) {
        member.status = Presence::Offline;
        member.last_seen = now;
        member.profile.listed = false;
        outcome
            .effects
            .push(Effect::Store(Row::Member(member.clone())));
    }
    network.note_settled(&event.source);
    network.note_idle_from(now);
    outcome.effects.extend(network.stop_catch_up(&event.source));
    outcome.effects.push(Effect::Unbind);
    outcome
        .effects
        .push(Effect::EndCredentials(event.source.clone()));
    outcome
        .effects
        .extend(network.close_documents_of(&event.source, now));
    Ok(outcome)
}

/// `network.agent.discover`: the roster.
pub(super) fn discover(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let roster = network
        .state
        .roster_payload(&network.pipeline.addresses(), &event.source);
    let response = network.reply_to(event, Roster::EVENT_TYPE, roster.to_json(), now);
    Ok(replied(Effect::Reply(response)))
}

/// `profile` read from `payload`, over `before`: a payload of only name,
/// picture and tasks changes only those (`null` clears a name or picture);
/// any other replaces the profile but keeps each of them it leaves out.
fn merged(profile: Profile, payload: &Value, before: &Profile) -> Profile {
    // Which fields the profile sent, `null` too (a `Profile` reads both as none).
    let says = |field: &str| payload.get(field).is_some();
    let only_kept = payload
        .as_object()
        .is_some_and(|fields| fields.keys().all(|k| KEPT_FIELDS.contains(&k.as_str())));
    let base = if only_kept {
        before.clone()
    } else {
        Profile {
            name: None,
            picture: None,
            tasks: None,
            ..profile.clone()
        }
    };
    Profile {
        name: if says("name") {
            profile.name
        } else {
            before.name.clone()
        },
        picture: if says("picture") {
            profile.picture
        } else {
            before.picture.clone()
        },
        tasks: profile.tasks.or(before.tasks),
        ..base
    }
}

/// `network.agent.profile` to core: the sender's profile — only ever its
/// own, there is no field naming another member — replaced by the payload,
/// but for its name, picture and `tasks`, kept when the payload leaves them
/// out (see [`merged`]); the ack carries the member record as others now
/// see it, and `mod/workspace` tells everyone it changed.
pub(super) fn set_profile(network: &mut Network, event: &Event) -> Handled {
    if event.target != Address::core() {
        return Err(invalid("network.agent.profile goes to core"));
    }
    let profile = Profile::from_value(&event.payload).map_err(|e| Rejection::from(&e))?;
    let Some(member) = network.state.members.get_mut(&event.source) else {
        return Err(invalid("only a member has a profile"));
    };
    member.profile = merged(profile, &event.payload, &member.profile);
    let member = member.clone();
    let mut outcome = logged();
    outcome.ack.insert("member".into(), json!(member.public()));
    outcome.effects.push(Effect::Store(Row::Member(member)));
    Ok(outcome)
}

/// `network.agent.announce`: routed to everyone.
pub(super) fn announce(event: &Event) -> Handled {
    if event.target != Address::broadcast() {
        return Err(invalid("network.agent.announce goes to agent:broadcast"));
    }
    Ok(routed())
}

/// `network.ping`: answered with a pong.
pub(super) fn ping(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let pong = network.reply_to(event, Pong::EVENT_TYPE, Pong { time: now }.to_json(), now);
    Ok(replied(Effect::Reply(pong)))
}

/// `network.agent.invite`: a new invitation code.
pub(super) fn invite(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let request = read::<Invite>(&event.payload);
    let invitee = address_in(request.invitee, "invitee")?;
    let ttl = request.ttl_ms.given().unwrap_or(DEFAULT_INVITATION_TTL_MS);
    let out_of_range = || {
        invalid(format!(
            "payload.max_uses is a whole number from 1 to {MAX_INVITATION_USES}"
        ))
    };
    let max_uses = match request.max_uses.checked(out_of_range)? {
        None => 1,
        Some(n) => Some(n)
            .filter(|n| (1..=MAX_INVITATION_USES).contains(n))
            .ok_or_else(out_of_range)?,
    };
    if invitee.is_some() && max_uses > 1 {
        return Err(invalid(
            "an invitation for one invitee admits one join: no max_uses above 1",
        ));
    }
    let code = crate::crypto::to_hex(&network.ids.random_bytes());
    let invitation = Invitation {
        code: code.clone(),
        invitee,
        created_by: event.source.clone(),
        expires_at: now.plus_millis(ttl),
        // At most MAX_INVITATION_USES, so it fits.
        max_uses: u32::try_from(max_uses).unwrap_or(1),
        uses: 0,
    };
    network
        .state
        .invitations
        .insert(code.clone(), invitation.clone());
    // The Workspace's form is logged: the history shows who invited whom (never the code).
    let mut outcome = Outcome {
        log: event.event_type.as_str() == crate::vocabulary::event_types::INVITATION_CREATED,
        ..Outcome::default()
    };
    outcome.ack.insert("code".into(), json!(code));
    outcome
        .ack
        .insert("expires_at".into(), json!(invitation.expires_at));
    outcome.ack.insert("max_uses".into(), json!(max_uses));
    outcome
        .effects
        .push(Effect::Store(Row::Invitation(invitation)));
    Ok(outcome)
}

/// `network.bridge.update`: which local agent relays to another network.
pub(super) fn bridge(network: &mut Network, event: &Event) -> Handled {
    require_master(&network.state, &event.source, "manage bridges")?;
    let request = read::<BridgeUpdate>(&event.payload);
    let other: crate::ids::network_id::NetworkId = request
        .network
        .given()
        .ok_or_else(|| invalid("payload.network names the other network"))?
        .parse()
        .map_err(|e| invalid(format!("payload.network: {e}")))?;
    let bridge = address_in(request.bridge, "bridge")?;
    if other == network.config.id
        || bridge
            .as_ref()
            .is_some_and(|b| !b.is_local() || !b.entity().is_participant())
    {
        return Err(invalid("a bridge is a local agent, for another network"));
    }
    let row = Row::Bridge {
        network: other,
        bridge,
    };
    network.state.apply(row.clone());
    let mut outcome = logged();
    outcome.effects.push(Effect::Store(row));
    Ok(outcome)
}
