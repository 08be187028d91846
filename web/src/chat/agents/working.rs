//! Agents at work, under the conversation: for each pending activity
//! ([`crate::chat::agents::activity`]) an entry that looks like the message it becomes —
//! the agent's name, what it is doing ("is thinking…", "is using search…")
//! and, as it writes, its answer so far in Markdown, growing in place — with
//! a Stop control for the person who asked, which sends
//! `workspace.agent.stop` to the agent. The answer's own message takes the
//! entry's place in the same update, so nothing flickers.

use crate::chat::agents::activity::{Activity, read};
use crate::chat::list::time::now_ms;
use crate::chat::state::Chat;
use crate::chat::text::markdown::to_html;
use agentnet_core::model::payloads::Payload;
use agentnet_core::vocabulary::agents::AgentStop;
use agentnet_core::vocabulary::event_types::{AGENT_ACTIVITY, AGENT_STOP};
use agentnet_core::{Address, Event, EventId};
use leptos::prelude::*;

impl Chat {
    /// Takes an agent's activity event (one that does not read is dropped);
    /// false for any other event.
    pub(crate) fn take_activity(&self, event: &Event) -> bool {
        if event.event_type.as_str() != AGENT_ACTIVITY {
            return false;
        }
        let now = now_ms();
        if let Some(said) = read(event, &self.session.me_text(), now) {
            self.activities.update(|a| a.apply(said, now));
        }
        true
    }

    /// A message received: when it is an agent's answer, that agent's turn
    /// on the message it answers is over.
    pub(crate) fn take_answer(&self, line: &crate::chat::messages::Line) {
        if line.answers.is_some() {
            self.activities.update(|a| a.answered(line));
        }
    }

    /// The pending activities the conversation's list shows (or, `in_thread`,
    /// the open thread's).
    fn pending_in(&self, in_thread: bool) -> Vec<Activity> {
        let thread = self.thread.get();
        if in_thread && thread.is_none() {
            return Vec::new();
        }
        let conversation = self.current.get();
        let now = self.clock.now.get();
        self.activities.with(|a| {
            self.lines
                .with(|lines| a.pending(lines, &conversation, thread.filter(|_| in_thread), now))
        })
    }

    /// Asks `agent` to stop answering `message`.
    fn stop(&self, agent: &str, message: EventId) {
        let Ok(to) = agent.parse::<Address>() else {
            return;
        };
        let payload = AgentStop { message }.to_json();
        if self.session.post(AGENT_STOP, to, payload).is_some() {
            self.activities.update(|a| a.stopping(agent, message));
        } else {
            self.session
                .report(format!("{agent} was not asked to stop: not connected."));
        }
    }
}

/// The agents at work in the list's view (the conversation, or the open
/// thread), after its messages.
#[component]
pub fn PendingAnswers(
    /// The thread's list.
    in_thread: bool,
) -> impl IntoView {
    let chat = Chat::get();
    let pending = Memo::new(move |_| chat.pending_in(in_thread));
    view! {
        <For each=move || pending.get() key=|a| (a.agent.clone(), a.message) let:activity>
            <PendingAnswer agent=activity.agent message=activity.message pending />
        </For>
    }
}

/// One agent's answer in the making; it follows `pending` while it is there.
#[component]
fn PendingAnswer(agent: String, message: EventId, pending: Memo<Vec<Activity>>) -> impl IntoView {
    let chat = Chat::get();
    let me = chat.session.me_text();
    let whose = agent.clone();
    let current = Memo::new(move |_| {
        pending.with(|p| {
            p.iter()
                .find(|a| a.agent == whose && a.message == message)
                .cloned()
        })
    });
    let label = move || current.with(|a| a.as_ref().map(Activity::label).unwrap_or_default());
    let text =
        move || current.with(|a| a.as_ref().map(|a| a.text().to_owned()).unwrap_or_default());
    let html = Memo::new(move |_| to_html(&text()));
    let writing = move || current.with(|a| a.as_ref().is_some_and(|a| !a.text().is_empty()));
    let stopping = move || current.with(|a| a.as_ref().is_some_and(|a| a.stopping));
    // Only the person who asked may stop it.
    let asked_by_me = Memo::new(move |_| {
        chat.lines
            .with(|l| l.iter().any(|x| x.id == message && x.source == me))
    });
    let stop_agent = agent.clone();
    let data_agent = agent.clone();
    let stop = move || {
        let agent = stop_agent.clone();
        asked_by_me.get().then(|| {
            let whose = format!("{agent}'s answer");
            let name = move || match stopping() {
                true => format!("Stopping {whose}"),
                false => format!("Stop {whose}"),
            };
            view! {
                <button type="button" class="stop-answer" aria-label=name
                    disabled=stopping on:click=move |_| chat.stop(&agent, message)>
                    <span class="stop-icon" aria-hidden="true"></span>
                    {move || if stopping() { "Stopping…" } else { "Stop" }}
                </button>
            }
        })
    };
    view! {
        // Its own live region, off: the log does not read out every word as
        // it grows; what the agent is doing is a status, read once a change.
        <li class="message answering" aria-live="off" data-agent=data_agent
            data-message=message.to_string() class:writing=writing>
            <p class="meta">
                <crate::people::face::Avatar address=agent.clone() />
                <span class="source" data-address=agent.clone()>{crate::people::person::Members::name_of(&agent)}</span>
                <span class="badge agent-badge">"Agent"</span>
                <span class="doing" role="status">
                    <span class="typing" aria-hidden="true"><i></i><i></i><i></i></span>
                    {label}
                </span>
            </p>
            <div class="content" hidden=move || !writing()>
                <span class="text"><div class="markdown" inner_html=move || html.get()></div></span>
            </div>
            <span class="answer-control">{stop}</span>
        </li>
    }
}
