//! The tasks pane: the person's tasks with their state (and a form to start
//! one, at a partner picked from the members that take tasks, or a
//! channel), or one task (`/n/{network}/tasks/{id}`): who is in it, its
//! conversation (with a box to add to it, which answers a task awaiting
//! input), its artifacts — links, by their names, to the network documents
//! they are — and a Cancel button while it is not finished.

use super::model::{partner_choices, summary, text_of};
use super::state::Tasks;
use crate::chat::Chat;
use crate::people::People;
use crate::routes::Place;
use crate::session::Session;
use agentnet_core::ids::time::Timestamp;
use agentnet_core::model::task::{Task, TaskState};
use leptos::prelude::*;

/// The tasks pane: the list, or the task the URL names.
#[component]
pub fn TasksPane() -> impl IntoView {
    let session = Session::get();
    Tasks::get().follow();
    let open = Memo::new(move |_| match session.place.get() {
        Place::Task(id) => Some(id),
        _ => None,
    });
    view! {
        <section class="tasks" aria-label="Tasks">
            {move || match open.get() {
                Some(id) => view! { <TaskDetail id /> }.into_any(),
                None => view! { <TaskList /> }.into_any(),
            }}
        </section>
    }
}

/// The tasks, newest change first, and the form that starts one.
#[component]
fn TaskList() -> impl IntoView {
    let tasks = Tasks::get();
    let session = Session::get();
    let people = People::get();
    let members = people.members();
    let chat = Chat::get();
    let channels = Memo::new(move |_| {
        let mut channels: Vec<String> = chat
            .conversations()
            .into_iter()
            .filter(|c| c.starts_with("channel/"))
            .collect();
        channels.dedup();
        channels
    });
    // The picker reads who takes tasks now: the roster again, and a partner
    // the network refused is left out until it has been read.
    people.refresh();
    tasks.refused.set(Vec::new());
    let me = session.me_text();
    let choices = Memo::new(move |_| {
        let refused = tasks.refused.get();
        members.with(|m| partner_choices(m, &me, &refused))
    });
    let (partner, set_partner) = signal(String::new());
    let (text, set_text) = signal(String::new());
    // The picked partner stays picked while it is offered; else the first offered.
    Effect::new(move |_| {
        let offered = choices.get();
        let picked = partner.get_untracked();
        let channel = picked.starts_with("channel/");
        if !channel && !offered.iter().any(|c| c.address == picked) {
            set_partner.set(
                offered
                    .first()
                    .map(|c| c.address.clone())
                    .unwrap_or_default(),
            );
        }
    });
    let start = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let what = text.get_untracked().trim().to_owned();
        let to = partner.get_untracked();
        if to.is_empty() {
            tasks.problem.set(Some(
                "Choose who should do it: no member takes tasks yet.".into(),
            ));
            return;
        }
        if what.is_empty() {
            tasks.problem.set(Some("Say what the task is.".into()));
            return;
        }
        tasks.start(&to, &what);
        set_text.set(String::new());
    };
    view! {
        <h2>"Tasks"</h2>
        <form class="new-task" aria-label="Start a task" on:submit=start>
            <label>"Partner"
                <select name="partner" prop:value=move || partner.get()
                    on:change=move |ev| set_partner.set(event_target_value(&ev))>
                    <Show when=move || choices.with(Vec::is_empty)>
                        <option value="" disabled=true>"No member takes tasks yet"</option>
                    </Show>
                    <optgroup label="Members who take tasks">
                        <For each=move || choices.get() key=|c| c.clone() let:choice>
                            <option value=choice.address.clone()>{choice.label}</option>
                        </For>
                    </optgroup>
                    <Show when=move || channels.with(|c| !c.is_empty())>
                        <optgroup label="Channels (everyone in it)">
                            <For each=move || channels.get() key=|c| c.clone() let:channel>
                                <option value=channel.clone()>{format!("#{}", channel.trim_start_matches("channel/"))}</option>
                            </For>
                        </optgroup>
                    </Show>
                </select>
            </label>
            <label>"Task"
                <input name="task" autocomplete="off" placeholder="What should be done?"
                    prop:value=move || text.get()
                    on:input=move |ev| set_text.set(event_target_value(&ev)) />
            </label>
            <button type="submit">"Start task"</button>
        </form>
        <Problem />
        <Show when=move || tasks.loaded.get() && tasks.listed.with(Vec::is_empty)>
            <p class="empty">"No tasks yet."</p>
        </Show>
        <ul class="task-list" aria-label="Your tasks">
            <For each=move || tasks.listed.with(|l| l.iter().map(Row::from).collect::<Vec<_>>())
                key=|row| (row.id.clone(), row.state, row.updated_at) let:row>
                <li class="task" data-id=row.id.clone() data-state=row.state>
                    <a href=session.path(&Place::Task(row.id.clone()))>{row.summary}</a>
                    <span class="task-state">{row.state}</span>
                    <span class="details">{row.route}</span>
                </li>
            </For>
        </ul>
    }
}

