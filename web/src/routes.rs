//! The workspace's URLs: every place a person can be — a network's
//! conversation (everyone, a channel, a person), a thread, a document, an
//! event in the inspector, the tasks or one task, the network's profile, its admin —
//! has a path under `/n/{network}`, so it can be linked to, opened in a new
//! tab and reached again with the back button.
//!
//! [`Place`] is the model: [`Place::path`] writes a place's path and
//! [`place_of`] reads one back (a pure round trip, tested below). A link to
//! one message adds `?message={id}` to its conversation's (or thread's)
//! path ([`Place::path_at`], read back by [`message_in`]): the workspace
//! opens there scrolled to it, highlighted. The
//! `leptos_router` router (in `lib.rs`) matches `/n/*`; the workspace
//! follows the location and [`Navigator`] moves it.

use crate::chat::conversations::EVERYONE;
use agentnet_core::EventId;
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::hooks::use_navigate;
use std::rc::Rc;

/// Where the workspace of a network lives: `/n/{network}`.
pub const PREFIX: &str = "/n/";

/// A place in one network's workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A conversation: [`EVERYONE`], `channel/{name}` or a person's address.
    Conversation(String),
    /// One message and the replies to it.
    Thread(EventId),
    /// A file or context, on a page of its own.
    Document(String),
    /// The event inspector.
    Inspector,
    /// One event, open in the inspector.
    Event(EventId),
    /// The person's tasks in this network.
    Tasks,
    /// One task: its state, conversation and artifacts.
    Task(String),
    /// The network's profile.
    About,
    /// Managing the network (masters) and its analytics.
    Admin,
}

impl Default for Place {
    fn default() -> Self {
        Self::Conversation(EVERYONE.to_owned())
    }
}

/// The path of `network`'s workspace (its conversation with everyone).
pub fn network_path(network: &str) -> String {
    format!("{PREFIX}{network}")
}

impl Place {
    /// The path of this place in `network`.
    pub fn path(&self, network: &str) -> String {
        let base = network_path(network);
        match self {
            Self::Conversation(c) if c == EVERYONE => base,
            Self::Conversation(c) => match c.strip_prefix("channel/") {
                Some(name) => format!("{base}/channel/{name}"),
                None => format!("{base}/with/{c}"),
            },
            Self::Thread(id) => format!("{base}/thread/{id}"),
            Self::Document(address) => format!("{base}/document/{address}"),
            Self::Inspector => format!("{base}/inspector"),
            Self::Event(id) => format!("{base}/event/{id}"),
            Self::Tasks => format!("{base}/tasks"),
            Self::Task(id) => format!("{base}/tasks/{id}"),
            Self::About => format!("{base}/about"),
            Self::Admin => format!("{base}/admin"),
        }
    }

    /// The path of this place in `network`, at `message` (`?message={id}`).
    pub fn path_at(&self, network: &str, message: EventId) -> String {
        format!("{}?{MESSAGE}={message}", self.path(network))
    }

    /// The conversation a place shows, if it is one.
    pub fn conversation(&self) -> Option<&str> {
        match self {
            Self::Conversation(c) => Some(c),
            _ => None,
        }
    }
}

/// The query parameter that names the message a link points at.
pub const MESSAGE: &str = "message";

/// The message a URL's `?message=` value names (`None` for none or a bad id).
pub fn message_in(value: Option<&str>) -> Option<EventId> {
    value.and_then(|v| v.trim().parse().ok())
}

/// The network and place a (decoded) path names; `None` for a path that is
/// not a workspace's, or names something that cannot be (a bad event id).
pub fn place_of(path: &str) -> Option<(String, Place)> {
    let rest = path.strip_prefix(PREFIX)?.trim_end_matches('/');
    let (network, rest) = rest.split_once('/').unwrap_or((rest, ""));
    let network = network
        .parse::<agentnet_core::NetworkId>()
        .ok()?
        .to_string();
    let (kind, value) = rest.split_once('/').unwrap_or((rest, ""));
    let place = match (kind, value) {
        ("", "") => Place::default(),
        ("channel", name) if !name.is_empty() && !name.contains('/') => {
            Place::Conversation(format!("channel/{name}"))
        }
        ("with", who) if !who.is_empty() => Place::Conversation(who.to_owned()),
        ("thread", id) => Place::Thread(id.parse().ok()?),
        ("document", address) if !address.is_empty() => Place::Document(address.to_owned()),
        ("inspector", "") => Place::Inspector,
        ("event", id) => Place::Event(id.parse().ok()?),
        ("tasks", "") => Place::Tasks,
        ("tasks", id) => Place::Task(id.to_owned()),
        ("about", "") => Place::About,
        ("admin", "") => Place::Admin,
        _ => return None,
    };
    Some((network, place))
}

