//! The card an IOA message is shown as inside its line: a checkpoint with
//! its options as buttons (a click posts the reply and the card then shows
//! the answer), a handoff or a swarm with its recipients and targets, a team
//! message with its team.

use super::{IoaKind, IoaMessage, answer};
use crate::chat::messages::Line;
use crate::chat::state::Chat;
use crate::session::Session;
use agentnet_core::{Address, EventId};
use leptos::prelude::*;

/// Posts the reply to checkpoint `id` in `channel` with `option`, and shows it.
fn pick(session: Session, chat: Chat, channel: &str, id: EventId, option: &str) {
    let Some((kind, target, payload, metadata)) = channel
        .parse::<Address>()
        .ok()
        .and_then(|c| answer(&c, id, option))
    else {
        return;
    };
    let posted = session.with_connection(|c| {
        let id = c.post_with(kind, target, payload, metadata);
        c.outgoing(id)
    });
    match posted.flatten() {
        Some(event) => chat.show_posted(event),
        None => session.report("The workspace is still opening: try again in a moment."),
    }
}

fn recipients(ioa: &IoaMessage) -> impl IntoView + use<> {
    (!ioa.recipients.is_empty()).then(|| {
        view! { <p class="ioa-recipients">"To: " {ioa.recipients.join(", ")}</p> }
    })
}

/// The card of the IOA message on `line` (in conversation `channel`).
#[component]
pub fn IoaCard(
    /// The message's line.
    line: Line,
    /// The IOA view of it.
    ioa: IoaMessage,
) -> impl IntoView {
    let session = Session::get();
    let chat = Chat::get();
    let id = line.id;
    let channel = line.conversation.clone();
    let to = recipients(&ioa);
    match ioa.kind {
        IoaKind::Checkpoint { title, body, status, options } => {
            // The answer, once a reply names this checkpoint.
            let answered = Memo::new(move |_| chat.answer_to(id));
            let buttons = options
                .into_iter()
                .map(|option| {
                    let channel = channel.clone();
                    let label = option.clone();
                    view! {
                        <button type="button" class="ioa-option"
                            disabled=move || answered.get().is_some()
                            on:click=move |_| pick(session, chat, &channel, id, &option)>{label}</button>
                    }
                })
                .collect_view();
            let label = format!("Checkpoint: {title}");
            view! {
                <section class="ioa-card ioa-checkpoint" aria-label=label>
                    <h3>{title}</h3>
                    {status.map(|s| view! { <p class="ioa-status">{s}</p> })}
                    <p>{body}</p>
                    {to}
                    <div class="ioa-options">{buttons}</div>
                    <Show when=move || answered.get().is_some()>
                        <p class="ioa-answered">{move || format!("Answered: {}", answered.get().unwrap_or_default())}</p>
                    </Show>
                </section>
            }
            .into_any()
        }
        IoaKind::Handoff { title, message } => view! {
            <section class="ioa-card ioa-handoff" aria-label="Handoff">
                <h3>"Handoff: " {title}</h3>
                <p>{message}</p>
                {to}
            </section>
        }
        .into_any(),
        IoaKind::Swarm { content, targets, task } => view! {
            <section class="ioa-card ioa-swarm" aria-label="Swarm">
                <h3>{if task { "Swarm task" } else { "Swarm" }}</h3>
                <p>{content}</p>
                <p class="ioa-targets">"Targets: " {targets.join(", ")}</p>
                {to}
            </section>
        }
        .into_any(),
        IoaKind::Team { team, text } => view! {
            <section class="ioa-card ioa-team"><span class="ioa-team-name">{team}</span> " " {text}</section>
        }
        .into_any(),
        IoaKind::Answer { .. } | IoaKind::Plain(_) => view! {
            <span class="ioa-text">{line.content.clone()}</span>
            {to}
        }
        .into_any(),
    }
}
