//! One message as the list shows it: its author and time (unless it
//! continues a group), the message it answers (a thread reply also sent to
//! the conversation, or an answer to a reply in a thread), its text with
//! highlighted mentions, its delivery state, its thread (how many replies,
//! the last one's time) and "Reply in thread" ([`crate::chat::threads`]). Its
//! text is Markdown ([`crate::chat::text::markdown`]).
//! An edited message says so; a deleted one leaves a placeholder; the
//! person's own can be edited and deleted ([`crate::chat::changes::own`]); reactions show
//! under it ([`crate::chat::changes::reactions`]).

use crate::bidi::isolate;
use crate::chat::changes::own::{EditForm, OwnActions};
use crate::chat::changes::reactions::{ReactButton, ReactionChips};
use crate::chat::list::time::Clock;
use crate::chat::messages::{Line, LineState, excerpt_of};
use crate::chat::state::Chat;
use crate::chat::text::markdown::to_html_named;
use crate::ioa::card::IoaCard;
use crate::people::face::{Author, Avatar};
use crate::people::person::Members;
use crate::routes::Place;
use crate::session::Session;
use leptos::prelude::*;

/// Which list a component is: the conversation's, or the open thread's
/// (provided to its lines, whose Reply answers in that list's composer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InThread(pub bool);

/// A message's thread, as its parent shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Replies {
    /// How many messages answer it.
    pub count: usize,
    /// When the last one was posted.
    pub last_at: u64,
}

/// The `<time>` of a message: relative or its clock time, exact on hover.
#[component]
pub fn Time(
    /// When, in ms since the epoch.
    at: u64,
    /// A word before the time ("last reply").
    #[prop(optional)]
    prefix: &'static str,
) -> impl IntoView {
    let clock = Chat::get().clock;
    view! {
        <time datetime=Clock::iso(at) title=Clock::exact(at)>
            {move || format!("{prefix}{}", clock.label(at))}
        </time>
    }
}

/// True when a click in a message's action sheet was a final choice (not
/// React, Delete or the emoji picker, which ask more first): the sheet closes.
fn closes_sheet(ev: &leptos::ev::MouseEvent) -> bool {
    use wasm_bindgen::JsCast;
    let Some(target) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    if target.closest("[data-keep-sheet]").ok().flatten().is_some() {
        return false;
    }
    match target.closest("a, button").ok().flatten() {
        Some(control) => {
            let classes = control.class_list();
            !(classes.contains("react") || classes.contains("delete"))
        }
        None => false,
    }
}

