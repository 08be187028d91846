//! A file as what it is, wherever the page shows one: a picture (PNG, JPEG,
//! GIF, WebP — never SVG) previewed from its `blob:` URL, any other file as
//! a card with its name, type, size and Download (and Open, when it opens
//! safely in a tab); and the picture viewer ([`Lightbox`]) a picture opens
//! in, over the page: a modal `<dialog>` that Escape, Close or a click
//! beside the picture closes, the focus back on what opened it.
//!
//! The conversation's attachments ([`crate::chat::files::attachment_view`]), the
//! resources panel and a document's own page ([`FileView`]) all use these;
//! the bytes come through [`Attachments`] (read once, as a `blob:` URL of a
//! type safe to open).

use crate::bidi::isolate;
use crate::chat::files::attach::{Attachments, Loaded, opens_in_tab};
use crate::session::Session;
use agentnet_core::model::attachment::{is_inline_image, size_label};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A glyph for a kind of file.
pub fn icon_of(mime: &str) -> &'static str {
    match mime.split('/').next().unwrap_or("") {
        "image" => "🖼",
        "text" => "📄",
        "audio" => "🎵",
        "video" => "🎞",
        _ if mime.contains("pdf") => "📕",
        _ if mime.contains("zip") || mime.contains("compressed") => "🗜",
        _ => "📎",
    }
}

/// True when a file of type `content_type` is text people edit (it opens
/// in the live editor): no type said, `text/…`, JSON, XML, YAML, TOML and
/// scripts as text. Anything else (pictures, PDF, archives, SVG) is shown
/// as what it is.
pub fn is_text_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence.is_empty()
        || essence.starts_with("text/")
        || matches!(
            essence.as_str(),
            "application/json"
                | "application/xml"
                | "application/javascript"
                | "application/yaml"
                | "application/x-yaml"
                | "application/toml"
        )
        || (essence.starts_with("application/")
            && (essence.ends_with("+json") || essence.ends_with("+xml")))
}

/// True for a file attached to a message (`resource/file/attachments/…`):
/// its bytes are kept as sent (base64), so it opens as a file, never in the
/// text editor, whatever its type.
pub fn is_attachment(address: &str) -> bool {
    address.starts_with("resource/file/attachments/")
}

/// A file the page shows: its resource, name, type and, when known, size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRef {
    /// The file resource's address.
    pub resource: String,
    /// Its name.
    pub name: String,
    /// Its MIME type.
    pub mime: String,
    /// Its size in bytes (else it is known once read).
    pub size: Option<u64>,
}

impl FileRef {
    /// A file resource as the viewer takes it: an attachment is named by its
    /// description (the file's name as sent), another file by the last part
    /// of its address; its size is known once read.
    pub fn of_resource(address: &str, description: &str, content_type: &str) -> Self {
        let last = address.rsplit('/').next().unwrap_or(address);
        let said = description.trim();
        let attached = is_attachment(address);
        let name = if attached && !said.is_empty() {
            said
        } else {
            last
        };
        Self {
            resource: address.to_owned(),
            name: name.to_owned(),
            mime: content_type.to_owned(),
            size: None,
        }
    }

    /// The file's size and type in words ("12 KB · image/png"), its size
    /// read from its bytes when it was not said.
    fn about(&self, loaded: Option<&Loaded>) -> String {
        let size = self.size.or(match loaded {
            Some(Loaded::Url(_, size)) => Some(*size),
            _ => None,
        });
        match size {
            Some(size) => format!("{} · {}", size_label(size), self.mime),
            None => self.mime.clone(),
        }
    }
}

/// The picture shown in the viewer, and what had the focus before it
/// opened: from context with [`Viewer::get`].
#[derive(Clone, Copy)]
pub struct Viewer {
    shown: RwSignal<Option<FileRef>>,
    opener: StoredValue<Option<web_sys::HtmlElement>, LocalStorage>,
}

impl Viewer {
    /// Provides the viewer to the components below.
    pub fn provide() -> Self {
        let viewer = Self {
            shown: RwSignal::new(None),
            opener: StoredValue::new_local(None),
        };
        provide_context(viewer);
        viewer
    }

    /// Whether a picture is shown (the viewer is in the page only then).
    pub fn is_showing(&self) -> bool {
        self.shown.with(Option::is_some)
    }

    /// The viewer of the page.
    pub fn get() -> Self {
        expect_context()
    }

