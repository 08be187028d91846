//! Live documents: a file's or context's text edited together (Automerge in
//! the core's replica). Each keystroke is a local edit, stored in IndexedDB
//! with the replica's rows and synced while online; others' edits replace
//! the text in place, keeping the caret where the person was typing. The
//! editors line shows who else has the document open.
//!
//! After a reload the editor shows the text cached at the last change at
//! once, and the person may type into it while Automerge loads the document
//! itself from IndexedDB (a few hundred milliseconds for a long history);
//! what they typed meanwhile is applied to the document as soon as it has
//! loaded, as one edit. What the editors show, and that reopening, are in
//! [`super::open`]; this module is the editor. A read-only document says so
//! and why ([`super::labels`]); a Markdown one has its preview beside or
//! instead of the source ([`super::preview`]).

use super::labels::{ReadOnlyNote, is_markdown, read_only_reason, title_of};
use super::preview::{MarkdownPreview, PreviewToggle};
use super::state::Documents;
use crate::session::Session;
use leptos::html::Textarea;
use leptos::prelude::*;

/// Where a caret at `caret` (UTF-16 units) belongs after `old` became `new`:
/// it keeps its place when the change is after it and moves with the text
/// when the change is before it.
pub fn caret_after(old: &str, new: &str, caret: usize) -> usize {
    let old: Vec<u16> = old.encode_utf16().collect();
    let new: Vec<u16> = new.encode_utf16().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    if caret <= prefix {
        return caret;
    }
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let old_changed_end = old.len() - suffix;
    if caret >= old_changed_end {
        // After the change: shift by how much the text grew or shrank.
        (caret + new.len()).saturating_sub(old.len())
    } else {
        // Inside the replaced span: to its new end.
        new.len() - suffix
    }
}

/// Others besides `me` in `editors`, in words.
pub fn others_line(editors: &[String], me: &str) -> String {
    let others: Vec<&str> = editors
        .iter()
        .map(String::as_str)
        .filter(|e| *e != me)
        .collect();
    match others.as_slice() {
        [] => "Only you are here.".to_owned(),
        [one] => format!("Also editing: {}", crate::bidi::isolate(one)),
        many => {
            let names: Vec<String> = many.iter().map(|e| crate::bidi::isolate(e)).collect();
            format!("Also editing: {}", names.join(", "))
        }
    }
}

