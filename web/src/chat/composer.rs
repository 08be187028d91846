//! The composer: a text area that grows with what is typed (Enter sends,
//! Shift+Enter breaks the line), and posting — to the open conversation, or
//! from the thread's own composer (beside the conversation on wide screens)
//! as a reply in that thread, also to the conversation when the person
//! ticks "Also send to …" ([`super::threads`]).
//! Typing `@` offers the members to mention ([`super::complete`]).

use super::attach::Attachments;
use super::attachment_view::{AttachButton, PendingFiles, on_paste};
use super::complete::{MentionList, Offer, completed, offer_for};
use super::messages::ALSO_IN_CONVERSATION;
use super::messages::mentions_in;
use super::recall::last_editable;
use super::state::Chat;
use super::tabs::TabNews;
use crate::event_types::MESSAGE_POSTED;
use agentnet_core::{Address, EventType};
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;

/// The id of the conversation's composer field (the thread's is `thread-reply`).
const MESSAGE_FIELD: &str = "message";

impl Chat {
    /// Where the draft goes: the open conversation, or from the thread's
    /// composer the thread's conversation, answering the thread's first message.
    pub(super) fn destination(&self, in_thread: bool) -> (String, Option<agentnet_core::EventId>) {
        match self.thread.get_untracked().filter(|_| in_thread) {
            Some(root) => (self.thread_conversation_untracked(), Some(root)),
            None => (self.current.get_untracked(), None),
        }
    }

    /// The draft of the conversation's composer, or of the thread's.
    pub(super) fn draft_in(&self, in_thread: bool) -> RwSignal<String> {
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
    pub(super) fn post(&self, in_thread: bool, files: Attachments) {
        let content = self.draft_in(in_thread).get_untracked().trim().to_owned();
        if content.is_empty() && files.pending(in_thread).with_untracked(Vec::is_empty) {
            return;
        }
        let (conversation, parent) = self.destination(in_thread);
        let Ok(target) = conversation.parse::<Address>() else {
            return;
        };
        let Ok(kind) = MESSAGE_POSTED.parse::<EventType>() else {
            return;
        };
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
        let mut payload = json!({ "content": content });
        match files.send_pending(in_thread, &target) {
            Some(attached) if !attached.is_empty() => payload["attachments"] = json!(attached),
            Some(_) => {}
            None => {
                return self
                    .session
                    .report("The workspace is still opening: try again in a moment.");
            }
        }
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
    let typing = super::typing::Typing::get();
    let area = NodeRef::<leptos::html::Textarea>::new();
    let offer = RwSignal::new(None::<Offer>);
    let post = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        offer.set(None);
        chat.post(in_thread, files);
    };
    // What is typed before the caret decides the members offered.
    let reread = move || {
        let Some(area) = area.get_untracked() else {
            return;
        };
        let caret = area.selection_start().ok().flatten().unwrap_or(0);
        let text = area.value();
        offer.set(offer_for(&text, caret as usize, &chat.session.me_text()));
    };
    let choose = Callback::new(move |address: String| {
        let (Some(open), Some(area)) = (offer.get_untracked(), area.get_untracked()) else {
            return;
        };
        let (text, caret) = completed(&draft.get_untracked(), open.at, open.caret, &address);
        let caret_utf16 = text.get(..caret).map_or(0, |t| t.encode_utf16().count());
        draft.set(text.clone());
        area.set_value(&text);
        let _ = area.set_selection_range(caret_utf16 as u32, caret_utf16 as u32);
        let _ = area.focus();
        offer.set(None);
    });
    // With members offered, arrows move, Enter or Tab completes, Escape closes.
    // Otherwise Enter sends; Shift+Enter (or Enter while an input method composes) breaks the line.
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        if let Some(open) = offer.get_untracked() {
            let count = open.members.len();
            match ev.key().as_str() {
                "ArrowDown" | "ArrowUp" => {
                    ev.prevent_default();
                    let step = if ev.key() == "ArrowDown" {
                        1
                    } else {
                        count - 1
                    };
                    offer.set(Some(Offer {
                        active: (open.active + step) % count,
                        ..open
                    }));
                    return;
                }
                "Enter" | "Tab" if !ev.shift_key() => {
                    ev.prevent_default();
                    if let Some(address) = open.members.get(open.active) {
                        choose.run(address.clone());
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
                Some(root) => last_editable(super::rows::thread_of(all, root).into_iter()),
                None => last_editable(super::rows::conversation_lines(all, &open)),
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
    let (id, label, hint, list) = match in_thread {
        true => (
            "thread-reply",
            "Thread reply",
            "thread-reply-hint",
            "thread-mentions",
        ),
        false => (
            MESSAGE_FIELD,
            "Message",
            "composer-hint",
            "message-mentions",
        ),
    };
    // The list and the member chosen in it, while members are offered.
    let active = move || offer.get().map(|o| format!("{list}-{}", o.active));
    let controls = move || offer.with(Option::is_some).then_some(list);
    view! {
        {(!in_thread).then(|| view! { <super::typing::TypingLine /> })}
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
                on:click=move |_| reread()
                on:paste=move |ev| on_paste(ev, in_thread)
                on:input=move |ev| {
                    draft.set(event_target_value(&ev));
                    reread();
                    if !draft.with_untracked(String::is_empty) {
                        let conversation = if in_thread { chat.thread_conversation_untracked() } else { chat.current.get_untracked() };
                        typing.typed(&conversation);
                    }
                }></textarea>
            <MentionList id=list offer choose />
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
