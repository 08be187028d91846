//! `mod/auth`: admission by access policy, credentials and minimum verification.
//!
//! Guards `network.agent.join` (priority 0):
//! * `open` — anyone;
//! * `token` — `credentials.token` must hash (SHA-256) to the stored token
//!   hash, compared in constant time;
//! * `invite` — `credentials.invite` must name a live invitation for this
//!   address (the network consumes it once the join passes every guard), or
//!   the joiner is a member coming back: an address that got in before,
//!   presenting the `credentials.member_secret` its first join was given;
//! * `did-verify` — needs verification level 3: a DID proof
//!   ([`crate::network::members::identity`]);
//! * and in every case the level the core verified must reach `min_verification`.

use super::api::{Context, Mod, ModMode, ModSpec};
use crate::crypto::{constant_time_eq, sha256_hex};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::standing::Verification;
use crate::model::config::AccessPolicy;
use crate::model::requests::members::Credentials;

pub(super) struct Auth {
    spec: ModSpec,
}

impl Auth {
    pub(super) fn new() -> Self {
        Self {
            spec: ModSpec::standard("auth", &["network.agent.join"], 0, ModMode::Guard),
        }
    }
}

/// True when `join` is a member coming back: its address has a member
/// secret (it got in before) and the join presents that secret.
fn returning(cx: &Context<'_>, join: &super::api::JoinClaim, secret: Option<&str>) -> bool {
    let expected = cx
        .state
        .members
        .get(&join.address)
        .and_then(|m| m.secret_sha256.as_deref());
    match (expected, secret) {
        (Some(expected), Some(secret)) => constant_time_eq(
            sha256_hex(secret.as_bytes()).as_bytes(),
            expected.as_bytes(),
        ),
        _ => false,
    }
}

fn denied(message: impl Into<String>) -> Rejection {
    Rejection::new(ErrorCode::AccessDenied, message)
}

impl Mod for Auth {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }

    fn guard(&mut self, cx: &Context<'_>, event: &Event) -> Result<(), Rejection> {
        let Some(join) = cx.join else {
            return Ok(());
        };
        let credentials = Credentials::of(&event.payload);

        if cx
            .config
            .is_admin_credential(credentials.admin_token.as_text())
        {
            return Ok(());
        }
        match cx.config.access.policy {
            AccessPolicy::Open => {}
            AccessPolicy::Token => {
                let expected = cx.config.access.token_sha256.as_deref().unwrap_or("");
                let presented = credentials
                    .token
                    .as_text()
                    .map(|t| sha256_hex(t.as_bytes()));
                match presented {
                    Some(hash) if constant_time_eq(hash.as_bytes(), expected.as_bytes()) => {}
                    Some(_) => return Err(denied("the network token is not valid")),
                    None => return Err(denied("this network needs a token: credentials.token")),
                }
            }
            AccessPolicy::Invite if returning(cx, join, credentials.member_secret.as_text()) => {}
            AccessPolicy::Invite => {
                let Some(code) = credentials.invite.as_text() else {
                    return Err(denied("this network is invite-only: credentials.invite"));
                };
                if !cx.state.invitation_valid(code, &join.address, cx.now) {
                    return Err(denied(
                        "the invitation is unknown, used, expired or for someone else",
                    ));
                }
            }
            AccessPolicy::DidVerify => {
                if join.verification < Verification::DID {
                    return Err(denied(
                        "this network needs a verified DID (level 3): join with credentials {did, nonce, signature}",
                    ));
                }
            }
        }
        if join.verification < cx.config.access.min_verification {
            return Err(denied(format!(
                "this network needs verification level {} or higher; this join proved level {}",
                cx.config.access.min_verification.level(),
                join.verification.level()
            )));
        }
        Ok(())
    }
}
