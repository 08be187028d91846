//! "Ann is typing…": while a person types in a composer, the page tells the
//! conversation with `workspace.typing` (at most once every
//! [`THROTTLE_MS`], only online: the network delivers it live and never
//! stores it); the others show it under their list for [`SHOWN_MS`], or
//! until that person's message arrives. Agents at work show their own way
//! ([`crate::chat::agents::working`]).

use crate::chat::conversations::conversation_of;
use crate::people::person::Members;
use crate::session::{Session, Status};
use agentnet_core::Address;
use agentnet_core::model::payloads::Payload;
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::vocabulary::event_types::{MESSAGE_POSTED, TYPING};
use agentnet_core::vocabulary::presence::TypingNotice;
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::time::Duration;

/// How often, at most, the page says the person is typing in one conversation.
pub const THROTTLE_MS: u64 = 3_000;
/// How long "is typing" shows after the last word of it.
pub const SHOWN_MS: u64 = 6_000;

/// What the line under the list says for the `names` typing (none: nothing).
pub fn typing_line(names: &[String]) -> Option<String> {
    let name = |n: &String| crate::bidi::isolate(n);
    match names {
        [] => None,
        [one] => Some(format!("{} is typing…", name(one))),
        [one, two] => Some(format!("{} and {} are typing…", name(one), name(two))),
        _ => Some("Several people are typing…".to_owned()),
    }
}

/// Who is typing where, and when the person last said they were.
#[derive(Clone, Copy)]
pub struct Typing {
    session: Session,
    /// Per conversation, who is typing and until when (ms since the epoch).
    who: RwSignal<BTreeMap<String, BTreeMap<String, u64>>>,
    /// The conversation the person last said they typed in, and when.
    told: StoredValue<Option<(String, u64)>>,
}

impl Typing {
    /// The typing of `session`'s network, provided to the components below.
    pub fn provide(session: Session) -> Self {
        let typing = Self {
            session,
            who: RwSignal::new(BTreeMap::new()),
            told: StoredValue::new(None),
        };
        provide_context(typing);
        typing
    }

    /// The typing of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// The person typed in `conversation`: said to it unless said a moment ago.
    pub fn typed(&self, conversation: &str) {
        let now = crate::clock::now_ms();
        let recent = self.told.with_value(|t| {
            t.as_ref()
                .is_some_and(|(c, at)| c == conversation && now < at + THROTTLE_MS)
        });
        if recent || self.session.status.get_untracked() != Status::Online {
            return;
        }
        let Ok(target) = conversation.parse::<Address>() else {
            return;
        };
        if self
            .session
            .post(TYPING, target, TypingNotice {}.to_json())
            .is_some()
        {
            self.told.set_value(Some((conversation.to_owned(), now)));
        }
    }

    /// The names of those typing in `conversation` now.
    pub fn names_in(&self, conversation: &str) -> Vec<String> {
        self.who.with(|w| {
            w.get(conversation)
                .map(|who| who.keys().map(|a| Members::name_of(a)).collect())
                .unwrap_or_default()
        })
    }

    /// Someone's typing arrives (shown for a while); their message ends it.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        let ReplicaEffect::Received(event) = effect else {
            return;
        };
        let me = self.session.me_text();
        let source = event.source.to_string();
        let conversation = conversation_of(&event.target.to_string(), &source, &me);
        match event.event_type.as_str() {
            TYPING if source != me => {
                let until = crate::clock::now_ms() + SHOWN_MS;
                self.who.update(|w| {
                    w.entry(conversation.clone())
                        .or_default()
                        .insert(source.clone(), until);
                });
                let who = self.who;
                set_timeout(
                    move || {
                        let now = crate::clock::now_ms();
                        let _ = who.try_update(|w| {
                            if let Some(typing) = w.get_mut(&conversation) {
                                typing.retain(|_, until| *until > now);
                            }
                        });
                    },
                    Duration::from_millis(SHOWN_MS + 50),
                );
            }
            MESSAGE_POSTED => self.who.update(|w| {
                if let Some(typing) = w.get_mut(&conversation) {
                    typing.remove(&source);
                }
            }),
            _ => {}
        }
    }
}

/// "Ann is typing…" under the open conversation's list (a polite live region).
#[component]
pub fn TypingLine() -> impl IntoView {
    let typing = Typing::get();
    let chat = crate::chat::state::Chat::get();
    let line = move || typing_line(&typing.names_in(&chat.open_conversation())).unwrap_or_default();
    view! { <p class="typing" aria-live="polite">{line}</p> }
}

#[cfg(test)]
mod tests {
    use super::typing_line;

    #[test]
    fn one_two_or_several_are_typing() {
        assert_eq!(typing_line(&[]), None);
        assert_eq!(
            typing_line(&["Ann".into()]).as_deref(),
            Some("Ann is typing…")
        );
        assert_eq!(
            typing_line(&["Ann".into(), "Bob".into()]).as_deref(),
            Some("Ann and Bob are typing…")
        );
        assert_eq!(
            typing_line(&["A".into(), "B".into(), "C".into()]).as_deref(),
            Some("Several people are typing…")
        );
    }
}
