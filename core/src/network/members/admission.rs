//! Admission: who may join and send, key proofs at join, and challenges.

use crate::crypto::{constant_time_eq, sha256_hex};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::core_types;
use crate::ids::standing::{Role, Verification};
use crate::ids::time::Timestamp;
use crate::model::config::NetworkStatus;
use crate::model::membership::Member;
use crate::model::payloads::{Challenge, Payload};
use crate::model::requests::field::read;
use crate::model::requests::members::{Credentials, WithCredentials};
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::members::shield::Inbound;
use crate::vocabulary::event_types::PRESENCE_CHANGED;
use serde_json::Value;

/// What a paused or archived network still accepts.
pub(crate) const READ_ONLY_TYPES: &[&str] = &[
    core_types::AGENT_LEAVE,
    core_types::AGENT_RESUME,
    core_types::AGENT_DISCOVER,
    core_types::PING,
    core_types::EVENT_ACK,
    core_types::EVENTS_QUERY,
    core_types::RESOURCE_DISCOVER,
    core_types::RESOURCE_READ,
    // A master may still read an archived network's configuration (not logged).
    crate::network::handlers::admin_types::CONFIG,
];

impl Network {
    /// A join is for a local participant address, on a connection not bound to another, while not archived.
    pub(crate) fn check_joiner(
        &self,
        session: Option<&Address>,
        event: &Event,
    ) -> Result<(), Rejection> {
        let address = &event.source;
        if !address.is_local()
            || !address.entity().is_participant()
            || address == &Address::broadcast()
        {
            return Err(Rejection::new(
                ErrorCode::InvalidAddress,
                format!("{address} cannot join: members are agent:, human: or registered agents"),
            ));
        }
        if let Some(bound) = session
            && bound != address
        {
            return Err(Rejection::new(
                ErrorCode::SourceMismatch,
                format!("this connection already joined as {bound}"),
            ));
        }
        if self.config.status == NetworkStatus::Archived {
            return Err(Rejection::new(
                ErrorCode::NetworkUnavailable,
                "this network is archived: no new joins",
            ));
        }
        if crate::network::handlers::is_banned(self, &address.to_local()) {
            return Err(Rejection::new(
                ErrorCode::Banned,
                format!("{address} is banned from this network"),
            ));
        }
        Ok(())
    }

    /// `address`'s membership, or a `not_joined` refusal naming it.
    pub(crate) fn joined_member(&self, address: &Address) -> Result<&Member, Rejection> {
        self.state.members.get(address).ok_or_else(|| {
            Rejection::new(ErrorCode::NotJoined, format!("{address} is not a member"))
        })
    }