    /// Opens `file` in the viewer.
    pub fn show(&self, file: FileRef) {
        let focused = document()
            .active_element()
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        self.opener.set_value(focused);
        self.shown.set(Some(file));
    }

    /// The viewer's dialog closed: it leaves the page, and the focus goes back
    /// to what opened it.
    fn closed(&self) {
        self.shown.set(None);
        if let Some(opener) = self.opener.try_update_value(Option::take).flatten() {
            let _ = opener.focus();
        }
    }
}

/// True when a click asks for a new tab or window (a modifier, another button).
fn wants_a_tab(ev: &leptos::ev::MouseEvent) -> bool {
    ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0
}

/// A picture's preview (what goes inside its list item or box): a grey box
/// while it is read, why it is not shown, or the picture — a link to it
/// that opens the viewer (a new tab with Ctrl, ⌘ or the middle button).
#[component]
pub fn Picture(
    /// The file.
    file: FileRef,
) -> impl IntoView {
    let files = Attachments::get();
    let viewer = Viewer::get();
    // Drawn again only when this file's state changes (not another file's).
    let state = {
        let resource = file.resource.clone();
        Memo::new(move |_| files.loaded(&resource))
    };
    move || {
        match state.get() {
        Some(Loaded::Url(url, _)) => {
            let (shown, href) = (file.clone(), url.clone());
            view! {
                <a class="picture" href=href target="_blank" rel="noopener noreferrer"
                    aria-label=format!("Open {} full size", isolate(&file.name))
                    on:click=move |ev| if !wants_a_tab(&ev) {
                        ev.prevent_default();
                        viewer.show(shown.clone());
                    }>
                    <img src=url alt=file.name.clone() loading="lazy" decoding="async" />
                </a>
            }
            .into_any()
        }
        Some(Loaded::Failed(why)) => {
            view! { <span class="picture-failed">{format!("Not shown: {why}")}</span> }.into_any()
        }
        _ => view! { <span class="picture-loading" aria-label=format!("Loading {}", isolate(&file.name))></span> }
            .into_any(),
    }
    }
}

/// What a file's card holds (inside its list item or box): its glyph, name,
/// size and type, and Open (when it opens safely in a tab) and Download.
#[component]
pub fn FileCard(
    /// The file.
    file: FileRef,
) -> impl IntoView {
    let files = Attachments::get();
    let loaded = {
        let resource = file.resource.clone();
        let state = Memo::new(move |_| files.loaded(&resource));
        move || state.get()
    };
    let about = {
        let file = file.clone();
        move || file.about(loaded().as_ref())
    };
    let (name, mime) = (file.name.clone(), file.mime.clone());
    let actions = move || match loaded() {
        Some(Loaded::Url(url, _)) => {
            let open = opens_in_tab(&mime).then(|| {
                view! { <a href=url.clone() target="_blank" rel="noopener noreferrer"
                aria-label=format!("Open {}", isolate(&name))>"Open"</a> }
            });
            view! {
                {open}
                <a href=url download=name.clone() aria-label=format!("Download {}", isolate(&name))>"Download"</a>
            }
            .into_any()
        }
        Some(Loaded::Failed(why)) => {
            view! { <span class="file-failed">{format!("Cannot open: {why}")}</span> }.into_any()
        }
        _ => view! { <span class="file-loading">"Loading…"</span> }.into_any(),
    };
    view! {
        <span class="file-icon" aria-hidden="true">{icon_of(&file.mime)}</span>
        <span class="file-about">
            <span class="file-name">{file.name.clone()}</span>
            <span class="file-meta">{about}</span>
        </span>
        <span class="file-actions">{actions}</span>
    }
}

/// A file that is not text, opened as what it is (the resources panel, a
/// document's page): read now, then a picture's preview or a file's card.
#[component]
pub fn FileView(
    /// The file.
    file: FileRef,
) -> impl IntoView {
    let files = Attachments::get();
    let session = Session::get();
    let resource = file.resource.clone();
    let marked = resource.clone();
    // Read once connected (again after a failed read while offline).
    Effect::new(move |_| {
        let _ = session.status.get();
        files.load(&resource);
    });
    if is_inline_image(&file.mime) {
        let loaded = {
            let resource = file.resource.clone();
            move || files.loaded(&resource)
        };
        let meta = {
            let file = file.clone();
            move || format!("{} · {}", file.name, file.about(loaded().as_ref()))
        };
        return view! {
            <div class="attachment image file-view" data-resource=marked>
                <Picture file />
                <span class="file-meta">{meta}</span>
            </div>
        }
        .into_any();
    }
    view! {
        <div class="attachment file file-view" data-resource=marked>
            <FileCard file />
        </div>
    }
    .into_any()
}