/// The router's navigate function.
type Navigate = Rc<dyn Fn(&str, NavigateOptions)>;

/// Moves the page to another URL (a history entry, so Back returns):
/// cheap to copy, from context with [`Navigator::get`].
#[derive(Clone, Copy)]
pub struct Navigator {
    navigate: StoredValue<Navigate, LocalStorage>,
}

impl Navigator {
    /// The router's navigator, provided to the components below (inside the `Router`).
    pub fn provide() -> Self {
        let navigator = Self {
            navigate: StoredValue::new_local(Rc::new(use_navigate())),
        };
        provide_context(navigator);
        navigator
    }

    /// The navigator of the page.
    pub fn get() -> Self {
        expect_context()
    }

    /// Goes to `path`, as a new history entry.
    pub fn go(&self, path: &str) {
        self.navigate(path, false);
    }

    /// Goes to `path` in place of the current entry (a redirect).
    pub fn replace(&self, path: &str) {
        self.navigate(path, true);
    }

    fn navigate(&self, path: &str, replace: bool) {
        let path = path.to_owned();
        // Deferred: a navigation may be asked for while the router's own signals are being read.
        let Some(navigate) = self.navigate.try_get_value() else {
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            let options = NavigateOptions {
                replace,
                ..NavigateOptions::default()
            };
            navigate(&path, options);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_place_round_trips_through_its_path() {
        let id = EventId::from_parts(5, 9);
        let places = [
            Place::default(),
            Place::Conversation("channel/plan".into()),
            Place::Conversation("agent:bob".into()),
            Place::Thread(id),
            Place::Document("resource/file/tasks/01ABC/artifact-1".into()),
            Place::Inspector,
            Place::Event(id),
            Place::Tasks,
            Place::Task(id.to_string()),
            Place::About,
            Place::Admin,
        ];
        for place in places {
            let path = place.path("demo");
            assert!(path.starts_with("/n/demo"), "{path}");
            assert_eq!(place_of(&path), Some(("demo".into(), place)), "{path}");
        }
        assert_eq!(Place::default().path("lab"), "/n/lab");
        assert_eq!(
            Place::Conversation("channel/plan".into()).path("lab"),
            "/n/lab/channel/plan"
        );
    }

    #[test]
    fn a_link_to_a_message_carries_its_id_in_the_query() {
        let id = EventId::from_parts(5, 9);
        let path = Place::Conversation("channel/plan".into()).path_at("lab", id);
        assert_eq!(path, format!("/n/lab/channel/plan?message={id}"));
        let (route, query) = path.split_once('?').unwrap_or_default();
        assert_eq!(
            place_of(route),
            Some(("lab".into(), Place::Conversation("channel/plan".into())))
        );
        assert_eq!(message_in(query.strip_prefix("message=")), Some(id));
        assert_eq!(message_in(Some("not-an-id")), None);
        assert_eq!(message_in(None), None);
    }

    #[test]
    fn paths_that_name_nothing_are_none() {
        assert_eq!(
            place_of("/n/demo/"),
            Some(("demo".into(), Place::default()))
        );
        for path in [
            "/",
            "/networks/demo/v1/ws",
            "/n/",
            "/n/Bad!",
            "/n/demo/thread/not-an-id",
            "/n/demo/event/",
            "/n/demo/channel/",
            "/n/demo/channel/a/b",
            "/n/demo/nowhere",
            "/n/demo/inspector/extra",
        ] {
            assert_eq!(place_of(path), None, "{path}");
        }
    }
}