    /// Any other event comes from the connection's member, of a type and role it may send.
    pub(crate) fn check_sender(
        &self,
        session: Option<&Address>,
        event: &Event,
    ) -> Result<(), Rejection> {
        let Some(session) = session else {
            return Err(Rejection::new(
                ErrorCode::NotJoined,
                "send network.agent.join before other events",
            ));
        };
        if &event.source != session {
            return Err(Rejection::new(
                ErrorCode::SourceMismatch,
                format!("source {} is not the joined member {session}", event.source),
            ));
        }
        let member = self.joined_member(session)?;
        let event_type = event.event_type.as_str();
        if crate::network::network_only::is_network_only(event_type) {
            return Err(Rejection::new(
                ErrorCode::ReservedType,
                format!("{event_type} is emitted only by the network"),
            ));
        }
        // Presence is the network's to report; a member may speak only of its own.
        // (Its payload is otherwise the member's own: only `address` is read.)
        if event_type == PRESENCE_CHANGED
            && event.payload.get("address").and_then(Value::as_str)
                != Some(event.source.to_string().as_str())
        {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!(
                    "{event_type} from a member is about itself: payload.address is its source"
                ),
            ));
        }
        // Observers may read, acknowledge and leave, and follow channels.
        let observer_may = READ_ONLY_TYPES.contains(&event_type)
            || event_type == core_types::CHANNEL_JOIN
            || event_type == core_types::CHANNEL_LEAVE;
        if member.role == Role::Observer && !observer_may {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                "observers receive events but cannot emit them",
            ));
        }
        // A paused network still takes its masters' admin events (to resume it) and mods' verdicts.
        let paused_may = self.config.status == NetworkStatus::Paused
            && (event_type.starts_with(crate::network::handlers::admin_types::PREFIX)
                || event_type == crate::network::pipeline::agent_mods::VERDICT);
        if self.config.status != NetworkStatus::Active
            && !READ_ONLY_TYPES.contains(&event_type)
            && !paused_may
        {
            return Err(Rejection::new(
                ErrorCode::NetworkUnavailable,
                format!(
                    "this network is {:?}: it accepts no new events",
                    self.config.status
                )
                .to_lowercase(),
            ));
        }
        Ok(())
    }

    /// An address belongs to whoever first holds it. Rejoining a member's
    /// address needs that member's credential: the connection it is already
    /// bound to, `credentials.member_secret` (issued at the first join), a key
    /// proof (`verification` of level 1 or more) or the admin token. A member
    /// stored before secrets existed has none; its next join is issued one.
    pub(crate) fn check_owner(
        &self,
        session: Option<&Address>,
        event: &Event,
        verification: Verification,
        did: Option<&str>,
    ) -> Result<(), Rejection> {
        let address = &event.source;
        let Some(member) = self.state.members.get(address) else {
            return Ok(());
        };
        // An address a DID holds is that DID's: another identity's proof does not claim it.
        let other_identity = member.did.is_some() && did.is_some() && member.did.as_deref() != did;
        let credential = |key: &str| {
            event
                .payload
                .get("credentials")
                .and_then(|c| c.get(key))
                .and_then(Value::as_str)
        };
        let secret_matches = match (&member.secret_sha256, credential("member_secret")) {
            (None, _) => true,
            (Some(expected), Some(secret)) => constant_time_eq(
                sha256_hex(secret.as_bytes()).as_bytes(),
                expected.as_bytes(),
            ),
            (Some(_), None) => false,
        };
        if session == Some(address)
            || secret_matches
            || (verification >= Verification::KEY_PROOF && !other_identity)
            || self.config.is_admin_credential(credential("admin_token"))
        {
            return Ok(());
        }
        Err(Rejection::new(
            ErrorCode::AddressInUse,
            format!(
                "{address} is taken in this network: rejoin with the credentials.member_secret its first join was given, or join as another address"
            ),
        ))
    }

    /// The verification level a join proves (a key proof is checked here).
    /// A key registered for the address makes its proof mandatory.
    pub(crate) fn verify_join(
        &mut self,
        inbound: &Inbound<'_>,
        event: &Event,
        now: Timestamp,
    ) -> Result<(Verification, Option<String>), Rejection> {
        if let Some(proved) = self.verify_identity(inbound, event, now) {
            return proved;
        }
        self.verify_key_proof(inbound, event, now)
            .map(|level| (level, None))
    }

    /// Level 1 (or 0): the key registered for the address, if any.
    fn verify_key_proof(
        &mut self,
        inbound: &Inbound<'_>,
        event: &Event,
        now: Timestamp,
    ) -> Result<Verification, Rejection> {
        let credentials = Credentials::of(&event.payload);
        match (credentials.nonce.as_text(), credentials.signature.as_text()) {
            (Some(nonce), Some(signature)) => {
                self.challenges.verify(
                    self.keys.as_ref(),
                    &self.config.id,
                    &event.source,
                    &inbound.holder(&event.source),
                    nonce,
                    signature,
                    now,
                )?;
                Ok(Verification::KEY_PROOF)
            }
            (None, None) if self.keys.public_key(&event.source).is_some() => Err(Rejection::new(
                ErrorCode::VerificationFailed,
                format!(
                    "a key is registered for {}: join with a key proof (network.agent.challenge, then credentials.nonce and credentials.signature)",
                    event.source
                ),
            )),
            (None, None) => Ok(Verification::ANONYMOUS),
            _ => Err(Rejection::new(
                ErrorCode::VerificationFailed,
                "key proof needs both credentials.nonce and credentials.signature",
            )),
        }
    }

    /// A nonce for a key proof, answered to the asker and held by it ([`Inbound::holder`]).
    pub(crate) fn issue_challenge(
        &mut self,
        inbound: &Inbound<'_>,
        event: &Event,
        now: Timestamp,
    ) -> Result<Vec<Effect>, Rejection> {
        let nonce = crate::crypto::to_hex(&self.ids.random_bytes());
        // A challenge naming a DID is for a level-3 proof by any participant address.
        let for_did = read::<WithCredentials>(&event.payload)
            .did
            .as_given()
            .is_some();
        let keyed = for_did || self.keys.public_key(&event.source).is_some();
        let expires_at = self.challenges.issue_for(
            &event.source,
            inbound.holder(&event.source),
            nonce.clone(),
            keyed,
            for_did,
            now,
        )?;
        let payload = Challenge {
            address: event.source.clone(),
            expires_at,
            network: self.config.id.clone(),
            nonce,
        };
        let response = self.reply_to(event, Challenge::EVENT_TYPE, payload.to_json(), now);
        Ok(vec![Effect::Reply(response)])
    }
}