/// The picture viewer: the picture as large as the screen allows, its
/// name, size and type, Download and Close.
#[component]
pub fn Lightbox() -> impl IntoView {
    let viewer = Viewer::get();
    let files = Attachments::get();
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    // Every way out (Close, a click beside, Escape) closes the dialog itself, so the page
    // behind is no longer inert when its `close` gives the focus back.
    let close = move || {
        if let Some(dialog) = dialog.get_untracked() {
            dialog.close();
        }
    };
    // The viewer is in the page only while a picture is shown (lib.rs), and it is built
    // before it is in the page (it loads as a part of its own, crate::parts): a dialog out
    // of the page cannot open, so it opens a frame later. Closing removes it.
    Effect::new(move |_| {
        if let Some(dialog) = dialog.get() {
            request_animation_frame(move || {
                if !dialog.open() && dialog.is_connected() {
                    let _ = dialog.show_modal();
                }
            });
        }
    });
    let shown = move || {
        viewer.shown.get().map(|file| {
            let loaded = files.loaded(&file.resource);
            let about = file.about(loaded.as_ref());
            let url = match loaded {
                Some(Loaded::Url(url, _)) => url,
                _ => String::new(),
            };
            view! {
                <header class="lightbox-bar">
                    <h2 id="lightbox-title">{file.name.clone()}</h2>
                    <span class="file-meta">{about}</span>
                    <a class="lightbox-download" href=url.clone() download=file.name.clone()
                        aria-label=format!("Download {}", isolate(&file.name))>"Download"</a>
                    <button type="button" class="lightbox-close" autofocus
                        on:click=move |_| close()>"Close"</button>
                </header>
                <div class="lightbox-picture">
                    <img src=url alt=file.name.clone() />
                </div>
            }
        })
    };
    view! {
        <dialog class="lightbox" node_ref=dialog aria-labelledby="lightbox-title"
            on:close=move |_| viewer.closed()
            // Escape closes the viewer only, not a sheet or panel under it.
            on:keydown=move |ev| if ev.key() == "Escape" { ev.stop_propagation() }
            on:click=move |ev| {
                // A click beside the picture (the backdrop, the dialog's own box) closes it.
                let beside = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|t| t.tag_name() == "DIALOG" || t.class_list().contains("lightbox-picture"));
                if beside {
                    close();
                }
            }>
            {shown}
        </dialog>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_opens_in_the_editor_and_everything_else_as_what_it_is() {
        for text in [
            "",
            "text/plain",
            "text/markdown; charset=utf-8",
            "TEXT/CSV",
            "application/json",
            "application/ld+json",
            "application/xml",
        ] {
            assert!(is_text_type(text), "{text}");
        }
        for binary in [
            "image/png",
            "image/svg+xml",
            "application/pdf",
            "application/zip",
            "application/octet-stream",
            "audio/mpeg",
        ] {
            assert!(!is_text_type(binary), "{binary}");
        }
    }

    #[test]
    fn a_resource_is_named_by_what_it_was_sent_as() {
        let sent = FileRef::of_resource(
            "resource/file/attachments/01ab/chart.png",
            "Chart Q3.png",
            "image/png",
        );
        assert_eq!(sent.name, "Chart Q3.png");
        let other = FileRef::of_resource(
            "resource/file/report.pdf",
            "The quarterly report, for the board",
            "application/pdf",
        );
        assert_eq!(other.name, "report.pdf");
        assert_eq!(
            FileRef::of_resource(
                "resource/file/attachments/01ab/a.zip",
                " ",
                "application/zip"
            )
            .name,
            "a.zip"
        );
    }

    #[test]
    fn a_file_says_its_size_from_its_bytes_when_it_was_not_said() {
        let file = FileRef {
            resource: "resource/file/attachments/x/a.png".into(),
            name: "a.png".into(),
            mime: "image/png".into(),
            size: None,
        };
        assert_eq!(file.about(None), "image/png");
        assert_eq!(
            file.about(Some(&Loaded::Url("blob:x".into(), 2048))),
            "2 KB · image/png"
        );
        let said = FileRef {
            size: Some(10),
            ..file
        };
        assert_eq!(said.about(None), "10 B · image/png");
    }
}