/// One message in the list: a status update, or a post with its thread
/// marker, highlighted mentions, replies and "Reply in thread".
#[component]
pub fn MessageLine(
    /// The message.
    line: Line,
    /// An excerpt of the message it answers, when it is in a thread.
    parent: Option<String>,
    /// It continues the previous message's group (same author, minutes apart).
    grouped: bool,
    /// Its replies.
    replies: Replies,
) -> impl IntoView {
    let chat = Chat::get();
    // A reply also sent to the conversation opens the thread it is in.
    let root = chat
        .lines
        .with_untracked(|all| crate::chat::list::jump::thread_root(all, line.id))
        .unwrap_or(line.id);
    let thread = Session::get().path(&Place::Thread(root));
    let state = match &line.state {
        LineState::Received => "received".to_owned(),
        LineState::Pending => "pending".to_owned(),
        LineState::Sent => "sent".to_owned(),
        LineState::Rejected(reason) => format!("not delivered: {}", isolate(reason)),
    };
    let at = line.at;
    if line.status {
        return view! {
            <li class="message status-update" data-id=line.id.to_string()>
                <span class="source" title=line.source.clone()>{Members::name_of(&line.source)}</span>
                <span class="content">{line.content}</span>
                <Time at />
            </li>
        }
        .into_any();
    }
    if line.deleted {
        let id = line.id;
        return view! {
            <li class="message deleted" class:grouped=grouped data-id=line.id.to_string()
                class:highlighted=move || chat.is_highlighted(id)>
                <p class="meta">
                    <Avatar address=line.source.clone() />
                    <Author address=line.source.clone() />
                    <Time at />
                </p>
                <p class="content"><span class="deleted-text">"This message was deleted."</span></p>
            </li>
        }
        .into_any();
    }
    let id = line.id;
    let excerpt = excerpt_of(&line.content);
    let editing = RwSignal::new(false);
    let editable = line.ioa.is_none() && line.state == LineState::Sent;
    let body = match line.ioa.clone() {
        Some(ioa) => view! { <IoaCard line=line.clone() ioa=ioa /> }.into_any(),
        None => {
            let content = line.content.clone();
            // Mentions show the names people go by, and change when they do.
            let html = Memo::new(move |_| to_html_named(&content, &Members::names()));
            view! { <div class="markdown" hidden=move || editing.get() inner_html=html></div> }
        }
        .into_any(),
    };
    let edit_form = {
        let line = line.clone();
        move || {
            editing
                .get()
                .then(|| view! { <EditForm line=line.clone() editing /> })
        }
    };
    // A message the network has (not one still queued or refused) takes reactions.
    let reactable =
        line.ioa.is_none() && matches!(line.state, LineState::Sent | LineState::Received);
    let react_line = line.clone();
    let chips_line = line.clone();
    let own_actions = editable.then(|| view! { <OwnActions line=line.clone() editing /> });
    // Up-arrow in the composer asked for this message's edit box.
    if editable {
        Effect::new(move |_| {
            if chat.edit_request.get() == Some(id) {
                chat.edit_request.set(None);
                editing.set(true);
            }
        });
    }
    let edited = line.edited;
    let in_thread = use_context::<InThread>().is_some_and(|t| t.0);
    let thread_label = match replies.count {
        0 => String::new(),
        1 => "1 reply".to_owned(),
        n => format!("{n} replies"),
    };
    let sheet = RwSignal::new(false);
    let more_label = format!("Actions on “{}”", isolate(&excerpt));
    let data_state = state.clone();
    let delivered = line.state == LineState::Sent;
    let mine = !matches!(line.state, LineState::Received);
    let has_replies = replies.count > 0 && !in_thread;
    let thread_name = format!("Thread of “{}”: {thread_label}", isolate(&excerpt));
    let reply_name = format!("Reply in thread to “{}”", isolate(&excerpt));
    let focus_thread = chat.threads.focus;
    let quote = parent.map(|p| match in_thread {
        true => view! { <span class="thread">{format!("↪ in reply to “{}”", isolate(&p))}</span> }.into_any(),
        false => view! {
            <a class="thread" href=thread.clone()>{format!("↪ replied in the thread of “{}”", isolate(&p))}</a>
        }.into_any(),
    });
    view! {
        <li class="message" class:grouped=grouped class:mine=mine
            class:highlighted=move || chat.is_highlighted(id)
            data-id=line.id.to_string() data-state=data_state>
            <p class="meta">
                <Avatar address=line.source.clone() />
                <Author address=line.source.clone() />
                <Time at />
            </p>
            <div class="content">
                {quote}
                {line.delegated_by.clone().map(|by| view! { <span class="delegated">{format!("delegated by {}", Members::name_of(&by))}</span> })}
                <span class="text">{body}</span>
                <crate::chat::files::attachment_view::AttachmentList attachments=line.attachments.clone() />
                <crate::chat::agents::steps::Steps steps=line.steps.clone() />
                {edit_form}
                {edited.then(|| view! { <span class="edited" title="This message was edited">"(edited)"</span> })}
                {line.change_refused.clone().map(|why| view! {
                    <span class="change-refused" role="status">{format!("Not changed: {}", isolate(&why))}</span>
                })}
            </div>
            // Delivered is the rule: said only to a screen reader; pending or refused shows.
            <span class=if delivered { "state visually-hidden" } else { "state" }>{state}</span>
            <ReactionChips line=chips_line />
            // On a phone the actions wait behind "…": a sheet of 44 px targets.
            <button type="button" class="more" aria-label=more_label
                aria-expanded=move || sheet.get().to_string() on:click=move |_| sheet.update(|s| *s = !*s)>"…"</button>
            <span class="actions" class:sheet=move || sheet.get() on:click=move |ev| {
                if closes_sheet(&ev) {
                    sheet.set(false);
                }
            }>
                {has_replies.then(|| view! {
                    <a class="thread-link has-replies" href=thread.clone() aria-label=thread_name>{thread_label}</a>
                    <span class="last-reply"><Time at=replies.last_at prefix="last reply " /></span>
                })}
                // One way into a thread: it opens with its composer focused.
                {(!in_thread).then(|| view! {
                    <a class="reply-in-thread" href=thread.clone() aria-label=reply_name
                        on:click=move |_| focus_thread.set(true)>"Reply in thread"</a>
                })}
                {reactable.then(|| view! { <ReactButton line=react_line.clone() sheet /> })}
                {own_actions}
                <button type="button" class="sheet-close">"Cancel"</button>
            </span>
        </li>
    }
    .into_any()
}
