//! Swipes on a touch screen, where people expect them (as in Slack and
//! WhatsApp): from the left edge to the right opens the menu (views and
//! conversations), or goes back from a thread that fills the screen to its
//! conversation; to the right anywhere on a thread closes it; from the
//! right edge to the left opens people; a sheet closes with a swipe back
//! the way it came; and to the left on a message replies in its thread
//! (the message follows the finger a little on the way).
//!
//! [`gesture`] reads a finger's path and [`action`] decides what it does
//! where it began; both are pure. [`listen`] binds them to the workspace's
//! touch events (passive: scrolling never waits for them). A path that
//! begins in a field, in code, a table or the emoji picker (which scroll
//! or select sideways) is no swipe.

use crate::chat::Chat;
use crate::frame::{Sheet, Sheets};
use agentnet_core::EventId;
use gloo_events::EventListener;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// The least distance sideways a swipe travels, in CSS px.
pub const DISTANCE: f64 = 60.0;
/// How near the screen's edge a swipe from the edge begins, in CSS px.
pub const EDGE: f64 = 28.0;
/// The longest a swipe takes, in ms (slower is a drag, not a swipe).
pub const LONGEST_MS: f64 = 900.0;
/// Up to this width the sheets exist (the style sheet's phone layout).
pub const SHEETS_UP_TO: f64 = 720.0;
/// Below this width an open thread fills the screen instead of sitting beside the conversation.
pub const THREAD_BESIDE_FROM: f64 = 1024.0;

/// A swipe: which way, and whether it began at the screen's edge it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gesture {
    /// To the right (from the left edge when `edge`).
    Right {
        /// It began at the left edge.
        edge: bool,
    },
    /// To the left (from the right edge when `edge`).
    Left {
        /// It began at the right edge.
        edge: bool,
    },
}

/// The swipe a finger's path from `start` to `end` (x, y in CSS px) in
/// `ms` makes on a screen `width` wide, if it is one: far enough sideways,
/// mostly sideways, quick enough.
pub fn gesture(start: (f64, f64), end: (f64, f64), ms: f64, width: f64) -> Option<Gesture> {
    let (dx, dy) = (end.0 - start.0, end.1 - start.1);
    if dx.abs() < DISTANCE || dx.abs() < 2.0 * dy.abs() || ms > LONGEST_MS {
        return None;
    }
    Some(if dx > 0.0 {
        Gesture::Right {
            edge: start.0 <= EDGE,
        }
    } else {
        Gesture::Left {
            edge: start.0 >= width - EDGE,
        }
    })
}

/// Where a swipe began and what was open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Context {
    /// The screen's width, in CSS px (whole pixels).
    pub width: u32,
    /// The sheet open.
    pub sheet: Sheet,
    /// A thread is open.
    pub thread_open: bool,
    /// It began on the open thread.
    pub on_thread: bool,
    /// It began on this message of the conversation's list.
    pub on_message: Option<EventId>,
}

/// What a swipe does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Open the menu (views and conversations).
    OpenMenu,
    /// Open people and resources.
    OpenPeople,
    /// Close the open sheet.
    CloseSheet,
    /// Close the open thread (back to its conversation).
    CloseThread,
    /// Reply in the thread of this message.
    ReplyInThread(EventId),
}

/// What `swipe` does in `at`, if anything.
pub fn action(swipe: Gesture, at: Context) -> Option<Action> {
    let sheets = f64::from(at.width) <= SHEETS_UP_TO;
    let thread_fills = at.thread_open && f64::from(at.width) < THREAD_BESIDE_FROM;
    match (at.sheet, swipe) {
        (Sheet::Menu, Gesture::Left { .. }) | (Sheet::People, Gesture::Right { .. }) => {
            Some(Action::CloseSheet)
        }
        (Sheet::Menu | Sheet::People, _) => None,
        (Sheet::None, Gesture::Right { edge: true }) if thread_fills => Some(Action::CloseThread),
        (Sheet::None, Gesture::Right { .. }) if at.on_thread => Some(Action::CloseThread),
        (Sheet::None, Gesture::Right { edge: true }) if sheets => Some(Action::OpenMenu),
        (Sheet::None, Gesture::Left { edge: true }) if sheets => Some(Action::OpenPeople),
        (Sheet::None, Gesture::Left { .. }) => at.on_message.map(Action::ReplyInThread),
        _ => None,
    }
}

