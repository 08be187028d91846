//! Parts of the workspace loaded when first opened: the Admin pane, the
//! inspector, shared documents, tasks, the Directory, search, the file
//! viewer, the emoji picker, the invitation page, the Join and Create
//! forms, approval cards and the resources panel's editors are compiled into separate WebAssembly chunks (split points made by
//! [`leptos::wasm_split`], cut out of the build by `wasm-split-cli` in
//! `scripts/lib.sh`), so the first page downloads and compiles only the
//! conversation. [`LazyPart`] shows a loading line while a chunk arrives and a
//! retry button when it cannot (offline with nothing cached); the service
//! worker keeps every chunk once fetched.
//!
//! Each split point is a function without arguments that returns the part's
//! view; its state (contexts, effects) stays in the first chunk, so a part
//! opened late still sees everything that happened before.

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use send_wrapper::SendWrapper;
use std::future::Future;
use std::pin::Pin;

/// What a split point returns: the part's view, or why its chunk did not load.
pub type Loaded = Result<AnyView, SplitLoaderError>;

/// A part on its way: its chunk loading, then its view.
pub type Loading = Pin<Box<dyn Future<Output = Loaded>>>;

/// A split point: starts loading its chunk and yields the part's view.
pub type Loader = fn() -> Loading;

/// Declares split points: each `name in chunk => view;` is a function `name` that renders
/// `view` from a chunk of its own.
macro_rules! split_views {
    ($($(#[$doc:meta])* $name:ident in $chunk:ident => $view:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name() -> $crate::lazy::Loading {
            #[::leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible)]
            fn render() -> $crate::lazy::Loaded {
                use ::leptos::prelude::IntoAny;
                // Untracked: the part is built inside its loader's `Suspend`, which would
                // otherwise follow every signal the part reads while it is built, and load
                // and build it again whenever one changes.
                Ok(::leptos::prelude::untrack(|| $view.into_any()))
            }
            Box::pin(render())
        }
    )*};
}
pub(crate) use split_views;

/// Shows the part `load` yields once its chunk is here; until then a loading
/// line, and if it fails a message with a button that tries again.
#[component]
pub fn LazyPart(
    /// The split point.
    load: Loader,
    /// What is loading, for the loading line ("the Admin pane").
    what: &'static str,
    /// Over the page (a panel or dialog), not in the layout's column.
    #[prop(optional)]
    overlay: bool,
) -> impl IntoView {
    let attempt = RwSignal::new(0u32);
    let fallback = move || {
        view! {
            <p class="lazy-part loading" class:overlay=overlay role="status">{format!("Loading {what}…")}</p>
        }
    };
    view! {
        <Suspense fallback>
            {move || {
                attempt.track();
                Suspend::new(SendWrapper::new(async move {
                    match load().await {
                        Ok(part) => part,
                        Err(_) => view! {
                            <div class="lazy-part failed" class:overlay=overlay role="alert">
                                <p>{format!("Could not load {what}: check the connection.")}</p>
                                <button type="button" on:click=move |_| attempt.update(|n| *n += 1)>
                                    "Try again"
                                </button>
                            </div>
                        }
                        .into_any(),
                    }
                }))
            }}
        </Suspense>
    }
}
