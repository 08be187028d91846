//! The composer: a text area that grows with what is typed (Enter sends,
//! Shift+Enter breaks the line), and posting — to the open conversation, or
//! from the thread's own composer (beside the conversation on wide screens)
//! as a reply in that thread, also to the conversation when the person
//! ticks "Also send to …" ([`crate::chat::threads`]).
//! Typing `@` offers the members to mention, `:` and two letters the emoji
//! ([`crate::chat::composer::complete`]); a whole `:shortcode:` becomes its emoji as its
//! closing colon is typed, and any left when the message is sent
//! ([`crate::emoji::shortcode`]). The emoji button opens the picker
//! ([`crate::emoji::opener`]), which inserts at the caret.

use crate::chat::composer::complete::{Choice, CompletionList, Offer, completed, offer_for};
use crate::chat::composer::recall::last_editable;
use crate::chat::files::attach::Attachments;
use crate::chat::files::attachment_view::{AttachButton, PendingFiles, on_paste};
use crate::chat::messages::ALSO_IN_CONVERSATION;
use crate::chat::messages::mentions_in;
use crate::chat::state::Chat;
use crate::chat::tabs::TabNews;
use crate::emoji::recent::Recent;
use crate::emoji::shortcode::{expand_all, expand_before};
use agentnet_core::Address;
use agentnet_core::model::payloads::Payload;
use agentnet_core::vocabulary::WorkspaceEventType;
use agentnet_core::vocabulary::messages::MessagePosted;
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;

/// The id of the conversation's composer field (the thread's is `thread-reply`).
const MESSAGE_FIELD: &str = "message";

impl Chat {
    /// Where the draft goes: the open conversation, or from the thread's
    /// composer the thread's conversation, answering the thread's first message.
    pub(crate) fn destination(&self, in_thread: bool) -> (String, Option<agentnet_core::EventId>) {
        match self.thread.get_untracked().filter(|_| in_thread) {
            Some(root) => (self.thread_conversation_untracked(), Some(root)),
            None => (self.current.get_untracked(), None),
        }
    }

    /// The draft of the conversation's composer, or of the thread's.
    pub(crate) fn draft_in(&self, in_thread: bool) -> RwSignal<String> {
        if in_thread {
            self.thread_draft
        } else {
            self.draft
        }
    }

    /// Puts `text` in the conversation's composer (after what is already
    /// written) and focuses it: the person sends it, or says more first.
    pub fn share_in_composer(&self, text: &str) {
        let written = self.draft.get_untracked();
        let joined = if written.trim().is_empty() {
            text.to_owned()
        } else {
            format!("{}\n\n{text}", written.trim_end())
        };
        self.draft.set(joined);
        if let Some(area) = document()
            .get_element_by_id(MESSAGE_FIELD)
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = area.focus();
        }
    }

    /// Posts the draft (with its mentions and files; from the thread's
    /// composer as a reply in the thread, also to the conversation when ticked).
    pub(crate) fn post(&self, in_thread: bool, files: Attachments) {
        let content = expand_all(self.draft_in(in_thread).get_untracked().trim());
        if content.is_empty() && files.pending(in_thread).with_untracked(Vec::is_empty) {
            return;
        }
        let (conversation, parent) = self.destination(in_thread);
        let Ok(target) = conversation.parse::<Address>() else {
            return self
                .session
                .report("This conversation has no address the network reads.");
        };
        let kind = WorkspaceEventType::MessagePosted.event_type();
        let mut metadata = serde_json::Map::new();
        let also_send = self.threads.also_send;
        if let Some(parent) = parent {
            metadata.insert("in_reply_to".into(), json!(parent));
            if also_send.get_untracked() {
                metadata.insert(ALSO_IN_CONVERSATION.into(), json!(true));
            }
        }
        let mentions = mentions_in(&content);
        if !mentions.is_empty() {
            metadata.insert("mentions".into(), json!(mentions));
        }
        // Big files go to the file store first; the message follows them.
        if files.needs_upload(in_thread) {
            let chat = *self;
            files.upload(in_thread, &target, move || chat.post(in_thread, files));
            return;
        }
        let Some(attachments) = files.send_pending(in_thread, &target) else {
            return self
                .session
                .report("The workspace is still opening: try again in a moment.");
        };
        let payload = MessagePosted {
            attachments,
            content,
            ..MessagePosted::default()
        }
        .to_json();
        let posted = self.session.with_connection(|c| {
            let id = c.post_with(kind, target, payload, metadata);
            c.outgoing(id)
        });
        match posted.flatten() {
            Some(event) => {
                self.tell(TabNews::Posted {
                    event: Box::new(event),
                });
                self.draft_in(in_thread).set(String::new());
                if in_thread {
                    also_send.set(false);
                }
                // This worked: an earlier problem no longer holds.
                self.session.problem.set(None);
            }
            None => self
                .session
                .report("The workspace is still opening: try again in a moment."),
        }
    }
}

