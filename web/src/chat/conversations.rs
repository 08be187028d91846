//! Conversations: everyone (broadcast), channels (sessions) and direct
//! conversations with one person. Which one a message belongs to follows
//! from its target and source, and how the sidebar ([`crate::chat::sidebar::view`])
//! names it.

/// The conversation with everyone.
pub const EVERYONE: &str = "agent:broadcast";

/// The conversation a message belongs to, seen by `me`: the broadcast, its
/// channel, or the other person of a direct message.
pub fn conversation_of(target: &str, source: &str, me: &str) -> String {
    if !is_direct(target) {
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

/// The channels' display names in a discover answer's payload
/// (`titles`: `channel/{name}` → the name its creator typed).
pub fn titles_from(payload: &serde_json::Value) -> std::collections::BTreeMap<String, String> {
    agentnet_core::answers::read_payload::<agentnet_core::model::payloads::Roster>(payload)
        .map(|roster| roster.titles)
        .unwrap_or_default()
}

/// The address part of a channel people call `wanted`: lowercase letters,
/// digits, dots and underscores kept, every other run of characters one
/// dash ("Team Room" → `team-room`); `None` when nothing is left.
pub fn channel_slug(wanted: &str) -> Option<String> {
    let mut slug = String::new();
    for c in wanted.trim().trim_start_matches('#').chars() {
        match c {
            'a'..='z' | '0'..='9' | '.' | '_' => slug.push(c),
            'A'..='Z' => slug.push(c.to_ascii_lowercase()),
            _ if !slug.ends_with('-') => slug.push('-'),
            _ => {}
        }
    }
    let slug = slug.trim_matches(['-', '.']);
    (!slug.is_empty()).then(|| slug.to_owned())
}

/// How a conversation is named in the sidebar: Everyone, `# channel`, and
/// a direct conversation by the other person's display name (`agent:bob`
/// is "bob"), as People names them; the sidebar marks agents and the
/// conversation's header shows the whole address ([`direct_address`]).
pub fn title_of(conversation: &str) -> String {
    match conversation {
        EVERYONE => "Everyone".to_owned(),
        c => match c.strip_prefix("channel/") {
            Some(name) => format!("# {}", crate::bidi::isolate(name)),
            None => crate::people::order::display_name(c).to_owned(),
        },
    }
}

/// True for a direct conversation (not everyone, not a channel).
pub fn is_direct(conversation: &str) -> bool {
    conversation != EVERYONE && !conversation.starts_with("channel/")
}

/// The other person's address, when `conversation` is a direct one.
pub fn direct_address(conversation: &str) -> Option<&str> {
    is_direct(conversation).then_some(conversation)
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
        assert_eq!(title_of("agent:bob"), "bob");
        assert_eq!(title_of("human:ann"), "ann");
        assert_eq!(direct_address("agent:bob"), Some("agent:bob"));
        assert_eq!(direct_address("channel/plan"), None);
        assert_eq!(direct_address(EVERYONE), None);
    }

    #[test]
    fn a_channel_named_for_people_is_addressed_by_its_slug() {
        assert_eq!(channel_slug("Team Room").as_deref(), Some("team-room"));
        assert_eq!(
            channel_slug("  # Q3 -- plans! ").as_deref(),
            Some("q3-plans")
        );
        assert_eq!(channel_slug("release_1.2").as_deref(), Some("release_1.2"));
        assert_eq!(channel_slug("Café crème").as_deref(), Some("caf-cr-me"));
        assert_eq!(channel_slug("!!!"), None);
        assert_eq!(channel_slug(""), None);
        let slug = channel_slug("Team Room").unwrap();
        assert!(
            format!("channel/{slug}")
                .parse::<agentnet_core::Address>()
                .is_ok()
        );
    }
}
