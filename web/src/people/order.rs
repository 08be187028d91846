//! How the People panel orders, groups, filters and words its members: online
//! first, then by display name in natural order (`idle2` before `idle10`),
//! humans apart from agents, and verification levels said in words.

use super::person::Person;
use agentnet_core::sorting::sort_by;
use std::cmp::Ordering;

/// The two groups the panel shows apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `human:…` addresses.
    Human,
    /// Everything else: agents, external agents, other networks' members.
    Agent,
}

/// Which group `address` belongs to.
pub fn kind_of(address: &str) -> Kind {
    if address.starts_with("human:") {
        Kind::Human
    } else {
        Kind::Agent
    }
}

pub use super::person::display_name;

/// A verification level in words, as the panel shows it (the level number
/// goes in its tooltip).
pub fn verification_words(level: u64) -> &'static str {
    match level {
        0 => "unverified",
        1 => "verified key",
        2 => "verified token",
        _ => "DID",
    }
}

/// How many members are online, in words, as far as the connection knows:
/// without one (`joined` is false: offline, or connecting again) nobody's
/// presence is known, so the panel and the Admin pane say that rather than
/// repeat what was true when the link was lost (their dots grey out in
/// people.css).
pub fn presence_words(joined: bool, online: usize) -> String {
    if joined {
        format!("{online} online")
    } else {
        "presence unknown".to_owned()
    }
}

/// Natural order: runs of digits compare by their value, the rest without
/// regard to case, so `idle2` < `idle10` and `Ann` < `bob`; names equal that
/// way (`idle2`, `idle02`; `Ann`, `ann`) fall back to their exact text.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    folded_cmp(a, b).then_with(|| a.cmp(b))
}

/// [`natural_cmp`] before its tie-break: numbers by value, letters folded.
fn folded_cmp(mut a: &str, mut b: &str) -> Ordering {
    loop {
        match (a.chars().next(), b.chars().next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let (run_a, rest_a) = split_digits(a);
                let (run_b, rest_b) = split_digits(b);
                let (value_a, value_b) =
                    (run_a.trim_start_matches('0'), run_b.trim_start_matches('0'));
                let by_value = value_a
                    .len()
                    .cmp(&value_b.len())
                    .then_with(|| value_a.cmp(value_b));
                if by_value != Ordering::Equal {
                    return by_value;
                }
                (a, b) = (rest_a, rest_b);
            }
            (Some(x), Some(y)) => {
                let by_char = x.to_lowercase().cmp(y.to_lowercase());
                if by_char != Ordering::Equal {
                    return by_char;
                }
                (a, b) = (&a[x.len_utf8()..], &b[y.len_utf8()..]);
            }
        }
    }
}

fn split_digits(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    text.split_at(end)
}

/// The panel's order: online before offline, then natural order of the
/// display name, then of the whole address (so the order is total).
pub fn panel_order(a: &Person, b: &Person) -> Ordering {
    let offline = |p: &Person| p.status != "online";
    offline(a)
        .cmp(&offline(b))
        .then_with(|| natural_cmp(a.shown_name(), b.shown_name()))
        .then_with(|| natural_cmp(&a.address, &b.address))
}

/// True when `person` matches what was typed in the filter box: any word of
/// it in the address, the description or a skill, without regard to case.
pub fn matches_filter(person: &Person, filter: &str) -> bool {
    let haystack = std::iter::once(person.address.as_str())
        .chain(person.name.as_deref())
        .chain(person.description.as_deref())
        .chain(person.skills.iter().map(|(skill, _)| skill.as_str()))
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    filter
        .split_whitespace()
        .all(|word| haystack.contains(&word.to_lowercase()))
}

/// The members of `kind` that match `filter`, in the panel's order.
pub fn group(people: &[Person], kind: Kind, filter: &str) -> Vec<Person> {
    let mut members: Vec<Person> = people
        .iter()
        .filter(|p| kind_of(&p.address) == kind && matches_filter(p, filter))
        .cloned()
        .collect();
    sort_by(&mut members, panel_order);
    members
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn presence_is_counted_only_while_online() {
        assert_eq!(presence_words(true, 3), "3 online");
        assert_eq!(presence_words(false, 3), "presence unknown");
        assert_eq!(presence_words(false, 0), "presence unknown");
    }

    fn person(address: &str, status: &str) -> Person {
        Person::test(address, status)
    }

    #[test]
    fn numbers_sort_by_value_and_letters_without_case() {
        let mut names = vec![
            "idle10", "idle2", "Idle1", "idle02", "bob", "Ann", "idle", "Idle9",
        ];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            [
                "Ann", "bob", "idle", "Idle1", "idle02", "idle2", "Idle9", "idle10"
            ]
        );
    }

    #[test]
    fn online_members_come_first_then_by_name() {
        let people = vec![
            person("agent:idle10", "offline"),
            person("agent:zed", "online"),
            person("agent:idle2", "offline"),
            person("human:ann", "online"),
            person("agent:alpha", "online"),
        ];
        let agents: Vec<String> = group(&people, Kind::Agent, "")
            .into_iter()
            .map(|p| p.address)
            .collect();
        assert_eq!(
            agents,
            ["agent:alpha", "agent:zed", "agent:idle2", "agent:idle10"]
        );
        let humans = group(&people, Kind::Human, "");
        assert_eq!(humans.len(), 1);
        assert_eq!(display_name(&humans[0].address), "ann");
    }

    #[test]
    fn the_filter_reads_address_description_and_skills() {
        let mut weather = person("agent:ux-weather", "online");
        weather.description = Some("Forecasts for any city".into());
        weather.skills = vec![(
            "forecast".into(),
            "resource/context/forecast.SKILL.md".into(),
        )];
        assert!(matches_filter(&weather, "WEATHER"));
        assert!(matches_filter(&weather, "city forecast"));
        assert!(!matches_filter(&weather, "calculator"));
        assert!(matches_filter(&weather, "  "));
    }

    #[test]
    fn levels_are_said_in_words() {
        assert_eq!(verification_words(0), "unverified");
        assert_eq!(verification_words(1), "verified key");
        assert_eq!(verification_words(3), "DID");
        assert_eq!(display_name("agent:"), "agent:");
        assert_eq!(display_name("net2::agent:bob"), "net2::agent:bob");
    }

    proptest! {
        #[test]
        fn natural_order_is_a_total_order(a in "[a-zA-Z0-9]{0,8}", b in "[a-zA-Z0-9]{0,8}", c in "[a-zA-Z0-9]{0,8}") {
            prop_assert_eq!(natural_cmp(&a, &b), natural_cmp(&b, &a).reverse());
            prop_assert_eq!(natural_cmp(&a, &a), Ordering::Equal);
            if natural_cmp(&a, &b) != Ordering::Greater && natural_cmp(&b, &c) != Ordering::Greater {
                prop_assert_ne!(natural_cmp(&a, &c), Ordering::Greater);
            }
            if natural_cmp(&a, &b) == Ordering::Equal {
                prop_assert_eq!(&a, &b);
            }
        }
    }
}
