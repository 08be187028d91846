//! What a document says about itself around its text: its title (a task
//! artifact's name, or the file's own name, never only its address), why it
//! is read-only, and whether it is Markdown (so it has a preview,
//! [`super::preview`]).

use leptos::prelude::*;

/// The title of the document at `address`: `artifact`, the name of the task
/// artifact it is, when it is one; else the last part of its address
/// (`resource/file/notes.md` → `notes.md`).
pub fn title_of(address: &str, artifact: Option<&str>) -> String {
    if let Some(name) = artifact.map(str::trim).filter(|n| !n.is_empty()) {
        return name.to_owned();
    }
    address
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|last| !last.is_empty())
        .unwrap_or(address)
        .to_owned()
}

/// True for a Markdown document: its address ends in `.md` (a `SKILL.md`
/// too) or its type says so.
pub fn is_markdown(address: &str, content_type: &str) -> bool {
    address.to_ascii_lowercase().ends_with(".md")
        || content_type.split(';').next().map(str::trim) == Some("text/markdown")
}

/// Why the person may not change a document, in words; none when they may.
pub fn read_only_reason(may_write: bool, owner: Option<&str>) -> Option<String> {
    if may_write {
        return None;
    }
    Some(match owner.filter(|o| !o.is_empty()) {
        Some(owner) => format!("{owner} shares it with you to read; you may not change it."),
        None => {
            "You have no permission to change it (or the network has not listed it for you yet)."
                .to_owned()
        }
    })
}

/// The read-only badge and its reason, above a document's text.
#[component]
pub fn ReadOnlyNote(
    /// Why the document is read-only.
    reason: String,
) -> impl IntoView {
    view! {
        <p class="read-only-note" role="note">
            <span class="badge">"Read only"</span>
            <span class="reason">{reason}</span>
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_titled_by_its_name() {
        let artifact = "resource/file/tasks/01M866R2SDZGKET33BHA9XA3Y5/artifact-1";
        assert_eq!(title_of(artifact, Some("report")), "report");
        assert_eq!(title_of(artifact, Some("  ")), "artifact-1");
        assert_eq!(title_of("resource/file/notes.md", None), "notes.md");
        assert_eq!(title_of("resource/context/brief", None), "brief");
        assert_eq!(title_of("odd", None), "odd");
    }

    #[test]
    fn markdown_is_known_by_its_name_or_type() {
        assert!(is_markdown("resource/file/notes.md", ""));
        assert!(is_markdown("resource/context/skills/greet/SKILL.MD", ""));
        assert!(is_markdown(
            "resource/context/brief",
            "text/markdown; charset=utf-8"
        ));
        assert!(!is_markdown("resource/file/data.json", "application/json"));
        assert!(!is_markdown("resource/file/mdfile", "text/plain"));
    }

    #[test]
    fn read_only_says_why() {
        assert_eq!(read_only_reason(true, Some("agent:a")), None);
        let reason = read_only_reason(false, Some("agent:scribe")).unwrap_or_default();
        assert!(
            reason.contains("agent:scribe") && reason.contains("not change"),
            "{reason}"
        );
        assert!(read_only_reason(false, None).is_some());
    }
}
