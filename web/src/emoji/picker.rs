//! The emoji picker, for reactions and for the composer: a search field
//! (by shortcode, name or keyword), the "Recent" row ([`super::recent`]) and
//! the categories with buttons that jump to each, in rows of
//! [`super::grid::COLUMNS`]; the emoji under the arrows is previewed with
//! its name and `:code:` at the foot, as in Slack.
//!
//! The focus stays in the search field (a combobox whose active option is
//! the emoji under the arrows): arrows move, Enter picks, Escape closes and
//! gives the focus back to the button that opened it; a click picks too,
//! and moving the focus out of the picker closes it. On a wide screen it
//! opens beside its button (placed through the CSSOM: the page's CSP allows
//! no inline style), on a phone as a sheet at the bottom.

use super::find::{Emoji, all, by_glyph, categories, search};
use super::grid::{Move, moved};
use super::recent::Recent;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The most emoji a search shows.
const MAX_FOUND: usize = 64;

/// Below this width the picker is a sheet at the bottom (as the style sheet says).
const SHEET_BELOW: f64 = 480.0;

/// The emoji shown, in groups: the group's name and its emoji.
type Groups = Vec<(&'static str, Vec<&'static Emoji>)>;

/// What the picker shows for `query`: its results, or Recent and every category.
fn groups_for(query: &str, recent: &[String]) -> Groups {
    if !query.trim().is_empty() {
        return vec![("Search results", search(query, MAX_FOUND))];
    }
    let mut groups: Groups = Vec::new();
    let used: Vec<&'static Emoji> = recent.iter().filter_map(|g| by_glyph(g)).collect();
    if !used.is_empty() {
        groups.push(("Recent", used));
    }
    for category in categories() {
        groups.push((
            category,
            all().iter().filter(|e| e.category == category).collect(),
        ));
    }
    groups
}

/// The icon of a group's button (as in Slack: a clock for Recent).
fn icon_of(group: &str) -> Option<&'static str> {
    Some(match group {
        "Recent" => "🕘",
        "Nature" => "🌿",
        "Food" => "🍔",
        "Activities" => "⚽",
        "Travel" => "✈️",
        "Objects" => "💡",
        "Symbols" => "🔣",
        _ => return None,
    })
}

/// `text` safe in HTML text and attribute values.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The grid's markup: each group's name, then its emoji as options (ids
/// `{prefix}-{index}`, the index in the groups laid end to end, also in
/// `data-i`). Markup, not a component per emoji: some 800 of them open at
/// once, and one handler on the grid serves them all.
fn grid_html(groups: &Groups, prefix: &str) -> String {
    let mut html = String::new();
    let mut i = 0;
    for (g, (name, emoji)) in groups.iter().enumerate() {
        let heading = format!("{prefix}-g{g}");
        html.push_str(&format!(
            r#"<div class="emoji-group-name" id="{heading}">{}</div><div role="group" class="emoji-group" aria-labelledby="{heading}">"#,
            escaped(name)
        ));
        for e in emoji {
            html.push_str(&format!(
                r#"<div role="option" class="emoji-option" id="{prefix}-{i}" data-i="{i}" aria-selected="false" aria-label="{}" title=":{}:">{}</div>"#,
                escaped(e.name),
                escaped(e.code()),
                e.glyph
            ));
            i += 1;
        }
        html.push_str("</div>");
    }
    html
}

/// The index (`data-i`) of the option an event happened on, if any.
fn option_index(ev: &web_sys::Event) -> Option<usize> {
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    target
        .closest("[data-i]")
        .ok()
        .flatten()?
        .get_attribute("data-i")?
        .parse()
        .ok()
}

/// Places the picker beside `opener` on a wide screen: below it when it fits, else above; its right edge at the opener's.
fn place(picker: &web_sys::HtmlElement, opener: &web_sys::Element) {
    let width = window()
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .unwrap_or(0.0);
    let height = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if width < SHEET_BELOW {
        return;
    }
    let at = opener.get_bounding_client_rect();
    let own = picker.get_bounding_client_rect();
    let style = picker.style();
    let top = if at.bottom() + own.height() + 8.0 <= height {
        at.bottom() + 4.0
    } else {
        (at.top() - own.height() - 4.0).max(8.0)
    };
    let left = (at.right() - own.width()).clamp(8.0, (width - own.width() - 8.0).max(8.0));
    let _ = style.set_property("top", &format!("{}px", top.round() as i32));
    let _ = style.set_property("left", &format!("{}px", left.round() as i32));
}

