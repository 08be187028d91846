//! The message list that follows: it opens at the newest message; at the
//! bottom, new messages stay in view; scrolled up, a "N new messages"
//! control jumps down; each conversation keeps its position; scrolling to
//! the top (or "Load earlier messages") pages earlier ones in, keeping the
//! view where it was. An empty conversation says what to do. What the
//! person sees at the bottom of a visible tab counts as read ([`crate::chat::attention::unread`]);
//! a "new" line marks where they had left off when they came (back) to it.
//! A message the URL points at is scrolled to and highlighted ([`crate::chat::list::jump`]).

use crate::bidi::isolate;
use crate::chat::list::line::{InThread, MessageLine};
use crate::chat::list::rows::{Marker, Row, WINDOW, rows, thread_of};
use crate::chat::list::time::Clock;
use crate::chat::messages::Line;
use crate::chat::state::Chat;
use crate::lazy::LazyPart;
use agentnet_core::EventId;
use leptos::html::Div;
use leptos::prelude::*;
use std::collections::HashMap;
use wasm_bindgen::JsCast;

/// Within this many pixels of the bottom counts as at the bottom.
const NEAR_BOTTOM: i32 = 48;
/// Within this many pixels of the top, earlier messages page in.
const NEAR_TOP: i32 = 40;

/// The list's view: the open conversation, or the thread shown.
fn view_key(chat: Chat, in_thread: bool) -> String {
    match chat.thread.get().filter(|_| in_thread) {
        Some(root) => format!("thread {root}"),
        None => chat.current.get(),
    }
}

/// The messages of the list's view (conversation or thread), oldest first.
fn view_lines(chat: Chat, in_thread: bool) -> Vec<Line> {
    let open = chat.current.get();
    let thread = chat.thread.get().filter(|_| in_thread);
    chat.lines.with(|all| match thread {
        Some(root) => thread_of(all, root).into_iter().cloned().collect(),
        // Thread replies stay in their thread, unless also sent here.
        None => crate::chat::list::rows::conversation_lines(all, &open)
            .cloned()
            .collect(),
    })
}

