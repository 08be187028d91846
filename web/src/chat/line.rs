//! One message as the list shows it: its author and time (unless it
//! continues a group), the message it answers, its text with highlighted
//! mentions, its delivery state, its thread (how many replies, the last
//! one's time) and a Reply button. Its text is Markdown ([`super::markdown`]).
//! An edited message says so; a deleted one leaves a placeholder; the
//! person's own can be edited and deleted ([`super::own`]); reactions show
//! under it ([`super::reactions`]).

use super::markdown::to_html;
use super::messages::{Line, LineState, excerpt_of};
use super::own::{EditForm, OwnActions};
use super::reactions::{ReactButton, ReactionChips};
use super::state::Chat;
use super::time::Clock;
use crate::bidi::isolate;
use crate::ioa::card::IoaCard;
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

/// One message in the list: a status update, or a post with its thread
/// marker, highlighted mentions, replies and a Reply button.
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
    let thread = Session::get().path(&Place::Thread(line.id));
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
                <span class="source">{line.source}</span>
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
                    <span class="source">{line.source}</span>
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
        None => view! {
            <div class="markdown" hidden=move || editing.get() inner_html=to_html(&line.content)></div>
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
    let edited = line.edited;
    let in_thread = use_context::<InThread>().is_some_and(|t| t.0);
    let thread_label = match replies.count {
        0 => "Thread".to_owned(),
        1 => "1 reply".to_owned(),
        n => format!("{n} replies"),
    };
    let data_state = state.clone();
    let mine = !matches!(line.state, LineState::Received);
    let has_replies = replies.count > 0;
    let thread_name = match replies.count {
        0 => format!("Thread of “{}”", isolate(&excerpt)),
        _ => format!("Thread of “{}”: {thread_label}", isolate(&excerpt)),
    };
    view! {
        <li class="message" class:grouped=grouped class:mine=mine
            class:highlighted=move || chat.is_highlighted(id)
            data-id=line.id.to_string() data-state=data_state>
            <p class="meta">
                <span class="source">{line.source}</span>
                <Time at />
            </p>
            <div class="content">
                {parent.map(|p| view! { <span class="thread">{format!("↪ in reply to “{}”", isolate(&p))}</span> })}
                {line.delegated_by.clone().map(|by| view! { <span class="delegated">{format!("delegated by {by}")}</span> })}
                <span class="text">{body}</span>
                <super::attachment_view::AttachmentList attachments=line.attachments.clone() />
                <super::steps::Steps steps=line.steps.clone() />
                {edit_form}
                {edited.then(|| view! { <span class="edited" title="This message was edited">"(edited)"</span> })}
                {line.change_refused.clone().map(|why| view! {
                    <span class="change-refused" role="status">{format!("Not changed: {}", isolate(&why))}</span>
                })}
            </div>
            <span class="state">{state}</span>
            <ReactionChips line=chips_line />
            <span class="actions">
                <a class="thread-link" class:has-replies=has_replies href=thread aria-label=thread_name>{thread_label}</a>
                {has_replies.then(|| view! { <span class="last-reply"><Time at=replies.last_at prefix="last reply " /></span> })}
                <button type="button" class="reply" aria-label=format!("Reply to “{}”", isolate(&excerpt))
                    on:click=move |_| chat.reply_to(id, excerpt.clone(), in_thread)>"Reply"</button>
                {reactable.then(|| view! { <ReactButton line=react_line.clone() /> })}
                {own_actions}
            </span>
        </li>
    }
    .into_any()
}