/// The picker. `id` is unique on the page; `label` names it ("Choose a
/// reaction"); `pick` is called with the emoji picked (the caller closes it
/// and moves the focus); `close` on Escape or when the focus leaves it.
#[component]
pub fn EmojiPicker(
    /// A prefix for its elements' ids, unique on the page.
    id: String,
    /// Its accessible name.
    label: &'static str,
    /// The button that opened it (placed beside; focused again on Escape).
    opener: NodeRef<leptos::html::Button>,
    /// Called with the emoji picked.
    pick: Callback<&'static str>,
    /// Called when it closes without a pick.
    close: Callback<()>,
) -> impl IntoView {
    let query = RwSignal::new(String::new());
    let active = RwSignal::new(0usize);
    let recent = Recent::load().shown();
    let groups = Memo::new(move |_| query.with(|q| groups_for(q, &recent)));
    let flat = Memo::new(move |_| {
        groups.with(|g| {
            g.iter()
                .flat_map(|(_, e)| e.iter().copied())
                .collect::<Vec<_>>()
        })
    });
    let field = NodeRef::<leptos::html::Input>::new();
    let root = NodeRef::<leptos::html::Div>::new();
    let list_id = format!("{id}-list");
    let prefix = StoredValue::new(id);
    let option_id = move |i: usize| prefix.with_value(|p| format!("{p}-{i}"));
    // Placed and focused in the next frame: the picker is a part (`super::opener::picker_part`),
    // built before its loader puts it in the page, where alone it has a size and takes the focus.
    Effect::new(move |_| {
        if root.get().is_none() || field.get().is_none() {
            return;
        }
        request_animation_frame(move || {
            // The picker may have closed, or its opener gone, within the frame.
            let picker = root.try_get_untracked().flatten();
            if let (Some(picker), Some(opener)) = (picker, opener.try_get_untracked().flatten()) {
                place(&picker, &opener);
            }
            if let Some(field) = field.try_get_untracked().flatten() {
                let _ = field.focus();
            }
        });
    });
    let show = move |i: usize| {
        active.set(i);
        if let Some(option) = document().get_element_by_id(&option_id(i)) {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            option.scroll_into_view_with_scroll_into_view_options(&options);
        }
    };
    // Handlers may run as the picker goes (a focus leaving it while it is taken away): `try_`.
    let escape = move || {
        close.try_run(());
        if let Some(opener) = opener.try_get_untracked().flatten() {
            let _ = opener.focus();
        }
    };
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        let step = Move::of_key(&key).filter(|m| !matches!(m, Move::First | Move::Last));
        if let Some(step) = step {
            ev.prevent_default();
            let sizes: Vec<usize> =
                groups.with_untracked(|g| g.iter().map(|(_, e)| e.len()).collect());
            show(moved(&sizes, active.get_untracked(), step));
        } else if key == "Enter" {
            ev.prevent_default();
            if let Some(emoji) = flat.with_untracked(|f| f.get(active.get_untracked()).copied()) {
                pick.try_run(emoji.glyph);
            }
        } else if key == "Escape" {
            ev.prevent_default();
            ev.stop_propagation();
            escape();
        }
    };
    // Leaving the picker (a click or Tab elsewhere) closes it.
    let focusout = move |ev: leptos::ev::FocusEvent| {
        let inside = ev
            .related_target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
            .zip(root.try_get_untracked().flatten())
            .is_some_and(|(to, picker)| picker.contains(Some(&to)));
        if !inside {
            close.try_run(());
        }
    };
    let jump = move |start: usize| {
        show(start);
        if let Some(field) = field.get_untracked() {
            let _ = field.focus();
        }
    };
    let nav = move || {
        query.with(|q| q.trim().is_empty()).then(|| {
            let mut start = 0;
            groups
                .get()
                .into_iter()
                .map(|(name, emoji)| {
                    let first = start;
                    start += emoji.len();
                    let icon = icon_of(name)
                        .or(emoji.first().map(|e| e.glyph))
                        .unwrap_or("");
                    view! {
                        <button type="button" class="emoji-category" aria-label=name title=name
                            on:click=move |_| jump(first)>
                            <span aria-hidden="true">{icon}</span>
                        </button>
                    }
                })
                .collect_view()
        })
    };
    let none = move || groups.with(|g| g.iter().all(|(_, e)| e.is_empty()));
    let grid = NodeRef::<leptos::html::Div>::new();
    let markup = move || groups.with(|g| prefix.with_value(|p| grid_html(g, p)));
    // The option under the arrows is selected (after the grid's markup is there).
    Effect::new(move |_| {
        let i = active.get();
        groups.track();
        let Some(grid) = grid.get() else {
            return;
        };
        if let Ok(Some(old)) = grid.query_selector(r#"[aria-selected="true"]"#) {
            let _ = old.set_attribute("aria-selected", "false");
            let _ = old.class_list().remove_1("active");
        }
        if let Some(now) = document().get_element_by_id(&option_id(i)) {
            let _ = now.set_attribute("aria-selected", "true");
            let _ = now.class_list().add_1("active");
        }
    });
    let clicked = move |ev: leptos::ev::MouseEvent| {
        if let Some(emoji) =
            option_index(&ev).and_then(|i| flat.with_untracked(|f| f.get(i).copied()))
        {
            pick.run(emoji.glyph);
        }
    };
    let hovered = move |ev: leptos::ev::MouseEvent| {
        if let Some(i) = option_index(&ev).filter(|i| *i != active.get_untracked()) {
            active.set(i);
        }
    };
    let preview = move || {
        flat.with(|f| f.get(active.get()).copied()).map(|e| {
            view! {
                <span class="emoji-big">{e.glyph}</span>
                <span class="emoji-name">{e.name}</span>
                <span class="emoji-code">{format!(":{}:", e.code())}</span>
            }
        })
    };
    let active_id = move || {
        let i = active.get();
        flat.with(|f| i < f.len()).then(|| option_id(i))
    };
    view! {
        <div class="emoji-picker" role="dialog" aria-label=label node_ref=root data-keep-sheet=""
            on:focusout=focusout on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if ev.key() == "Escape" { ev.prevent_default(); ev.stop_propagation(); escape(); }
            }>
            <input type="search" class="emoji-search" node_ref=field placeholder="Search emoji"
                aria-label="Search emoji" role="combobox" aria-expanded="true" aria-autocomplete="list"
                aria-controls=list_id.clone() aria-activedescendant=active_id autocomplete="off"
                prop:value=move || query.get()
                on:input=move |ev| { query.set(event_target_value(&ev)); active.set(0); }
                on:keydown=keydown />
            <div class="emoji-categories" role="group" aria-label="Categories">{nav}</div>
            <div class="emoji-grid" role="listbox" id=list_id aria-label="Emoji" tabindex="-1" node_ref=grid
                inner_html=markup on:mousedown=|ev| ev.prevent_default() on:click=clicked on:mouseover=hovered></div>
            <Show when=none>
                <p class="emoji-none" role="status">"No emoji match."</p>
            </Show>
            <div class="emoji-preview" aria-hidden="true">{preview}</div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_query_recent_comes_first_then_every_category() {
        let groups = groups_for("", &["🎉".to_owned(), "not an emoji".to_owned()]);
        assert_eq!(groups[0].0, "Recent");
        assert_eq!(
            groups[0].1.iter().map(|e| e.glyph).collect::<Vec<_>>(),
            vec!["🎉"]
        );
        assert_eq!(groups.len(), 1 + categories().len());
        let total: usize = groups[1..].iter().map(|(_, e)| e.len()).sum();
        assert_eq!(total, all().len());
        assert_eq!(
            groups_for("", &[])[0].0,
            "Smileys",
            "no Recent row before anything is used"
        );
    }

    #[test]
    fn the_grid_is_labelled_groups_of_options_numbered_end_to_end() {
        let groups = groups_for("heart", &[]);
        let html = grid_html(&groups, "p");
        assert!(
            html.starts_with(r#"<div class="emoji-group-name" id="p-g0">Search results</div>"#)
        );
        assert!(html.contains(r#"id="p-0" data-i="0""#));
        assert!(html.contains(r#"aria-label="red heart" title=":heart:">❤️</div>"#));
        assert_eq!(html.matches(r#"role="option""#).count(), groups[0].1.len());
        assert_eq!(
            escaped(r#"<a href="x">&"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;"
        );
    }

    #[test]
    fn a_query_shows_its_results_alone() {
        let groups = groups_for("tada", &["👍".to_owned()]);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].1[0].glyph, "🎉");
        assert!(groups_for("zzqq", &[])[0].1.is_empty());
    }
}
