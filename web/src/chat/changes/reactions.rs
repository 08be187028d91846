//! Reactions to a message, as events in the log: `workspace.reaction.added`
//! and `.removed` `{message, emoji}`, sent where the conversation is
//! (`mod/workspace` checks them). What is known and shown is in
//! [`crate::chat::changes::reaction_counts`]. Clicking a reaction adds the person's or takes
//! it back; the React button (among the message's actions) offers a few
//! common ones and the emoji picker.

use crate::chat::changes::reaction_counts::{Shown, reaction_of, record, shown};
use crate::chat::messages::Line;
use crate::chat::state::Chat;
use agentnet_core::Event;
use agentnet_core::vocabulary::WorkspaceEventType;
use agentnet_core::vocabulary::messages::Reaction;
use leptos::prelude::*;

/// The reactions the React button offers.
pub const OFFERED: [&str; 6] = ["👍", "❤️", "😄", "🎉", "👀", "✅"];

impl Chat {
    /// Records the reaction `event` makes, if it is one. True when it was.
    pub(crate) fn take_reaction(&self, event: &Event) -> bool {
        let Some((message, emoji, on)) = reaction_of(event) else {
            return false;
        };
        let who = event.source.to_string();
        self.reactions
            .update(|r| record(r, message, emoji, who, event.timestamp.as_millis(), on));
        true
    }

    /// Adds the person's `emoji` to `line`, or takes it back when it is there.
    pub fn react(&self, line: &Line, emoji: &str) {
        let me = self.session.me_text();
        let mine = self
            .reactions
            .with_untracked(|r| shown(r, &line.id, &me))
            .iter()
            .any(|s| s.emoji == emoji && s.mine);
        let kind = if mine {
            WorkspaceEventType::ReactionRemoved
        } else {
            WorkspaceEventType::ReactionAdded
        };
        let reaction = Reaction {
            emoji: emoji.to_owned(),
            message: line.id,
        };
        self.change(line, kind, &reaction);
    }
}

/// The reactions under a message (nothing when it has none): each emoji,
/// how many, pressed when the person is among them; a click toggles theirs.
#[component]
pub fn ReactionChips(
    /// The message.
    line: Line,
) -> impl IntoView {
    let chat = Chat::get();
    let me = chat.session.me_text();
    let id = line.id;
    let line = StoredValue::new(line);
    let list = move || chat.reactions.with(|r| shown(r, &id, &me));
    let chip = move |s: Shown| {
        let emoji = s.emoji.clone();
        let people = if s.count == 1 { "person" } else { "people" };
        // A reaction is any text without spaces: isolated, it cannot reorder its count.
        let shown_emoji = crate::bidi::isolate(&s.emoji);
        let label = format!(
            "{shown_emoji} {} {people} reacted: {}",
            s.count,
            s.who.join(", ")
        );
        view! {
            <button type="button" class="reaction" aria-pressed=s.mine.to_string() title=label.clone() aria-label=label
                on:click=move |_| line.with_value(|l| chat.react(l, &emoji))>
                <span class="emoji" aria-hidden="true">{shown_emoji}</span>
                <span class="count" aria-hidden="true">{s.count}</span>
            </button>
        }
    };
    move || {
        let now = list();
        (!now.is_empty()).then(|| {
            view! {
                <div class="reactions" role="group" aria-label="Reactions">
                    <For each=move || now.clone() key=|s| (s.emoji.clone(), s.count, s.mine) children=chip />
                </div>
            }
        })
    }
}

/// The React button of a message's actions: a quick row of common
/// reactions and "More reactions", which opens the emoji picker
/// ([`crate::emoji::opener`]). A reaction chosen closes the row, the picker
/// and the phone's action sheet (`sheet`) and gives the focus back to React.
#[component]
pub fn ReactButton(
    /// The message.
    line: Line,
    /// The phone's action sheet of the message is open.
    sheet: RwSignal<bool>,
) -> impl IntoView {
    let chat = Chat::get();
    let picker_id = format!("react-{}", line.id);
    let line = StoredValue::new(line);
    let choosing = RwSignal::new(false);
    let react_button = NodeRef::<leptos::html::Button>::new();
    let react = move |emoji: &str| {
        choosing.set(false);
        sheet.set(false);
        line.with_value(|l| chat.react(l, emoji));
        crate::emoji::recent::Recent::use_and_keep(emoji);
        if let Some(button) = react_button.try_get_untracked().flatten() {
            let _ = button.focus();
        }
    };
    let pick = Callback::new(move |emoji: &'static str| react(emoji));
    let choices = move || {
        choosing.get().then(|| {
            let offered = OFFERED.map(|emoji| {
                view! {
                    <button type="button" class="choice" aria-label=format!("React with {emoji}")
                        on:click=move |_| react(emoji)>{emoji}</button>
                }
            });
            view! {
                <span class="choices" role="group" aria-label="Choose a reaction">
                    {offered}
                    <crate::emoji::opener::PickerButton id=picker_id.clone() class="choice more-emoji"
                        label="More reactions" picker_label="Choose a reaction" pick icon=crate::emoji::opener::Icon::AddReaction />
                </span>
            }
        })
    };
    view! {
        <button type="button" class="react" node_ref=react_button aria-expanded=move || choosing.get().to_string()
            on:click=move |_| choosing.update(|c| *c = !*c)>"React"</button>
        {choices}
    }
}
