//! Invitations as Workspace events (ONM §12): `workspace.invitation.created`
//! issues one (as `network.agent.invite` does, and logged, so the history
//! shows who invited whom), used once or, with `max_uses`, by up to that
//! many newcomers before it expires ([`Network::use_invitation`]); a join that uses one sends its inviter
//! `workspace.invitation.accepted`; the holder of a code may decline it
//! without joining ([`Network::reject_invitation`], `POST v1/invitations/reject`),
//! which sends the inviter `workspace.invitation.rejected`. Masters revoke
//! unused ones (`network.admin.invitation.revoke`).

use crate::error::{ErrorCode, Rejection};
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::model::membership::Member;
use crate::model::payloads::Payload;
use crate::model::state::{Invitation, RowKind};
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::vocabulary::event_types::INVITATION_REJECTED;
use crate::vocabulary::invitations::InvitationNews;
use std::rc::Rc;

impl Network {
    /// Tells the inviter of `invitation` what became of it, if it is online.
    pub(super) fn invitation_news(
        &mut self,
        kind: &'static str,
        invitation: &Invitation,
        invitee: Option<&Address>,
        now: Timestamp,
    ) -> Vec<Effect> {
        let inviter = &invitation.created_by;
        if !self
            .state
            .members
            .get(inviter)
            .is_some_and(Member::is_online)
        {
            return Vec::new();
        }
        let payload = InvitationNews {
            expires_at: invitation.expires_at,
            invitee: invitee.or(invitation.invitee.as_ref()).cloned(),
        };
        let news = self.core_event(kind, inviter, None, payload.to_json(), now);
        vec![Effect::Deliver {
            to: vec![inviter.clone()],
            event: Rc::new(news),
            order: None,
        }]
    }

    /// A join presents invitation `code`: a newcomer's join uses it once
    /// (the last use voids it; a member coming back uses nothing, though a
    /// single-use code is void once presented). Returns the invitation and
    /// the row effect to persist (updated or removed); `None` when there is
    /// no such invitation.
    pub(super) fn use_invitation(
        &mut self,
        code: &str,
        newcomer: bool,
    ) -> Option<(Invitation, Effect)> {
        let invitation = self.state.invitations.get_mut(code)?;
        if newcomer || invitation.max_uses <= 1 {
            invitation.uses = invitation.uses.saturating_add(1);
        }
        let invitation = invitation.clone();
        if invitation.uses >= invitation.max_uses {
            self.state.invitations.remove(code);
            let removed = Effect::Remove {
                kind: RowKind::Invitation,
                key: code.to_owned(),
            };
            return Some((invitation, removed));
        }
        let row = Effect::Store(crate::model::state::Row::Invitation(invitation.clone()));
        Some((invitation, row))
    }

    /// What the holder of `code` is invited to: the network (id, name,
    /// description), who invited (and the display name they go by), for whom
    /// and until when. Changes nothing.
    pub fn invitation_for(
        &self,
        code: &str,
        now: Timestamp,
    ) -> Result<serde_json::Value, Rejection> {
        let invitation = self
            .state
            .invitations
            .get(code)
            .filter(|i| i.expires_at > now)
            .ok_or_else(|| Rejection::new(ErrorCode::NotFound, "no such unused invitation"))?;
        let config = &self.config;
        Ok(serde_json::json!({
            "network": {
                "id": config.id,
                "name": config.name,
                "description": config.metadata.get("description"),
                "policy": config.access.policy,
            },
            "inviter": invitation.created_by,
            "inviter_name": self
                .state
                .members
                .get(&invitation.created_by)
                .and_then(|m| m.profile.name.as_deref()),
            "invitee": invitation.invitee,
            "expires_at": invitation.expires_at,
            "uses_left": invitation.max_uses.saturating_sub(invitation.uses),
        }))
    }

    /// The holder of `code` declines it without joining: it is void, and its inviter told.
    pub fn reject_invitation(
        &mut self,
        code: &str,
        now: Timestamp,
    ) -> Result<Vec<Effect>, Rejection> {
        let Some(invitation) = self
            .state
            .invitations
            .get(code)
            .filter(|i| i.expires_at > now)
            .cloned()
        else {
            return Err(Rejection::new(
                ErrorCode::NotFound,
                "no such unused invitation",
            ));
        };
        self.state.invitations.remove(code);
        let mut effects = vec![Effect::Remove {
            kind: RowKind::Invitation,
            key: code.to_owned(),
        }];
        effects.extend(self.invitation_news(INVITATION_REJECTED, &invitation, None, now));
        Ok(effects)
    }
}