/// The open conversation's messages (or, `in_thread`, the open thread's),
/// following as they come.
#[component]
pub fn MessageList(
    /// The thread's list (beside the conversation, or instead of it on phones).
    in_thread: bool,
) -> impl IntoView {
    let chat = Chat::get();
    provide_context(InThread(in_thread));
    let me = chat.session.me_text();
    let log = NodeRef::<Div>::new();
    let messages = NodeRef::<leptos::html::Ul>::new();
    let key = Memo::new(move |_| view_key(chat, in_thread));
    let shown = Memo::new(move |_| view_lines(chat, in_thread));
    // How many messages each view shows (more as the person pages back).
    let windows = RwSignal::new(HashMap::<String, usize>::new());
    // Where each view was left, when not at its bottom.
    let positions = StoredValue::new(HashMap::<String, i32>::new());
    let at_bottom = RwSignal::new(true);
    // The log's height when a resize was last handled: a scroll event is
    // dispatched a frame late, so one that arrives after the log shrank (a
    // banner above it, a phone's keyboard) is judged by the height the
    // scroll happened in, and the resize then keeps the bottom in view.
    let handled_height = StoredValue::new(None::<i32>);
    let unseen = RwSignal::new(0usize);
    let window = move || windows.with(|w| w.get(&key.get()).copied().unwrap_or(WINDOW));
    let hidden = move || shown.with(Vec::len).saturating_sub(window());
    let me_for_rows = me.clone();
    let list = Memo::new(move |_| {
        let window = window();
        let root = chat.thread.get().filter(|_| in_thread);
        let left_off = match root {
            None => chat.read_marker(&chat.current.get()),
            Some(_) => None,
        };
        let marker = left_off.map(|at| Marker {
            at,
            me: &me_for_rows,
        });
        shown.with(|s| {
            let refs: Vec<&Line> = s.iter().collect();
            chat.lines
                .with(|all| rows(all, &refs, window, root, Clock::offset_ms(), marker))
        })
    });

    // Frames asked for here may come after the list has gone (a thread closed, another
    // network opened): they read the element with `try_`, which then finds nothing.
    let to_bottom = move || {
        if let Some(el) = log.try_get_untracked().flatten() {
            el.set_scroll_top(el.scroll_height());
        }
        at_bottom.set(true);
        unseen.set(0);
    };
    // Pages earlier messages in (from the network once all loaded show),
    // keeping the ones in view where they are.
    let load_earlier = move || {
        let Some(el) = log.try_get_untracked().flatten() else {
            return;
        };
        if hidden() == 0 {
            let conversation = chat.current.get_untracked();
            if in_thread || !untrack(|| chat.has_older(&conversation)) {
                return;
            }
            chat.load_older(&conversation);
        }
        let (height, top) = (el.scroll_height(), el.scroll_top());
        let view = key.get_untracked();
        windows.update(|w| {
            let n = w.entry(view).or_insert(WINDOW);
            *n += WINDOW;
        });
        request_animation_frame(move || {
            if let Some(el) = log.try_get_untracked().flatten() {
                el.set_scroll_top(top + el.scroll_height() - height);
            }
        });
    };
    let on_scroll = move |_| {
        let Some(el) = log.try_get_untracked().flatten() else {
            return;
        };
        let height = handled_height
            .get_value()
            .unwrap_or_else(|| el.client_height());
        let bottom = el.scroll_height() - el.scroll_top() - height < NEAR_BOTTOM;
        at_bottom.set(bottom);
        let view = key.get_untracked();
        positions.update_value(|p| {
            if bottom {
                p.remove(&view);
            } else {
                p.insert(view, el.scroll_top());
            }
        });
        if bottom {
            unseen.set(0);
        }
        if el.scroll_top() < NEAR_TOP {
            load_earlier();
        }
    };

    // Another view opened: back where it was left, else at its newest.
    Effect::new(move |_| {
        let view = key.get();
        let left_at = positions.with_value(|p| p.get(&view).copied());
        unseen.set(0);
        at_bottom.set(left_at.is_none());
        request_animation_frame(move || {
            if let Some(el) = log.try_get_untracked().flatten() {
                el.set_scroll_top(left_at.unwrap_or_else(|| el.scroll_height()));
            }
        });
    });
    // New messages: followed at the bottom (or when they are the person's
    // own), counted when the person reads further up.
    Effect::new(move |previous: Option<(String, Option<EventId>)>| {
        let view = key.get();
        let (newest, added, mine) = shown.with(|s| {
            let newest = s.last().map(|l| l.id);
            let since = previous
                .as_ref()
                .filter(|(v, _)| *v == view)
                .and_then(|(_, last)| *last)
                .and_then(|last| s.iter().position(|l| l.id == last));
            let fresh = match since {
                Some(i) => &s[i + 1..],
                None => &[][..],
            };
            (newest, fresh.len(), fresh.iter().any(|l| l.source == me))
        });
        if previous.as_ref().is_some_and(|(v, _)| *v == view) && added > 0 {
            if at_bottom.get_untracked() || mine {
                request_animation_frame(to_bottom);
            } else {
                unseen.update(|n| *n += added);
            }
        } else if previous.as_ref().is_some_and(|(v, _)| *v == view) && at_bottom.get_untracked() {
            // History merged above, or a first message: stay at the newest.
            request_animation_frame(to_bottom);
        }
        (view, newest)
    });

    // An agent's answer growing at the bottom stays in view there.
    Effect::new(move |_| {
        chat.activities.track();
        if at_bottom.get_untracked() {
            request_animation_frame(to_bottom);
        }
    });

    // The list growing shorter (a question above it, a phone's keyboard),
    // or a message in it taller (reactions, an edit, a picture loading),
    // keeps the bottom in view when that is where the person was.
    Effect::new(move |_| {
        let Some(el) = log.get() else {
            return;
        };
        let content = messages.get();
        let keep = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
            let Some(el) = log.try_get_untracked().flatten() else {
                return;
            };
            if at_bottom.get_untracked() {
                el.set_scroll_top(el.scroll_height());
            }
            handled_height.set_value(Some(el.client_height()));
        });
        if let Ok(observer) = web_sys::ResizeObserver::new(keep.as_ref().unchecked_ref()) {
            observer.observe(&el);
            if let Some(content) = content {
                observer.observe(&content);
            }
            // Both live as long as the list; the observer stops with it.
            let held = StoredValue::new_local((observer, keep));
            on_cleanup(move || held.with_value(|(observer, _)| observer.disconnect()));
        }
    });

    // A message the URL points at ([`crate::chat::list::jump`]): once this view holds
    // it, enough of the view shows to reach it, it scrolls into the middle
    // and is highlighted (once per view and message, and again each time the
    // person asks for it again, [`Chat::jump_again`]).
    Effect::new(move |landed: Option<Option<(String, EventId, u64)>>| {
        let landed = landed.flatten();
        let target = chat.target.get()?;
        let again = chat.jumps_again.get();
        let view = key.get();
        if landed.as_ref() == Some(&(view.clone(), target, again)) {
            return landed;
        }
        let Some(from_end) =
            shown.with(|s| s.iter().rposition(|l| l.id == target).map(|i| s.len() - i))
        else {
            return landed;
        };
        windows.update(|w| {
            let n = w.entry(view.clone()).or_insert(WINDOW);
            *n = (*n).max(from_end + WINDOW / 5);
        });
        at_bottom.set(false);
        let focus = in_thread || chat.thread.get_untracked().is_none();
        // After the view's own scrolling (to its bottom) in the next frame.
        request_animation_frame(move || {
            request_animation_frame(move || {
                if let Some(el) = log.try_get_untracked().flatten() {
                    scroll_to(&el, target, focus);
                }
            })
        });
        chat.highlight(target);
        Some((view, target, again))
    });

    // Seen: the open conversation at its bottom, in a visible tab.
    let visible = RwSignal::new(page_visible());
    let listener = gloo_events::EventListener::new(&document(), "visibilitychange", move |_| {
        visible.set(page_visible());
        // Back from elsewhere: where the person left off becomes the read marker.
        if !page_visible() {
            chat.arrive(true);
        }
    });
    let listener = StoredValue::new_local(Some(listener));
    on_cleanup(move || {
        let _ = listener.try_set_value(None);
    });
    Effect::new(move |previous: Option<String>| {
        let view = key.get();
        if previous.as_ref().is_some_and(|p| *p != view) {
            chat.arrive(false);
        }
        let newest = shown.with(|s| s.last().map(|l| l.at));
        if let Some(at) = newest
            && at_bottom.get()
            && visible.get()
            && chat.read_ready.get()
            && !in_thread
            && chat.session.pane() == crate::session::Pane::Conversation
        {
            chat.mark_read(&chat.current.get_untracked(), at);
        }
        view
    });

    let title = move || chat.title_of(&chat.current.get());
    view! {
        <div class="log-area">
            // A log: screen readers announce new messages as they arrive.
            <div class="message-log" role="log" aria-live="polite" tabindex="0"
                aria-label=if in_thread { "Thread replies" } else { "Messages" }
                node_ref=log on:scroll=on_scroll>
                <div class="log-start">
                    {move || if hidden() > 0 {
                        view! {
                            <button type="button" class="load-earlier" on:click=move |_| load_earlier()>
                                {format!("Load earlier messages ({})", hidden())}
                            </button>
                        }.into_any()
                    } else if in_thread {
                        ().into_any()
                    } else if chat.history_loading(&chat.current.get()) {
                        view! { <p class="history-state" role="status">"Loading earlier messages…"</p> }.into_any()
                    } else if chat.has_older(&chat.current.get()) {
                        view! {
                            <button type="button" class="load-earlier" on:click=move |_| load_earlier()>
                                "Load earlier messages"
                            </button>
                        }.into_any()
                    } else if !shown.with(Vec::is_empty) {
                        view! { <p class="history-state">{format!("This is the beginning of {}.", isolate(&title()))}</p> }.into_any()
                    } else {
                        ().into_any()
                    }}
                </div>
                // Not above an approval card (the conversation is not empty then).
                <Show when=move || !in_thread && shown.with(Vec::is_empty) && !chat.history_loading(&chat.current.get())
                    && !chat.has_approvals(&chat.current.get())>
                    <div class="empty-conversation">
                        <p class="empty-title">{move || format!("No messages in {} yet", isolate(&title()))}</p>
                        <p>{move || empty_hint(&chat.current.get())}</p>
                    </div>
                </Show>
                <ul class="messages" node_ref=messages aria-label=if in_thread { "Thread" } else { "Conversation" }>
                    <For each=move || list.get() key=Row::key let:row>
                        {match row {
                            Row::Day { at, .. } => view! {
                                <li class="day"><span>{move || chat.clock.day(at)}</span></li>
                            }.into_any(),
                            Row::New => view! {
                                <li class="new-marker"><span>"New"<span class="visually-hidden">" messages below"</span></span></li>
                            }.into_any(),
                            Row::Message { line, parent, grouped, replies } => view! {
                                <MessageLine line=*line parent grouped replies />
                            }.into_any(),
                        }}
                    </For>
                    <crate::chat::agents::working::PendingAnswers in_thread />
                    <Show when=move || !in_thread && chat.current.with(|open| chat.has_approvals(open))>
                        <li class="approval-cards-part">
                            <LazyPart load=crate::chat::agents::approvals::approval_cards what="the approval requests" />
                        </li>
                    </Show>
                </ul>
            </div>
            <Show when=move || { unseen.get() != 0 && !at_bottom.get() }>
                <button type="button" class="new-messages" on:click=move |_| to_bottom()>
                    {move || match unseen.get() {
                        1 => "1 new message ↓".to_owned(),
                        n => format!("{n} new messages ↓"),
                    }}
                </button>
            </Show>
        </div>
    }
}

/// Scrolls the message `id` of the list `log` into its middle (and, with
/// `focus`, gives it the focus, so the keyboard goes on from there).
fn scroll_to(log: &web_sys::HtmlDivElement, id: EventId, focus: bool) {
    let Ok(Some(message)) = log.query_selector(&format!(".message[data-id=\"{id}\"]")) else {
        return;
    };
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Center);
    message.scroll_into_view_with_scroll_into_view_options(&options);
    if focus && let Ok(message) = message.dyn_into::<web_sys::HtmlElement>() {
        let _ = message.set_attribute("tabindex", "-1");
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        let _ = message.focus_with_options(&options);
    }
}

/// True when the page is visible (not a background tab).
fn page_visible() -> bool {
    document().visibility_state() == web_sys::VisibilityState::Visible
}

/// What an empty conversation suggests.
fn empty_hint(conversation: &str) -> &'static str {
    if conversation == crate::chat::conversations::EVERYONE {
        "Everyone in this network, people and agents, sees what is posted here. Write the first message below; @address mentions someone."
    } else if conversation.starts_with("channel/") {
        "Only the channel's members see what is posted here. Write the first message below."
    } else {
        "Only the two of you see this conversation. Write the first message below."
    }
}
