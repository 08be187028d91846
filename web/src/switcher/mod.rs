//! Ctrl+K (⌘K): the switcher, as Slack's and Discord's quick switcher —
//! type part of a conversation's or a person's name, arrows pick, Enter
//! goes there; its last choice searches the messages for what was typed
//! ([`crate::search`]). [`choices`] decides what is offered (pure, tested
//! without a browser); [`view`] draws it.

pub mod view;

/// One place the switcher offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// What it is called ("# general", "Everyone", "Ann").
    pub label: String,
    /// What kind of place it is ("Channel", "Direct message", "Person").
    pub kind: &'static str,
    /// The conversation it opens (`channel/general`, `human:ann`…).
    pub conversation: String,
}

/// Most choices shown at once.
pub const SHOWN: usize = 8;

/// True when every word of `query` is in `label` or `conversation`
/// (ignoring case); an empty query matches everything.
pub fn matches(query: &str, label: &str, conversation: &str) -> bool {
    let hay = format!("{} {}", label.to_lowercase(), conversation.to_lowercase());
    query
        .split_whitespace()
        .all(|word| hay.contains(&word.to_lowercase()))
}

/// What the switcher offers for `query`: the conversations (each
/// `(conversation, title)`, in the sidebar's order), then the `people`
/// (`(address, name)`) not yet in one of them, but `me`, at most [`SHOWN`].
pub fn choices(
    conversations: &[(String, String)],
    people: &[(String, String)],
    me: &str,
    query: &str,
) -> Vec<Choice> {
    let kind_of = |c: &str| {
        if c.starts_with("channel/") {
            "Channel"
        } else if c == crate::chat::conversations::EVERYONE {
            "Everyone"
        } else {
            "Direct message"
        }
    };
    let open = conversations.iter().map(|(c, title)| Choice {
        label: title.clone(),
        kind: kind_of(c),
        conversation: c.clone(),
    });
    let others = people
        .iter()
        .filter(|(address, _)| address != me && !conversations.iter().any(|(c, _)| c == address))
        .map(|(address, name)| Choice {
            label: name.clone(),
            kind: "Person",
            conversation: address.clone(),
        });
    open.chain(others)
        .filter(|c| matches(query, &c.label, &c.conversation))
        .take(SHOWN)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: &str, b: &str) -> (String, String) {
        (a.to_owned(), b.to_owned())
    }

    #[test]
    fn typing_filters_conversations_and_people_by_name_or_address() {
        let conversations = [
            pair("agent:broadcast", "Everyone"),
            pair("channel/design-review", "# Design Review"),
            pair("human:bob", "Bob Builder"),
        ];
        let people = [
            pair("human:bob", "Bob Builder"),
            pair("human:ann", "Ann"),
            pair("agent:helper", "Helper"),
            pair("human:me", "Me"),
        ];
        let all = choices(&conversations, &people, "human:me", "");
        let labels: Vec<&str> = all.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "Everyone",
                "# Design Review",
                "Bob Builder",
                "Ann",
                "Helper"
            ]
        );
        assert_eq!(all[3].kind, "Person");
        let design = choices(&conversations, &people, "human:me", "design rev");
        assert_eq!(design.len(), 1);
        assert_eq!(design[0].conversation, "channel/design-review");
        assert_eq!(design[0].kind, "Channel");
        let helper = choices(&conversations, &people, "human:me", "AGENT:hel");
        assert_eq!(helper[0].conversation, "agent:helper");
        assert!(choices(&conversations, &people, "human:me", "zebra").is_empty());
    }
}