/// The composer (`in_thread`: the thread's, with "also send to the conversation").
#[component]
pub fn Composer(
    /// The open thread's composer, replying in it.
    in_thread: bool,
) -> impl IntoView {
    let chat = Chat::get();
    let files = Attachments::get();
    let draft = chat.draft_in(in_thread);
    let ui = chat.threads;
    let typing = crate::chat::composer::typing::Typing::get();
    let area = NodeRef::<leptos::html::Textarea>::new();
    let offer = RwSignal::new(None::<Offer>);
    let post = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        offer.set(None);
        chat.post(in_thread, files);
    };
    // Puts `text` in the field with the caret at byte `caret`, focused.
    let set_text = move |text: String, caret: usize| {
        let Some(area) = area.get_untracked() else {
            return;
        };
        let caret_utf16 = text.get(..caret).map_or(0, |t| t.encode_utf16().count());
        draft.set(text.clone());
        area.set_value(&text);
        let _ = area.set_selection_range(caret_utf16 as u32, caret_utf16 as u32);
        let _ = area.focus();
    };
    // What is typed before the caret decides what is offered; a shortcode just closed becomes its emoji.
    let reread = move || {
        let Some(field) = area.get_untracked() else {
            return;
        };
        let caret = field.selection_start().ok().flatten().unwrap_or(0) as usize;
        let text = field.value();
        let at = crate::chat::composer::complete::byte_at_utf16(&text, caret);
        if let Some((expanded, after, glyph)) = expand_before(&text, at) {
            Recent::use_and_keep(glyph);
            set_text(expanded, after);
            offer.set(None);
            return;
        }
        offer.set(offer_for(&text, caret, &chat.session.me_text()));
    };
    let choose = Callback::new(move |choice: Choice| {
        let Some(open) = offer.get_untracked() else {
            return;
        };
        let (text, caret) = completed(
            &draft.get_untracked(),
            open.at,
            open.caret,
            &choice.inserted,
        );
        if open.kind == crate::chat::composer::complete::Kind::Emoji {
            Recent::use_and_keep(&choice.inserted);
        }
        set_text(text, caret);
        offer.set(None);
    });
    // With members offered, arrows move, Enter or Tab completes, Escape closes.
    // Otherwise Enter sends; Shift+Enter (or Enter while an input method composes) breaks the line.
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        if let Some(open) = offer.get_untracked() {
            match ev.key().as_str() {
                "ArrowDown" | "ArrowUp" => {
                    ev.prevent_default();
                    offer.set(Some(open.stepped(ev.key() == "ArrowDown")));
                    return;
                }
                "Enter" | "Tab" if !ev.shift_key() => {
                    ev.prevent_default();
                    if let Some(choice) = open.choices.get(open.active) {
                        choose.run(choice.clone());
                    }
                    return;
                }
                "Escape" => {
                    ev.prevent_default();
                    offer.set(None);
                    return;
                }
                _ => {}
            }
        }
        // Up-arrow in an empty composer edits the person's last message in its list.
        if ev.key() == "ArrowUp"
            && !ev.shift_key()
            && !ev.alt_key()
            && !ev.ctrl_key()
            && !ev.meta_key()
            && draft.get_untracked().is_empty()
        {
            let root = chat.thread.get_untracked().filter(|_| in_thread);
            let open = chat.current.get_untracked();
            let last = chat.lines.with_untracked(|all| match root {
                Some(root) => {
                    last_editable(crate::chat::list::rows::thread_of(all, root).into_iter())
                }
                None => last_editable(crate::chat::list::rows::conversation_lines(all, &open)),
            });
            if let Some(id) = last {
                ev.prevent_default();
                chat.edit_request.set(Some(id));
                return;
            }
        }
        if ev.key() == "Enter" && !ev.shift_key() && !ev.is_composing() {
            ev.prevent_default();
            offer.set(None);
            chat.post(in_thread, files);
        }
    };
    // The picker's emoji goes in at the caret (where the focus left the field).
    let insert = move |glyph: &'static str| {
        let Some(field) = area.get_untracked() else {
            return;
        };
        let text = field.value();
        let units = |f: Option<u32>| {
            crate::chat::composer::complete::byte_at_utf16(&text, f.unwrap_or(u32::MAX) as usize)
        };
        let start = units(field.selection_start().ok().flatten());
        let end = units(field.selection_end().ok().flatten()).max(start);
        Recent::use_and_keep(glyph);
        set_text(
            format!("{}{glyph}{}", &text[..start], &text[end..]),
            start + glyph.len(),
        );
    };
    // "Reply in thread" moves the focus here, so typing goes into the reply.
    Effect::new(move |_| {
        if in_thread
            && ui.focus.get()
            && let Some(area) = area.get()
        {
            let _ = area.focus();
            ui.focus.set(false);
        }
    });
    let placeholder = move || match in_thread {
        true => "Reply in this thread".to_owned(),
        false => placeholder_for(&chat.current.get(), |c| chat.title_of(c)),
    };
    let (id, label, hint, list, emoji_id) = match in_thread {
        true => (
            "thread-reply",
            "Thread reply",
            "thread-reply-hint",
            "thread-mentions",
            "thread-emoji",
        ),
        false => (
            MESSAGE_FIELD,
            "Message",
            "composer-hint",
            "message-mentions",
            "composer-emoji",
        ),
    };
    // The list and the member chosen in it, while members are offered.
    let active = move || offer.get().map(|o| format!("{list}-{}", o.active));
    let controls = move || offer.with(Option::is_some).then_some(list);
    view! {
        {(!in_thread).then(|| view! { <crate::chat::composer::typing::TypingLine /> })}
        <PendingFiles in_thread />
        <form class="composer" on:submit=post>
            <label for=id class="visually-hidden">{label}</label>
            <textarea id=id name=id rows="1" autocomplete="off" node_ref=area
                placeholder=placeholder
                aria-describedby=hint
                aria-autocomplete="list"
                aria-controls=controls
                aria-activedescendant=active
                prop:value=move || draft.get()
                on:keydown=keydown
                on:blur=move |_| offer.set(None)
                // The emoji table comes with the first focus, before a `:shortcode:` is typed.
                on:focus=move |_| crate::emoji::table::start_loading()
                on:click=move |_| reread()
                // The caret moved along the line: what is before it may offer something else.
                on:keyup=move |ev| if matches!(ev.key().as_str(), "ArrowLeft" | "ArrowRight" | "Home" | "End") { reread() }
                on:paste=move |ev| on_paste(ev, in_thread)
                on:input=move |ev| {
                    draft.set(event_target_value(&ev));
                    reread();
                    if !draft.with_untracked(String::is_empty) {
                        let conversation = if in_thread { chat.thread_conversation_untracked() } else { chat.current.get_untracked() };
                        typing.typed(&conversation);
                    }
                }></textarea>
            <CompletionList id=list offer choose />
            <crate::emoji::opener::PickerButton id=emoji_id.to_owned() class="emoji-button"
                label="Insert an emoji" picker_label="Insert an emoji" pick=Callback::new(insert) icon=crate::emoji::opener::Icon::Smile />
            <AttachButton in_thread />
            <button type="submit">"Send"</button>
            {in_thread.then(|| view! {
                <label class="also-send">
                    <input type="checkbox" prop:checked=move || ui.also_send.get()
                        on:change=move |ev| ui.also_send.set(event_target_checked(&ev)) />
                    {move || format!("Also send to {}", crate::bidi::isolate(&chat.title_of(&chat.thread_conversation())))}
                </label>
            })}
            <span id=hint class="hint">"Enter sends · Shift+Enter for a new line"</span>
        </form>
    }
}

/// What the empty composer of `conversation` says: "Message" and the
/// conversation's title (`title_of`), which names a person by their display
/// name (`human:ann` is "ann"), not their address.
pub fn placeholder_for(conversation: &str, title_of: impl Fn(&str) -> String) -> String {
    format!("Message {}", crate::bidi::isolate(&title_of(conversation)))
}

#[cfg(test)]
mod tests {
    use super::placeholder_for;
    use crate::chat::conversations::title_of as title;

    #[test]
    fn a_person_is_named_by_their_display_name() {
        assert_eq!(
            placeholder_for("human:guest-43946", title),
            "Message guest-43946"
        );
        assert_eq!(placeholder_for("agent:echo", title), "Message echo");
        assert_eq!(placeholder_for("channel/plan", title), "Message # plan");
        assert_eq!(
            placeholder_for("agent:broadcast", title),
            "Message Everyone"
        );
    }
}