/// One task: its state, conversation, artifacts and Cancel.
#[component]
fn TaskDetail(
    /// The task's id.
    id: String,
) -> impl IntoView {
    let tasks = Tasks::get();
    let session = Session::get();
    let wanted = id.clone();
    let task = move || {
        tasks
            .listed
            .with(|l| l.iter().find(|t| t.id == wanted).cloned())
    };
    let state = {
        let wanted = id.clone();
        move || {
            tasks
                .listed
                .with(|l| l.iter().find(|t| t.id == wanted).map(|t| t.state))
        }
    };
    let open = {
        let state = state.clone();
        move || state().is_some_and(|s| !s.is_terminal())
    };
    let awaiting = move || state() == Some(TaskState::AwaitingInput);
    let say_to = id.clone();
    view! {
        <p><a href=session.path(&Place::Tasks)>"All tasks"</a></p>
        <Problem />
        {move || match task() {
            None if tasks.loaded.get() => view! {
                <p class="problem" role="alert">{format!("There is no task {id} of yours in this network.")}</p>
            }.into_any(),
            None => view! { <p role="status">"Reading your tasks…"</p> }.into_any(),
            Some(task) => view! { <TaskCard task /> }.into_any(),
        }}
        // Outside the card, which is redrawn as the task changes: typing is kept.
        <Show when=open>
            <SayForm id=say_to.clone() awaiting=Signal::derive(awaiting.clone()) />
        </Show>
    }
}

/// The box that adds to a task's conversation (the input a task awaits).
#[component]
fn SayForm(
    /// The task's id.
    id: String,
    /// Whether the task waits for the person's input.
    awaiting: Signal<bool>,
) -> impl IntoView {
    let tasks = Tasks::get();
    let (draft, set_draft) = signal(String::new());
    let say = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = draft.get_untracked().trim().to_owned();
        if !text.is_empty() {
            tasks.say(&id, &text);
            set_draft.set(String::new());
        }
    };
    view! {
        <form class="task-say" on:submit=say>
            <label>{move || if awaiting.get() { "Your answer (the task waits for it)" } else { "Message to the task" }}
                <input name="say" autocomplete="off"
                    prop:value=move || draft.get()
                    on:input=move |ev| set_draft.set(event_target_value(&ev)) />
            </label>
            <button type="submit">"Send"</button>
        </form>
    }
}

#[component]
fn TaskCard(task: Task) -> impl IntoView {
    let tasks = Tasks::get();
    let session = Session::get();
    let id = task.id.to_string();
    let finished = task.state.is_terminal();
    let history = task.history.clone();
    let artifacts = task.artifacts.clone();
    view! {
        <article class="task-card" data-id=task.id.to_string() data-state=task.state.as_str()>
            <h2>{summary(&task)}</h2>
            <p class="task-status" role="status">"State: " <strong>{task.state.as_str()}</strong></p>
            <p class="details">{format!("from {} to {}", task.requester, partners(&task))}</p>
            <Show when=move || !finished>
                <button type="button" class="cancel-task" on:click={
                    let id = id.clone();
                    move |_| tasks.cancel(&id)
                }>"Cancel task"</button>
            </Show>
            <h3>"Conversation"</h3>
            <ul class="task-messages" aria-label="Task conversation">
                {history.into_iter().map(|m| view! {
                    <li class="task-message">
                        <span class="source">{m.from.to_string()}</span>
                        <span class="content">{text_of(&m.parts)}</span>
                    </li>
                }).collect_view()}
            </ul>
            <h3>"Artifacts"</h3>
            {artifacts.is_empty().then(|| view! { <p class="empty">"None yet."</p> })}
            <ul class="task-artifacts" aria-label="Artifacts">
                {artifacts.into_iter().map(|a| {
                    let name = if a.name.is_empty() { a.id.clone() } else { a.name.clone() };
                    view! {
                        <li class="artifact">
                            <a href=session.path(&Place::Document(a.resource.to_string()))>{name}</a>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </article>
    }
}

/// The last start or cancel the network refused, in words.
#[component]
fn Problem() -> impl IntoView {
    let problem = Tasks::get().problem;
    view! {
        <Show when=move || problem.get().is_some()>
            <p class="problem" role="alert">{move || problem.get().unwrap_or_default()}</p>
        </Show>
    }
}

/// One task as the list shows it.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    id: String,
    state: &'static str,
    updated_at: Timestamp,
    summary: String,
    route: String,
}

impl From<&Task> for Row {
    fn from(task: &Task) -> Self {
        Self {
            id: task.id.to_string(),
            state: task.state.as_str(),
            updated_at: task.updated_at,
            summary: summary(task),
            route: format!("{} → {}", task.requester, partners(task)),
        }
    }
}

fn partners(task: &Task) -> String {
    let partners: Vec<String> = task.partners.iter().map(ToString::to_string).collect();
    match &task.channel {
        Some(channel) => format!("channel/{channel} ({})", partners.join(", ")),
        None => partners.join(", "),
    }
}
