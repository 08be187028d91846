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
//! loaded, as one edit.

use super::Documents;
use crate::session::Session;
use leptos::html::Textarea;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// What the workspace knows of one open document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveDoc {
    /// The text as the replica holds it.
    pub text: String,
    /// Members with the document open (from the network).
    pub editors: Vec<String>,
    /// Why the network refused this person's edits, once it has.
    pub refused: Option<String>,
    /// Bumped by every change not typed here, so the editor redraws.
    pub revision: u64,
    /// The text shown is the copy cached at the last change, and the document
    /// itself is still loading from IndexedDB.
    pub loading: bool,
    /// The person typed into the cached copy while the document was loading:
    /// [`LiveDoc::text`] is theirs, to apply to the document once it has loaded.
    pub typed_while_loading: bool,
}

impl LiveDoc {
    /// Shows `text` as the replica holds it: no longer the cached copy.
    pub fn show(&mut self, text: String) {
        self.text = text;
        self.loading = false;
        self.typed_while_loading = false;
    }

    /// The person typed into the cached copy before the document loaded:
    /// `text` is shown and kept until the document can take it.
    pub fn type_while_loading(&mut self, text: &str) {
        text.clone_into(&mut self.text);
        self.typed_while_loading = true;
    }

    /// The whole text the person typed while the document loaded, if they did.
    pub fn typed(&self) -> Option<&str> {
        self.typed_while_loading.then_some(self.text.as_str())
    }
}

/// What to apply to a document that has just loaded with the text `loaded`:
/// the text the person typed while it loaded, unless it is the same.
pub fn typing_to_apply(typed_while_loading: Option<String>, loaded: &str) -> Option<String> {
    typed_while_loading.filter(|typed| typed != loaded)
}

/// Open documents by address.
pub type LiveDocs = BTreeMap<String, LiveDoc>;

/// Where the text of the live document `address` in `network` is cached
/// (localStorage) so a reload shows it before the document itself has loaded.
pub fn cached_text_key(network: &str, address: &str) -> String {
    format!("document-text:{network}:{address}")
}

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
        [one] => format!("Also editing: {one}"),
        many => format!("Also editing: {}", many.join(", ")),
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
) -> impl IntoView {
    let documents = Documents::get();
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
    let heading = StoredValue::new(address.clone());
    let me_for_line = me.clone();
    view! {
        <div class=move || if expanded.get() { "document live expanded" } else { "document live" }
            on:keydown=move |ev| if ev.key() == "Escape" && expanded.get_untracked() { set_expanded.set(false) }>
            <Show when=move || state.get().is_none()>
                <button type="button" class="open-document" on:click={
                    let address = open_address.clone();
                    move |_| documents.open_live(address.clone())
                }>{format!("Open {kind}")}</button>
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
                </div>
                <textarea node_ref=area aria-label=label.clone() rows="8"
                    readonly=move || !may_write || state.get().is_some_and(|d| d.refused.is_some())
                    prop:value=move || state.get_untracked().map(|d| d.text).unwrap_or_default()
                    on:input={
                        let address = edit_address.clone();
                        move |ev| documents.edit_live(address.clone(), event_target_value(&ev))
                    }></textarea>
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
                <p class="problem" role="alert">{format!("Your edit was refused and undone: {reason}")}</p>
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
    fn typing_while_loading_is_kept_until_the_document_has_loaded() {
        let mut doc = LiveDoc {
            text: "cached".into(),
            loading: true,
            ..Default::default()
        };
        assert_eq!(doc.typed(), None, "nothing typed yet");
        doc.type_while_loading("cached!");
        assert_eq!(doc.text, "cached!");
        assert!(doc.loading, "still loading: the status says so");
        let typed = doc.typed().map(str::to_owned);
        assert_eq!(typed.as_deref(), Some("cached!"));
        // The loaded document lacks the typing: it is applied.
        assert_eq!(
            typing_to_apply(typed.clone(), "cached"),
            Some("cached!".into())
        );
        // Already there (or nothing typed): nothing to apply.
        assert_eq!(typing_to_apply(typed, "cached!"), None);
        assert_eq!(typing_to_apply(None, "cached"), None);
        // Once the document's own text is shown, the typing is done with.
        doc.show("cached!".into());
        assert!(!doc.loading);
        assert_eq!(doc.typed(), None);
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