/// A touch in progress: where and when it began, and the message it moves.
struct Touch {
    start: (f64, f64),
    at_ms: f64,
    context: Context,
    message: Option<web_sys::HtmlElement>,
}

/// The first finger of a touch event, in CSS px.
fn point(ev: &web_sys::TouchEvent, ended: bool) -> Option<(f64, f64)> {
    let list = if ended {
        ev.changed_touches()
    } else {
        ev.touches()
    };
    let touch = list.get(0)?;
    Some((f64::from(touch.client_x()), f64::from(touch.client_y())))
}

/// What the touch that began on `target` began on.
fn context_at(target: &web_sys::Element, chat: Chat, sheets: Sheets) -> Option<Context> {
    let within = |selector: &str| target.closest(selector).ok().flatten();
    if within("textarea, input, select, pre, table, .emoji-picker, .networks").is_some() {
        return None;
    }
    let width = window().inner_width().ok()?.as_f64()?;
    let on_thread = within(".thread-pane").is_some();
    let on_message = match on_thread {
        true => None,
        false => within(".chat .message[data-id]:not(.status-update):not(.deleted)")
            .and_then(|m| m.get_attribute("data-id")?.parse().ok()),
    };
    Some(Context {
        width: width as u32,
        sheet: sheets.open_untracked(),
        thread_open: chat.open_thread().is_some(),
        on_thread,
        on_message,
    })
}

/// Does `action`.
fn run(action: Action, chat: Chat, sheets: Sheets) {
    match action {
        Action::OpenMenu => sheets.toggle(Sheet::Menu),
        Action::OpenPeople => sheets.toggle(Sheet::People),
        Action::CloseSheet => sheets.close(),
        Action::CloseThread => chat.close_thread(),
        Action::ReplyInThread(message) => chat.reply_in_thread(message),
    }
}

/// Moves `message` with the finger (to the left only, a little), or back.
fn follow(message: &web_sys::HtmlElement, dx: Option<f64>) {
    let style = message.style();
    let _ = match dx {
        Some(dx) => style.set_property(
            "transform",
            &format!("translateX({}px)", dx.clamp(-72.0, 0.0).round() as i32),
        ),
        None => style.remove_property("transform").map(|_| ()),
    };
}