/// The live editor of one file or context.
#[component]
pub fn LiveDocument(
    /// The resource's address.
    address: String,
    /// `file` or `context`.
    kind: String,
    /// Whether the person may write it.
    may_write: bool,
    /// Who shares it (says why it is read-only).
    #[prop(optional_no_strip)]
    owner: Option<String>,
    /// Its MIME type (`text/markdown` has a preview).
    #[prop(optional, into)]
    content_type: String,
    /// Its title (its name, or a task artifact's name).
    #[prop(optional, into)]
    title: Option<String>,
) -> impl IntoView {
    let documents = Documents::get();
    let title = title.unwrap_or_else(|| title_of(&address, None));
    let markdown = is_markdown(&address, &content_type);
    let previewing = RwSignal::new(false);
    let docs = documents.live();
    let me = Session::get().me_text();
    let mine = address.clone();
    let state = Memo::new(move |_| docs.with(|d| d.get(&mine).cloned()));
    let area = NodeRef::<Textarea>::new();
    // Others' edits: replace the text, keeping the caret in place.
    Effect::new(move |_| {
        let Some(doc) = state.get() else {
            return;
        };
        let Some(area) = area.get() else {
            return;
        };
        let shown = area.value();
        if shown == doc.text {
            return;
        }
        let caret = area
            .selection_start()
            .ok()
            .flatten()
            .map_or(0, |c| c as usize);
        area.set_value(&doc.text);
        let at = caret_after(&shown, &doc.text, caret) as u32;
        let _ = area.set_selection_range(at, at);
    });
    // The editor grows into a document view over the page and back; the same
    // textarea either way, so the caret and any typing carry over.
    let (expanded, set_expanded) = signal(false);
    let open_address = address.clone();
    let edit_address = address.clone();
    let label = format!("Content of {address}");
    let heading = StoredValue::new(title.clone());
    let me_for_line = me.clone();
    let read_only = read_only_reason(may_write, owner.as_deref());
    let text = Signal::derive(move || {
        state
            .with(|d| d.as_ref().map(|d| d.text.clone()))
            .unwrap_or_default()
    });
    let split_class = move || match (markdown, previewing.get()) {
        (false, _) => "source-only",
        (true, false) => "markdown-split",
        (true, true) => "markdown-split previewing",
    };
    view! {
        <div class=move || if expanded.get() { "document live expanded" } else { "document live" }
            on:keydown=move |ev| if ev.key() == "Escape" && expanded.get_untracked() { set_expanded.set(false) }>
            <Show when=move || state.get().is_none()>
                <button type="button" class="open-document" on:click={
                    let address = open_address.clone();
                    move |_| documents.open_live(address.clone())
                }>{format!("Open {kind}")}</button>
                {
                    let address = open_address.clone();
                    move || documents.open_failure(&address).map(|reason| view! {
                        <p class="problem" role="alert">{reason}</p>
                    })
                }
            </Show>
            <Show when=move || state.get().is_some()>
                <div class="document-bar">
                    {move || expanded.get().then(|| view! { <h2>{heading.get_value()}</h2> })}
                    <button type="button" class="expand-document" aria-pressed=move || expanded.get().to_string()
                        on:click=move |_| {
                            set_expanded.update(|e| *e = !*e);
                            if let Some(area) = area.get_untracked() {
                                let _ = area.focus();
                            }
                        }>
                        {move || if expanded.get() { "Back to the panel" } else { "Expand" }}
                    </button>
                    {markdown.then(|| view! { <PreviewToggle previewing /> })}
                </div>
                {read_only.clone().map(|reason| view! { <ReadOnlyNote reason /> })}
                <div class=split_class>
                <textarea node_ref=area aria-label=label.clone() rows="8"
                    readonly=move || !may_write || state.get().is_some_and(|d| d.refused.is_some())
                    prop:value=move || state.get_untracked().map(|d| d.text).unwrap_or_default()
                    on:input={
                        let address = edit_address.clone();
                        move |ev| documents.edit_live(address.clone(), event_target_value(&ev))
                    }></textarea>
                {markdown.then(|| view! { <MarkdownPreview text title=title.clone() /> })}
                </div>
                <p class="editors" role="status" aria-label="Editors">
                    {
                        let me = me_for_line.clone();
                        move || state.get().map(|d| if d.loading {
                            "Opening the saved document…".to_owned()
                        } else {
                            others_line(&d.editors, &me)
                        }).unwrap_or_default()
                    }
                </p>
            </Show>
            {move || state.get().and_then(|d| d.refused).map(|reason| view! {
                <p class="problem" role="alert">{format!("Your edit was refused and undone: {}", crate::bidi::isolate(&reason))}</p>
            })}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_stays_put_before_a_change_and_moves_after_it() {
        // A change after the caret leaves it.
        assert_eq!(caret_after("hello world", "hello world!", 5), 5);
        // Text inserted before the caret pushes it along.
        assert_eq!(caret_after("hello world", ">> hello world", 5), 8);
        // Text deleted before the caret pulls it back.
        assert_eq!(caret_after("hello world", "world", 8), 2);
        // A caret inside a replaced span goes to the span's new end.
        assert_eq!(caret_after("abcdef", "abXYZef", 3), 5);
        // UTF-16 units, like the textarea's selection.
        assert_eq!(caret_after("🌍 x", "a🌍 x", 3), 4);
    }

    #[test]
    fn the_editors_line_names_the_others() {
        let me = "human:ann";
        assert_eq!(others_line(&["human:ann".into()], me), "Only you are here.");
        assert_eq!(
            others_line(&["agent:bot".into(), "human:ann".into()], me),
            "Also editing: agent:bot"
        );
    }
}
