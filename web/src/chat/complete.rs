//! `@` completion in the composer: typing `@` and part of a member's address
//! or name offers the matching members (online first, at most
//! [`MAX_OFFERED`]); arrows move through them, Enter or Tab (or a click)
//! puts `@address ` in place of what was typed, Escape closes the list. An
//! address typed out whole offers nothing (Enter sends).
//! What is typed and where the caret is are read from the text area; the
//! models ([`typed_mention`], [`matching`], [`completed`]) are pure.

use crate::people::person::{Members, Person};
use leptos::prelude::*;

/// The most members offered at once.
pub const MAX_OFFERED: usize = 8;

/// Characters an address may have after the `@` (what completion reads back).
fn in_address(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, ':' | '_' | '-' | '.' | '/')
}

/// The byte index of UTF-16 position `units` in `text` (a text area counts in UTF-16).
pub fn byte_at_utf16(text: &str, units: usize) -> usize {
    let mut seen = 0;
    for (i, c) in text.char_indices() {
        if seen >= units {
            return i;
        }
        seen += c.len_utf16();
    }
    text.len()
}

/// The mention being typed before the caret (a byte index): where its `@`
/// is and what follows it. Only an `@` at the start or after a space counts.
pub fn typed_mention(text: &str, caret: usize) -> Option<(usize, String)> {
    let before = text.get(..caret)?;
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| in_address(*c))
        .last()
        .map_or(caret, |(i, _)| i);
    let at = start.checked_sub(1)?;
    if before.get(at..start)? != "@" {
        return None;
    }
    let preceded = before[..at].chars().next_back();
    preceded
        .is_none_or(char::is_whitespace)
        .then(|| (at, before[start..].to_owned()))
}

/// The members `query` matches (in their address, their name after the
/// kind, or the display name they go by), online first, then by address;
/// never the person themself.
pub fn matching(people: &[Person], query: &str, me: &str) -> Vec<String> {
    let query = query.to_lowercase();
    let mut found: Vec<&Person> = people
        .iter()
        .filter(|p| p.address != me)
        .filter(|p| {
            let address = p.address.to_lowercase();
            let name = address.split_once(':').map_or(address.as_str(), |(_, n)| n);
            let shown = p.name.as_deref().unwrap_or_default().to_lowercase();
            address.starts_with(&query)
                || name.starts_with(&query)
                || name.contains(&query)
                || shown.contains(&query)
        })
        .collect();
    found.sort_by_key(|p| (p.status != "online", p.address.clone()));
    found
        .into_iter()
        .take(MAX_OFFERED)
        .map(|p| p.address.clone())
        .collect()
}

/// `text` with the mention typed at `at` (up to the caret) replaced by
/// `@address `; answers the new text and the caret's byte index after it.
pub fn completed(text: &str, at: usize, caret: usize, address: &str) -> (String, usize) {
    let inserted = format!("@{address} ");
    let rest = text.get(caret..).unwrap_or("");
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    let head = text.get(..at).unwrap_or(text);
    (
        format!("{head}{inserted}{rest}"),
        head.len() + inserted.len(),
    )
}

/// The completion open in one composer: where the `@` is, the caret, the members offered, the one chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offer {
    /// The `@`'s byte index.
    pub at: usize,
    /// The caret's byte index.
    pub caret: usize,
    /// The members offered.
    pub members: Vec<String>,
    /// The one the arrows are on.
    pub active: usize,
}

/// Reads what is typed before the caret: the offer to show, if any.
pub fn offer_for(text: &str, caret_utf16: usize, me: &str) -> Option<Offer> {
    let caret = byte_at_utf16(text, caret_utf16);
    let (at, query) = typed_mention(text, caret)?;
    let members = Members::get()?.with_untracked(|people| matching(people, &query, me));
    // A whole address typed out has nothing left to complete: Enter sends.
    let whole = members.iter().any(|m| m.eq_ignore_ascii_case(&query));
    (!members.is_empty() && !whole).then_some(Offer {
        at,
        caret,
        members,
        active: 0,
    })
}

/// The list of members offered under a composer (`id` names it for the text area's ARIA).
#[component]
pub fn MentionList(
    /// The list's id.
    id: &'static str,
    /// The offer shown.
    offer: RwSignal<Option<Offer>>,
    /// Called with the member clicked.
    choose: Callback<String>,
) -> impl IntoView {
    move || {
        offer.get().map(|o| {
            let options = o
                .members
                .iter()
                .enumerate()
                .map(|(i, address)| {
                    let chosen = address.clone();
                    view! {
                        <li role="option" id=format!("{id}-{i}") aria-selected=(i == o.active).to_string()
                            class:active=i == o.active
                            on:mousedown=move |ev| { ev.prevent_default(); choose.run(chosen.clone()); }>
                            <strong>{crate::people::person::Members::name_of(address)}</strong>
                            " "
                            <span class="address">{address.clone()}</span>
                        </li>
                    }
                })
                .collect_view();
            view! { <ul class="mention-list" id=id role="listbox" aria-label="Members to mention">{options}</ul> }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mention_is_typed_after_a_space_or_at_the_start() {
        assert_eq!(typed_mention("@pl", 3), Some((0, "pl".into())));
        assert_eq!(
            typed_mention("hi @agent:pl", 12),
            Some((3, "agent:pl".into()))
        );
        assert_eq!(typed_mention("hi @", 4), Some((3, String::new())));
        assert_eq!(typed_mention("mail a@b", 8), None, "not inside a word");
        assert_eq!(
            typed_mention("hi @pl now", 10),
            None,
            "the caret has moved on"
        );
        assert_eq!(
            typed_mention("héllo @ré", "héllo @ré".len()),
            Some((7, "ré".into()))
        );
        assert_eq!(typed_mention("x", 5), None);
    }

    #[test]
    fn utf16_positions_become_byte_indices() {
        let text = "👍 @a";
        assert_eq!(
            byte_at_utf16(text, 2),
            4,
            "an emoji is two UTF-16 units, four bytes"
        );
        assert_eq!(byte_at_utf16(text, 5), text.len());
        assert_eq!(byte_at_utf16(text, 99), text.len());
    }

    #[test]
    fn members_match_by_address_or_name_online_first_not_me() {
        let people = vec![
            Person::test("agent:planner", "offline"),
            Person::test("agent:plotter", "online"),
            Person::test("human:pat", "online"),
            Person::test("human:me", "online"),
        ];
        assert_eq!(
            matching(&people, "pl", "human:me"),
            vec!["agent:plotter", "agent:planner"]
        );
        assert_eq!(matching(&people, "human:", "human:me"), vec!["human:pat"]);
        assert_eq!(matching(&people, "", "human:me").len(), 3);
        assert!(matching(&people, "zz", "human:me").is_empty());
        // The name a member goes by finds it too.
        let mut named = people.clone();
        named[2].name = Some("Zora Patel".into());
        assert_eq!(matching(&named, "zo", "human:me"), vec!["human:pat"]);
    }

    #[test]
    fn completing_puts_the_address_and_one_space_in_place() {
        assert_eq!(
            completed("hi @pl", 3, 6, "agent:planner"),
            ("hi @agent:planner ".into(), 18)
        );
        let (text, caret) = completed("@pl thanks", 0, 3, "agent:planner");
        assert_eq!(text, "@agent:planner thanks");
        assert_eq!(&text[..caret], "@agent:planner ");
    }
}
