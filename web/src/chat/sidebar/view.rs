//! The sidebar of conversations: everyone, the channels and direct
//! conversations to open (each with its unread count, mentions and direct
//! messages marked apart), leaving the open channel, creating a new one, and
//! the bell that turns notifications on ([`crate::chat::attention::notify`]).

use crate::chat::state::Chat;
use crate::people::order::{Kind, kind_of};
use crate::routes::Place;
use crate::session::{Pane, Session};
use leptos::prelude::*;

/// The sidebar of conversations.
#[component]
pub fn Conversations() -> impl IntoView {
    let chat = Chat::get();
    let session = Session::get();
    let current = chat.current.read_only();
    let (name, set_name) = signal(String::new());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let wanted = name
            .get_untracked()
            .trim()
            .trim_start_matches('#')
            .trim()
            .to_owned();
        if !wanted.is_empty() {
            chat.create(wanted);
            set_name.set(String::new());
        }
    };
    view! {
        <nav class="conversations" aria-label="Conversations">
            <h2>"Conversations"</h2>
            <ul>
                <For each=move || chat.conversations() key=|c| c.clone() let:conversation>
                    <li>
                        <a class="open" href=session.path(&Place::Conversation(conversation.clone()))
                            aria-current={
                                let c = conversation.clone();
                                move || (session.pane() == Pane::Conversation && current.get() == c).then_some("page")
                            }>
                            <span class="name">{
                                let c = conversation.clone();
                                move || chat.title_of(&c)
                            }{
                                // An agent's direct conversation says so (whom People groups as
                                // agents), as Slack marks apps.
                                crate::chat::conversations::direct_address(&conversation)
                                    .filter(|address| kind_of(address) == Kind::Agent)
                                    .map(|_| view! { " " <span class="kind">"agent"</span> })
                            }</span>
                            {
                                // An agent at work on an answer here ([`crate::chat::agents::working`]).
                                let c = conversation.clone();
                                move || {
                                    let now = chat.clock.now.get();
                                    chat.activities.with(|a| a.working_in(&c, now)).then(|| view! {
                                        <span class="working" title="An agent is at work here">
                                            <span class="typing" aria-hidden="true"><i></i><i></i><i></i></span>
                                            <span class="visually-hidden">", an agent is at work"</span>
                                        </span>
                                    })
                                }
                            }
                            {
                                let c = conversation.clone();
                                move || {
                                    let unread = chat.unread(&c);
                                    (unread.count > 0).then(|| view! {
                                        <span class="unread" class:for-me=unread.for_me
                                            class:mention={unread.mentions > 0} class:direct=unread.direct>
                                            {(unread.mentions > 0).then(|| view! { <span class="at" aria-hidden="true">"@"</span> })}
                                            {unread.count}
                                            <span class="visually-hidden">{unread_words(unread)}</span>
                                        </span>
                                    })
                                }
                            }
                            </a>
                    </li>
                </For>
            </ul>
            <Show when=move || current.get().starts_with("channel/")>
                <button type="button" class="leave" on:click=move |_| chat.leave(current.get_untracked())>
                    {move || format!("Leave {}", crate::bidi::isolate(&chat.title_of(&current.get())))}
                </button>
            </Show>
            <form class="new-channel" on:submit=submit>
                <label for="new-channel">"New channel"</label>
                <input id="new-channel" autocomplete="off" placeholder="name"
                    prop:value=move || name.get()
                    on:input=move |ev| set_name.set(event_target_value(&ev)) />
                <button type="submit">"Create"</button>
            </form>
            <crate::chat::attention::notify::NotifyControl />
        </nav>
    }
}

/// What a screen reader hears after an unread count.
fn unread_words(unread: crate::chat::attention::unread::Unread) -> String {
    match (unread.direct, unread.mentions) {
        (true, _) => " unread, for you: a direct message".to_owned(),
        (false, 0) => " unread".to_owned(),
        (false, 1) => " unread, for you: a mention".to_owned(),
        (false, n) => format!(" unread, for you: {n} mentions"),
    }
}
