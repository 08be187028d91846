//! The open conversation: its messages (each line with its thread marker,
//! highlighted mentions and a Reply button), the reply being written and
//! the composer.

use super::messages::{Line, LineState, excerpt_of, mentions_in};
use super::state::Chat;
use crate::ioa::card::IoaCard;
use crate::routes::Place;
use crate::session::{Pane, Session};
use agentnet_core::EventId;
use leptos::prelude::*;

/// The lines of the thread that starts at `root`: it and every reply to a line in it.
pub fn thread_of(lines: &[Line], root: EventId) -> Vec<&Line> {
    let mut ids = vec![root];
    let mut thread = Vec::new();
    for line in lines {
        if line.id == root || line.in_reply_to.is_some_and(|p| ids.contains(&p)) {
            ids.push(line.id);
            thread.push(line);
        }
    }
    thread
}

/// The open conversation: its messages, the reply being written and the composer.
#[component]
pub fn ChatPane() -> impl IntoView {
    let session = Session::get();
    let chat = Chat::get();
    let post = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        chat.post();
    };
    view! {
        <main class="chat" hidden=move || session.pane() != Pane::Conversation>
            <Show when=move || session.problem.get().is_some()>
                <p class="problem" role="alert">{move || session.problem.get().unwrap_or_default()}</p>
            </Show>
            <Show when=move || chat.thread.get().is_none()>
                <super::session_header::SessionHeader />
            </Show>
            <Show when=move || chat.thread.get().is_some()>
                <p class="thread-bar">
                    <strong>"Thread"</strong>
                    <a href=move || session.path(&Place::Conversation(chat.thread_conversation()))>"Back to the conversation"</a>
                </p>
            </Show>
            // A log: screen readers announce new messages as they arrive.
            <div class="message-log" role="log" aria-live="polite" aria-label="Messages">
            <ul class="messages" aria-label="Conversation">
                <For
                    each=move || {
                        let open = chat.current.get();
                        let thread = chat.thread.get();
                        chat.lines.with(|all| {
                            let shown: Vec<&Line> = match thread {
                                Some(root) => thread_of(all, root),
                                None => all.iter().filter(|l| l.conversation == open).collect(),
                            };
                            // Each line with an excerpt of the message it answers.
                            shown.into_iter()
                                .map(|l| {
                                    let parent = l.in_reply_to.and_then(|p| {
                                        all.iter().find(|x| x.id == p).map(|x| excerpt_of(&x.content))
                                    });
                                    (l.clone(), parent)
                                })
                                .collect::<Vec<_>>()
                        })
                    }
                    key=|(line, parent)| (line.id, format!("{:?}", line.state), parent.is_some())
                    let:item
                >
                    <MessageLine line=item.0 parent=item.1 />
                </For>
            </ul>
            </div>
            <Show when=move || chat.replying.get().is_some()>
                <p class="replying">
                    {move || chat.replying.get().map(|(_, e)| format!("Replying to “{e}”")).unwrap_or_default()}
                    <button type="button" on:click=move |_| chat.replying.set(None)>"Cancel reply"</button>
                </p>
            </Show>
            <form class="composer" on:submit=post>
                <label for="message">"Message"</label>
                <input id="message" name="message" autocomplete="off"
                    prop:value=move || chat.draft.get()
                    on:input=move |ev| chat.draft.set(event_target_value(&ev)) />
                <button type="submit">"Send"</button>
            </form>
        </main>
    }
}

/// One message in the list: a status update, or a post with its thread marker,
/// highlighted mentions and a Reply button.
#[component]
pub fn MessageLine(
    /// The message.
    line: Line,
    /// An excerpt of the message it answers, when it is in a thread.
    parent: Option<String>,
) -> impl IntoView {
    let chat = Chat::get();
    let thread = Session::get().path(&Place::Thread(line.id));
    let state = match &line.state {
        LineState::Received => "received".to_owned(),
        LineState::Pending => "pending".to_owned(),
        LineState::Sent => "sent".to_owned(),
        LineState::Rejected(reason) => format!("not delivered: {reason}"),
    };
    if line.status {
        return view! {
            <li class="message status-update" data-id=line.id.to_string()>
                <span class="source">{line.source}</span>
                <span class="content">{line.content}</span>
            </li>
        }
        .into_any();
    }
    let words = line
        .content
        .split(' ')
        .map(|word| {
            if word.starts_with('@') && !mentions_in(word).is_empty() {
                view! { <mark class="mention">{word.to_owned()}</mark> " " }.into_any()
            } else {
                view! { {format!("{word} ")} }.into_any()
            }
        })
        .collect_view();
    let id = line.id;
    let excerpt = excerpt_of(&line.content);
    let body = match line.ioa.clone() {
        Some(ioa) => view! { <IoaCard line=line.clone() ioa=ioa /> }.into_any(),
        None => words.into_any(),
    };
    view! {
        <li class="message" data-id=line.id.to_string()>
            <span class="source">{line.source}</span>
            <span class="content">
                {parent.map(|p| view! { <span class="thread">{format!("↪ in reply to “{p}”")}</span> })}
                {line.delegated_by.clone().map(|by| view! { <span class="delegated">{format!("delegated by {by}")}</span> })}
                {body}
            </span>
            <span class="state">{state}</span>
            <span class="actions">
                <a class="thread-link" href=thread aria-label=format!("Thread of “{excerpt}”")>"Thread"</a>
                <button type="button" class="reply" aria-label=format!("Reply to “{excerpt}”")
                    on:click=move |_| chat.reply_to(id, excerpt.clone())>"Reply"</button>
            </span>
        </li>
    }
    .into_any()
}
