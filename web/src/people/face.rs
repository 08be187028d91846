//! How a member is shown wherever it appears: its face ([`Avatar`]: its
//! picture, else its initials on a colour drawn from its address) and its
//! name ([`Author`]: the display name, an Agent badge for agents, and the
//! address one click away). Names come from the roster ([`Members`]).

use super::order::{Kind, kind_of};
use super::person::Members;
use leptos::prelude::*;

/// Up to two initials of `name`: the first letters of its first two words
/// (of its first word alone), as written; `?` for a name with no letter.
/// The style sheet shows them upper-cased (`.avatar`'s `text-transform`):
/// the browser knows every script's capitals, which the page would
/// otherwise carry as Unicode's case tables (6 KB).
pub fn initials(name: &str) -> String {
    let words: Vec<&str> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let initials: String = words
        .iter()
        .take(2)
        .filter_map(|w| w.chars().next())
        .collect();
    if initials.is_empty() {
        "?".to_owned()
    } else {
        initials
    }
}

/// How many colours generated faces have (`.avatar.hue-0` … in the style sheet).
pub const COLOURS: u32 = 12;

/// The colour (`0..COLOURS`) drawn from `address`, the same on every page and visit.
pub fn hue(address: &str) -> u32 {
    // FNV-1a: stable across builds, unlike the standard hasher.
    let hash = address.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    hash % COLOURS
}

/// A member's face: its picture, else its initials on its own colour.
/// Decorative (its name is always beside it).
#[component]
pub fn Avatar(
    /// Whose.
    address: String,
) -> impl IntoView {
    let for_picture = address.clone();
    let picture = Memo::new(move |_| Members::picture_of(&for_picture));
    // A class, not a style: the page's CSP sets no inline styles.
    let class = format!("avatar generated hue-{}", hue(&address));
    let agent = kind_of(&address) == Kind::Agent;
    move || match picture.get() {
        Some(url) => view! { <img class="avatar" src=url alt="" aria-hidden="true" /> }.into_any(),
        None => {
            let letters = initials(&Members::name_of(&address));
            view! {
                <span class=class.clone() class:agent=agent aria-hidden="true">{letters}</span>
            }
            .into_any()
        }
    }
}

/// A member's name where it speaks: the display name (a button that shows
/// the address), and an Agent badge for an agent.
#[component]
pub fn Author(
    /// Whose.
    address: String,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let agent = kind_of(&address) == Kind::Agent;
    let for_name = address.clone();
    let name = move || Members::name_of(&for_name);
    let shown = address.clone();
    view! {
        <button type="button" class="source" title=address.clone() data-address=address.clone()
            aria-expanded=move || open.get().to_string()
            on:click=move |_| open.update(|o| *o = !*o)>{name}</button>
        {agent.then(|| view! { <span class="badge agent-badge">"Agent"</span> })}
        <Show when=move || open.get()>
            <span class="address" role="status">{shown.clone()}</span>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initials_are_the_first_letters_of_two_words() {
        assert_eq!(initials("Ada Lovelace"), "AL");
        assert_eq!(initials("ada"), "a");
        assert_eq!(initials("guest-35907"), "g3");
        assert_eq!(initials("élodie marie claire"), "ém");
        assert_eq!(initials("  "), "?");
        assert_eq!(initials("🙂"), "?");
    }

    #[test]
    fn a_colour_is_the_address_s_own() {
        assert_eq!(hue("human:ada"), hue("human:ada"));
        assert!(hue("human:ada") < COLOURS);
        let colours: std::collections::HashSet<u32> =
            (0..100).map(|n| hue(&format!("human:guest-{n}"))).collect();
        assert!(colours.len() > COLOURS as usize / 2, "spread: {colours:?}");
    }
}