/// Listens for swipes on `root` (the workspace); dropping the listeners stops.
pub fn listen(root: &web_sys::Element) -> Vec<EventListener> {
    let (chat, sheets) = (Chat::get(), Sheets::get());
    let now = || window().performance().map_or(0.0, |p| p.now());
    let touch: Rc<RefCell<Option<Touch>>> = Rc::new(RefCell::new(None));
    let start = {
        let touch = Rc::clone(&touch);
        move |ev: &web_sys::Event| {
            let Some(ev) = ev.dyn_ref::<web_sys::TouchEvent>() else {
                return;
            };
            let target = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            let began = match (point(ev, false), target) {
                (Some(start), Some(target)) if ev.touches().length() == 1 => {
                    context_at(&target, chat, sheets).map(|context| {
                        let message = context.on_message.and_then(|_| {
                            target.closest(".message").ok().flatten()?.dyn_into().ok()
                        });
                        Touch {
                            start,
                            at_ms: now(),
                            context,
                            message,
                        }
                    })
                }
                _ => None,
            };
            *touch.borrow_mut() = began;
        }
    };
    let moved = {
        let touch = Rc::clone(&touch);
        move |ev: &web_sys::Event| {
            let Some(ev) = ev.dyn_ref::<web_sys::TouchEvent>() else {
                return;
            };
            if let (Some(now_at), Some(t)) = (point(ev, false), touch.borrow().as_ref())
                && let Some(message) = &t.message
            {
                let (dx, dy) = (now_at.0 - t.start.0, now_at.1 - t.start.1);
                follow(message, (dx.abs() > 2.0 * dy.abs()).then_some(dx));
            }
        }
    };
    let end = {
        let touch = Rc::clone(&touch);
        move |ev: &web_sys::Event| {
            let Some(t) = touch.borrow_mut().take() else {
                return;
            };
            if let Some(message) = &t.message {
                follow(message, None);
            }
            let Some(ev) = ev.dyn_ref::<web_sys::TouchEvent>() else {
                return;
            };
            let width = f64::from(t.context.width);
            let swiped = point(ev, true)
                .filter(|_| ev.type_() == "touchend")
                .and_then(|end| gesture(t.start, end, now() - t.at_ms, width));
            if let Some(action) = swiped.and_then(|g| action(g, t.context)) {
                run(action, chat, sheets);
            }
        }
    };
    let end_too = end.clone();
    vec![
        EventListener::new(root, "touchstart", start),
        EventListener::new(root, "touchmove", moved),
        EventListener::new(root, "touchend", end),
        EventListener::new(root, "touchcancel", end_too),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHONE: u32 = 390;

    fn at(width: u32) -> Context {
        Context {
            width,
            ..Context::default()
        }
    }

    #[test]
    fn a_swipe_is_far_enough_mostly_sideways_and_quick() {
        let w = f64::from(PHONE);
        assert_eq!(
            gesture((5.0, 400.0), (200.0, 420.0), 250.0, w),
            Some(Gesture::Right { edge: true })
        );
        assert_eq!(
            gesture((200.0, 400.0), (100.0, 410.0), 250.0, w),
            Some(Gesture::Left { edge: false })
        );
        assert_eq!(
            gesture((385.0, 400.0), (200.0, 400.0), 250.0, w),
            Some(Gesture::Left { edge: true })
        );
        assert_eq!(
            gesture((100.0, 400.0), (140.0, 400.0), 100.0, w),
            None,
            "too short"
        );
        assert_eq!(
            gesture((100.0, 400.0), (200.0, 600.0), 100.0, w),
            None,
            "a scroll"
        );
        assert_eq!(
            gesture((5.0, 400.0), (200.0, 400.0), 2000.0, w),
            None,
            "too slow"
        );
    }

    #[test]
    fn from_the_left_edge_the_menu_opens_or_a_full_screen_thread_closes() {
        let right_edge = Gesture::Right { edge: true };
        assert_eq!(action(right_edge, at(PHONE)), Some(Action::OpenMenu));
        let thread = Context {
            thread_open: true,
            ..at(PHONE)
        };
        assert_eq!(action(right_edge, thread), Some(Action::CloseThread));
        // On a wide screen the thread is beside the conversation and there are no sheets.
        let wide = Context {
            thread_open: true,
            ..at(1366)
        };
        assert_eq!(action(right_edge, wide), None);
        let on_wide_thread = Context {
            on_thread: true,
            ..wide
        };
        assert_eq!(
            action(Gesture::Right { edge: false }, on_wide_thread),
            Some(Action::CloseThread),
            "a swipe on the thread closes it"
        );
    }

    #[test]
    fn a_sheet_closes_the_way_it_came_and_a_message_swiped_left_is_answered() {
        let (left, right) = (
            Gesture::Left { edge: false },
            Gesture::Right { edge: false },
        );
        let sheet = |sheet| Context { sheet, ..at(PHONE) };
        let id = EventId::from_parts(7, 1);
        let message = Context {
            on_message: Some(id),
            ..at(PHONE)
        };
        for (gesture, context, wanted) in [
            (left, sheet(Sheet::Menu), Some(Action::CloseSheet)),
            (Gesture::Right { edge: true }, sheet(Sheet::Menu), None),
            (right, sheet(Sheet::People), Some(Action::CloseSheet)),
            (
                Gesture::Left { edge: true },
                at(PHONE),
                Some(Action::OpenPeople),
            ),
            (left, message, Some(Action::ReplyInThread(id))),
            (left, at(PHONE), None),
            (right, message, None),
        ] {
            assert_eq!(
                action(gesture, context),
                wanted,
                "{gesture:?} on {context:?}"
            );
        }
    }
}
