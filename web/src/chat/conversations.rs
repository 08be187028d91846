//! Conversations: everyone (broadcast), channels (sessions) and direct
//! conversations with one person. Which one a message belongs to follows
//! from its target and source; the sidebar lists them and creates channels.

use super::Chat;
use leptos::prelude::*;

/// The conversation with everyone.
pub const EVERYONE: &str = "agent:broadcast";

/// The conversation a message belongs to, seen by `me`: the broadcast, its
/// channel, or the other person of a direct message.
pub fn conversation_of(target: &str, source: &str, me: &str) -> String {
    if target == EVERYONE || target.starts_with("channel/") {
        target.to_owned()
    } else if target == me {
        source.to_owned()
    } else {
        target.to_owned()
    }
}

/// The channels in a discover answer's payload (`{channels: ["channel/x", …]}`),
/// read as the core's typed roster (none when it does not read).
pub fn channels_from(payload: &serde_json::Value) -> Vec<String> {
    agentnet_core::answers::read_payload::<agentnet_core::model::payloads::Roster>(payload)
        .map(|roster| roster.channels)
        .unwrap_or_default()
        .into_iter()
        .filter(|c| matches!(c.entity(), agentnet_core::Entity::Channel(_)))
        .map(|c| c.to_string())
        .collect()
}

/// How a conversation is named in the sidebar.
pub fn title_of(conversation: &str) -> String {
    match conversation {
        EVERYONE => "Everyone".to_owned(),
        c => c
            .strip_prefix("channel/")
            .map_or_else(|| c.to_owned(), |name| format!("# {name}")),
    }
}

/// The sidebar of conversations.
#[component]
pub fn Conversations() -> impl IntoView {
    let chat = Chat::get();
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
                        <button type="button" class="open"
                            aria-current={
                                let c = conversation.clone();
                                move || (current.get() == c).then_some("true")
                            }
                            on:click={
                                let c = conversation.clone();
                                move |_| chat.open(c.clone())
                            }>{title_of(&conversation)}</button>
                    </li>
                </For>
            </ul>
            <Show when=move || current.get().starts_with("channel/")>
                <button type="button" class="leave" on:click=move |_| chat.leave(current.get_untracked())>
                    {move || format!("Leave {}", title_of(&current.get()))}
                </button>
            </Show>
            <form class="new-channel" on:submit=submit>
                <label for="new-channel">"New channel"</label>
                <input id="new-channel" autocomplete="off" placeholder="name"
                    prop:value=move || name.get()
                    on:input=move |ev| set_name.set(event_target_value(&ev)) />
                <button type="submit">"Create"</button>
            </form>
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_belong_to_the_broadcast_their_channel_or_the_other_person() {
        let me = "human:ann";
        assert_eq!(conversation_of(EVERYONE, "agent:x", me), EVERYONE);
        assert_eq!(conversation_of("channel/plan", me, me), "channel/plan");
        assert_eq!(conversation_of(me, "agent:bob", me), "agent:bob");
        assert_eq!(conversation_of("agent:bob", me, me), "agent:bob");
        assert_eq!(title_of(EVERYONE), "Everyone");
        assert_eq!(title_of("channel/plan"), "# plan");
        assert_eq!(title_of("agent:bob"), "agent:bob");
    }
}
