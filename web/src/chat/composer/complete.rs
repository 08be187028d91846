//! Completion in the composer: typing `@` and part of a member's address
//! or name offers the matching members (online first, at most
//! [`MAX_OFFERED`]); typing `:` and two letters of a shortcode offers the
//! matching emoji ([`crate::emoji::shortcode`]). Arrows move through them,
//! Enter or Tab (or a click) puts `@address ` or the emoji in place of
//! what was typed, Escape closes the list. An address typed out whole
//! offers nothing (Enter sends).
//! What is typed and where the caret is are read from the text area; the
//! models ([`typed_mention`], [`matching`], [`completed`]) are pure.

use crate::people::person::{Members, Person};
use agentnet_core::sorting::sort_by_key;
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
    crate::typed::word_before(text, caret, '@', in_address, char::is_whitespace)
        .map(|(at, word)| (at, word.to_owned()))
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
    sort_by_key(&mut found, |p| (p.status != "online", p.address.clone()));
    found
        .into_iter()
        .take(MAX_OFFERED)
        .map(|p| p.address.clone())
        .collect()
}

/// `text` with what was typed at `at` (up to the caret, and the rest of
/// its word after it) replaced by `inserted` and one space; answers the new
/// text and the caret's byte index after it.
pub fn completed(text: &str, at: usize, caret: usize, inserted: &str) -> (String, usize) {
    let inserted = format!("{inserted} ");
    // The rest of the word goes too: the caret may be inside it (a click put it there).
    let rest = text
        .get(caret..)
        .unwrap_or("")
        .trim_start_matches(in_address);
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    let head = text.get(..at).unwrap_or(text);
    (
        format!("{head}{inserted}{rest}"),
        head.len() + inserted.len(),
    )
}

/// What a completion offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    /// Members to mention (`@`).
    #[default]
    Mention,
    /// Emoji by shortcode (`:`).
    Emoji,
}

/// One thing offered: what it puts in the text, and how the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// What replaces the typed part (`@agent:planner`, `👍`).
    pub inserted: String,
    /// Shown first (the member's name, the emoji).
    pub label: String,
    /// Shown after it (the address, `:thumbsup:`).
    pub detail: String,
}

/// The completion open in one composer: where the `@` or `:` is, the caret, what is offered, the one chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offer {
    /// The `@`'s or `:`'s byte index.
    pub at: usize,
    /// The caret's byte index.
    pub caret: usize,
    /// Members or emoji.
    pub kind: Kind,
    /// What is offered.
    pub choices: Vec<Choice>,
    /// The one the arrows are on.
    pub active: usize,
}

impl Offer {
    /// This offer with the arrows one further down (`down`) or up, round the ends.
    pub fn stepped(self, down: bool) -> Self {
        let count = self.choices.len().max(1);
        let step = if down { 1 } else { count - 1 };
        Self {
            active: (self.active + step) % count,
            ..self
        }
    }
}

/// The emoji offered for a shortcode typed before `caret` (a byte index).
pub fn emoji_offer(text: &str, caret: usize) -> Option<Offer> {
    let (at, typed) = crate::emoji::shortcode::typed_code(text, caret)?;
    let choices: Vec<Choice> = crate::emoji::find::search(&typed, MAX_OFFERED)
        .into_iter()
        .map(|e| Choice {
            inserted: e.glyph.to_owned(),
            label: e.glyph.to_owned(),
            detail: format!(":{}:", e.code()),
        })
        .collect();
    (!choices.is_empty()).then_some(Offer {
        at,
        caret,
        kind: Kind::Emoji,
        choices,
        active: 0,
    })
}

/// Reads what is typed before the caret: the offer to show, if any.
pub fn offer_for(text: &str, caret_utf16: usize, me: &str) -> Option<Offer> {
    let caret = byte_at_utf16(text, caret_utf16);
    let Some((at, query)) = typed_mention(text, caret) else {
        return emoji_offer(text, caret);
    };
    let members = Members::get()?.with_untracked(|people| matching(people, &query, me));
    // A whole address typed out has nothing left to complete: Enter sends.
    let whole = members.iter().any(|m| m.eq_ignore_ascii_case(&query));
    let choices = members
        .into_iter()
        .map(|address| Choice {
            inserted: format!("@{address}"),
            label: Members::name_of(&address),
            detail: address,
        })
        .collect::<Vec<_>>();
    (!choices.is_empty() && !whole).then_some(Offer {
        at,
        caret,
        kind: Kind::Mention,
        choices,
        active: 0,
    })
}

/// The list offered under a composer (`id` names it for the text area's ARIA).
#[component]
pub fn CompletionList(
    /// The list's id.
    id: &'static str,
    /// The offer shown.
    offer: RwSignal<Option<Offer>>,
    /// Called with the choice clicked.
    choose: Callback<Choice>,
) -> impl IntoView {
    move || {
        offer.get().map(|o| {
            let options = o
                .choices
                .iter()
                .enumerate()
                .map(|(i, choice)| {
                    let chosen = choice.clone();
                    view! {
                        <li role="option" id=format!("{id}-{i}") aria-selected=(i == o.active).to_string()
                            class:active=i == o.active
                            on:mousedown=move |ev| { ev.prevent_default(); choose.run(chosen.clone()); }>
                            <strong>{choice.label.clone()}</strong>
                            " "
                            <span class="address">{choice.detail.clone()}</span>
                        </li>
                    }
                })
                .collect_view();
            let (class, label) = match o.kind {
                Kind::Mention => ("mention-list", "Members to mention"),
                Kind::Emoji => ("mention-list emoji-list", "Emoji"),
            };
            view! { <ul class=class id=id role="listbox" aria-label=label>{options}</ul> }
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
            completed("hi @pl", 3, 6, "@agent:planner"),
            ("hi @agent:planner ".into(), 18)
        );
        assert_eq!(
            completed("@pl thanks", 0, 2, "@agent:planner").0,
            "@agent:planner thanks",
            "the caret inside the word: all of it goes"
        );
        let (text, caret) = completed("@pl thanks", 0, 3, "@agent:planner");
        assert_eq!(text, "@agent:planner thanks");
        assert_eq!(&text[..caret], "@agent:planner ");
    }

    #[test]
    fn a_shortcode_offers_its_emoji_and_completing_puts_the_emoji_in_place() {
        let text = "great :tad";
        let offer = emoji_offer(text, text.len()).expect("an offer");
        assert_eq!(offer.kind, Kind::Emoji);
        assert_eq!(offer.at, 6);
        assert_eq!(offer.choices[0].inserted, "🎉");
        assert_eq!(offer.choices[0].detail, ":tada:");
        let (done, caret) = completed(text, offer.at, offer.caret, &offer.choices[0].inserted);
        assert_eq!(done, "great 🎉 ");
        assert_eq!(caret, done.len());
        assert_eq!(emoji_offer("10:30", 5), None);
        assert_eq!(emoji_offer(":zzqq", 5), None, "nothing matches: no list");
    }

    #[test]
    fn the_arrows_go_round_the_ends() {
        let offer = emoji_offer(":smi", 4).unwrap();
        let count = offer.choices.len();
        assert!(count > 1);
        assert_eq!(offer.clone().stepped(false).active, count - 1);
        assert_eq!(offer.stepped(true).active, 1);
    }
}
