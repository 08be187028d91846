//! agentnet-web: the workspace in the browser (Leptos, client-side rendered).
//!
//! [`App`] joins the `demo` network as a guest human (the same one after a
//! reload), shows the messages posted there live and posts what the person
//! types. It is local-first: the replica's rows live in IndexedDB
//! ([`storage`]), so history and queued messages show without the network
//! and go out, once and in order, when it comes back. Protocol work happens
//! in `agentnet-core`; [`connection`] only moves frames.

pub mod connection;
pub mod conversations;
pub mod documents;
#[cfg(feature = "documents")]
mod frames;
pub mod inspector;
pub mod live;
pub mod messages;
pub mod networks;
pub mod open_documents;
pub mod profile;
pub mod resources;
pub mod roster;
pub mod storage;
pub mod tabs;
#[cfg(feature = "documents")]
mod timing;

use agentnet_core::ids::event_type::core_types;
use agentnet_core::replica::{Replica, ReplicaEffect};
use agentnet_core::{Address, Event, EventId, EventType, NetworkId};
use connection::{Connection, Signal, random_seed};
use conversations::{Conversations, EVERYONE, conversation_of};
use inspector::Inspector;
use leptos::prelude::*;
use messages::{Line, LineState, MessageLine, line_from, mentions_in, restored_lines};
use open_documents::OpenDocuments;
use resources::{DocumentActions, Outcome, Resources, outcome_of, resources_from};
use roster::{Person, Roster, apply_presence, people_from, trusts_presence};
use serde_json::json;
use tabs::{TabNews, Tabs};

/// The network the workspace opens.
pub const DEFAULT_NETWORK: &str = "demo";
/// The event type of a chat message.
pub const MESSAGE_POSTED: &str = "workspace.message.posted";
/// The event type of a status update (working, thinking, done…).
pub const MESSAGE_STATUS: &str = "workspace.message.status";
/// The event `mod/workspace` emits when someone comes or goes.
pub const PRESENCE_CHANGED: &str = "workspace.presence.changed";
/// How long a roster request may take.
const DISCOVER_TIMEOUT_MS: u64 = 10_000;
/// How long a tool invocation may take.
const INVOKE_TIMEOUT_MS: u64 = 30_000;

fn guest_address() -> Address {
    let seed = random_seed();
    let suffix = u16::from_le_bytes([seed[0], seed[1]]);
    format!("human:guest-{suffix:05}")
        .parse()
        .unwrap_or_else(|_| Address::broadcast())
}

fn socket_url(network: &str) -> String {
    let location = window().location();
    let scheme = if location.protocol().ok().as_deref() == Some("https:") {
        "wss"
    } else {
        "ws"
    };
    let host = location.host().unwrap_or_default();
    format!("{scheme}://{host}/networks/{network}/v1/ws")
}

/// The workspace page.
#[component]
pub fn App() -> impl IntoView {
    let (joined, set_joined) = signal(networks::load());
    let (active, set_active) = signal(
        storage::recall("active")
            .filter(|id| joined.get_untracked().iter().any(|n| &n.id == id))
            .unwrap_or_else(|| joined.get_untracked()[0].id.clone()),
    );
    let (problem, set_problem) = signal(None::<String>);
    let switch = Callback::new(move |id: String| {
        storage::keep("active", &id);
        set_active.set(id);
    });
    let remember = move |network: networks::Joined| {
        let id = network.id.clone();
        set_joined.update(|list| {
            list.retain(|n| n.id != id);
            list.push(network);
            networks::save(list);
        });
        set_problem.set(None);
        switch.run(id);
    };
    let add = Callback::new(
        move |(target, token, person, creating): (String, Option<String>, Option<String>, bool)| {
            // A chosen name becomes the person's address in that network.
            let person = match person.map(|p| networks::person_address(&p)).transpose() {
                Ok(person) => person,
                Err(reason) => {
                    set_problem.set(Some(format!("{reason}.")));
                    return;
                }
            };
            let remember = move |network: networks::Joined| {
                if let Some(address) = &person {
                    storage::keep(&format!("name:{}", network.id), address);
                }
                remember(network);
            };
            if creating {
                if target.is_empty() {
                    set_problem.set(Some("Give the new network a name.".into()));
                    return;
                }
                wasm_bindgen_futures::spawn_local(async move {
                    match networks::create(&target, token.as_deref()).await {
                        Ok(network) => remember(network),
                        Err(reason) => {
                            set_problem.set(Some(format!("Could not create it: {reason}.")))
                        }
                    }
                });
            } else {
                match networks::network_id_from(&target) {
                    Some(id) => remember(networks::Joined {
                        id,
                        token,
                        admin_token: None,
                    }),
                    None => set_problem.set(Some(format!(
                        "“{target}” is not a network id or a network URL."
                    ))),
                }
            }
        },
    );
    let Ok(message_type) = MESSAGE_POSTED.parse::<EventType>() else {
        return view! { <p role="alert">"agentnet could not start: its built-in names are invalid."</p> }.into_any();
    };
    view! {
        <networks::NetworkBar networks=joined active switch add problem />
        {move || {
            let id = active.get();
            let credentials = joined.with_untracked(|list| {
                list.iter().find(|n| n.id == id).and_then(networks::Joined::credentials)
            });
            match id.parse::<NetworkId>() {
                Ok(network) => view! { <Workspace network message_type=message_type.clone() credentials /> }.into_any(),
                Err(_) => view! { <p role="alert">"That network id is not valid."</p> }.into_any(),
            }
        }}
    }
    .into_any()
}

/// The address the person uses in `network`: remembered across reloads, so a
/// reload (even offline) is the same participant with the same outbox.
fn my_address(network: &str) -> Address {
    let key = format!("name:{network}");
    if let Some(address) = storage::recall(&key).and_then(|a| a.parse().ok()) {
        return address;
    }
    let address = guest_address();
    storage::keep(&key, &address.to_string());
    address
}

/// The member secret that keeps `address` this person's in `network` (an
/// address belongs to whoever first joined as it): made up before the first
/// join and remembered (localStorage, shared by the tabs) like the address.
fn my_secret(network: &str, address: &Address) -> String {
    let key = format!("secret:{network}:{address}");
    if let Some(secret) = storage::recall(&key).filter(|s| s.len() >= 16) {
        return secret;
    }
    let secret = agentnet_core::crypto::to_hex(&random_seed());
    storage::keep(&key, &secret);
    secret
}

/// The chat of one network.
#[component]
fn Workspace(
    network: NetworkId,
    message_type: EventType,
    credentials: Option<serde_json::Value>,
) -> impl IntoView {
    let network_name = network.to_string();
    let about_network = network_name.clone();
    let me = my_address(&network_name);
    let me_text = me.to_string();
    let me_for_channels = me_text.clone();
    let me_for_list = me_text.clone();
    let me_for_docs = me_text.clone();
    let (current, set_current) = signal(EVERYONE.to_owned());
    let (channels, set_channels) = signal(Vec::<String>::new());
    let (directs, set_directs) = signal(Vec::<String>::new());
    let (status, set_status) = signal("connecting");
    let (lines, set_lines) = signal(Vec::<Line>::new());
    let (draft, set_draft) = signal(String::new());
    // The message a reply answers: its id and an excerpt.
    let (replying, set_replying) = signal(None::<(EventId, String)>);
    let reply = Callback::new(move |target: (EventId, String)| set_replying.set(Some(target)));
    let (problem, set_problem) = signal(None::<String>);
    let (people, set_people) = signal(Vec::<Person>::new());
    let (seen, set_seen) = signal_local(Vec::<Event>::new());
    let (inspecting, set_inspecting) = signal(false);
    let (about, set_about) = signal(false);
    // What is shared, as last listed: shown (and openable) while offline too.
    let listed_key = format!("resources:{network_name}");
    let (shared, set_shared) = signal(
        storage::recall_json(&listed_key)
            .map(|payload| resources_from(&payload))
            .unwrap_or_default(),
    );
    let (outcome, set_outcome) = signal(None::<(String, Outcome)>);
    // The resource listing and the invocation in flight, so their answers are recognised.
    let listing = StoredValue::new_local(None::<EventId>);
    let invoking = StoredValue::new_local(None::<(EventId, String)>);
    // The file or context being read or saved, so its answer is recognised.
    let (opened, set_opened) = signal(None::<(String, documents::Opened)>);
    // Live (shared, synced) documents by address; those open before a reload
    // show their cached text at once and take typing while the replica loads them.
    let open_docs = OpenDocuments::restore(&network_name);
    let reading = StoredValue::new_local(None::<(EventId, String)>);
    let saving = StoredValue::new_local(None::<(EventId, String, String)>);
    let connection = StoredValue::new_local(None::<Connection>);
    // Sends an event of a core type through the connection; its id, once connected.
    let post_event = move |kind: &'static str, target: Address, payload: serde_json::Value| {
        let kind = kind.parse::<EventType>().ok()?;
        connection.with_value(|c| c.as_ref().map(|c| c.post(kind, target, payload)))
    };
    // The same for a request, whose answer arrives as `ReplicaEffect::Replied`.
    let request_event =
        move |kind: &'static str, target: Address, payload: serde_json::Value, timeout_ms: u64| {
            let kind = kind.parse::<EventType>().ok()?;
            connection.with_value(|c| {
                c.as_ref()
                    .map(|c| c.request(kind, target, payload, timeout_ms))
            })
        };
    // The roster request in flight, so its answer is recognised.
    let discovering = StoredValue::new_local(None::<EventId>);
    let discover = move || {
        // Deferred: the connection is busy delivering the effect that asked for this.
        wasm_bindgen_futures::spawn_local(async move {
            discovering.set_value(request_event(
                core_types::AGENT_DISCOVER,
                Address::core(),
                json!({}),
                DISCOVER_TIMEOUT_MS,
            ));
            listing.set_value(request_event(
                core_types::RESOURCE_DISCOVER,
                Address::core(),
                json!({}),
                DISCOVER_TIMEOUT_MS,
            ));
        });
    };
    let invoke = Callback::new(move |(tool, input): (String, serde_json::Value)| {
        let Ok(target) = tool.parse::<Address>() else {
            return;
        };
        let id = request_event(
            core_types::RESOURCE_INVOKE,
            target,
            json!({ "input": input }),
            INVOKE_TIMEOUT_MS,
        );
        match id {
            Some(id) => {
                invoking.set_value(Some((id, tool.clone())));
                set_outcome.set(Some((tool, Outcome::Waiting)));
            }
            None => set_outcome.set(Some((
                tool,
                Outcome::Error("the workspace is still opening".into()),
            ))),
        }
    });
    let queued = move || {
        lines
            .get()
            .iter()
            .filter(|l| l.state == LineState::Pending)
            .count()
    };

    // What other tabs of this workspace posted, and what became of it.
    let apply_news = move |news: TabNews| match news {
        TabNews::Posted {
            id,
            source,
            target,
            content,
        } => set_lines.update(|l| {
            if !l.iter().any(|line| line.id == id) {
                l.push(Line {
                    id,
                    conversation: conversation_of(&target, &source, &source),
                    source,
                    content,
                    state: LineState::Pending,
                    in_reply_to: None,
                    status: false,
                });
            }
        }),
        TabNews::Accepted { id } => set_lines.update(|l| {
            if let Some(line) = l.iter_mut().find(|line| line.id == id) {
                line.state = LineState::Sent;
            }
        }),
        TabNews::Rejected { id, reason } => set_lines.update(|l| {
            if let Some(line) = l.iter_mut().find(|line| line.id == id) {
                line.state = LineState::Rejected(reason);
            }
        }),
    };
    let tabs = Tabs::open(&network_name, apply_news);
    // An event arrived: messages join the conversation, presence updates the people.
    let on_received = move |event: Event| match event.event_type.as_str() {
        MESSAGE_POSTED | MESSAGE_STATUS => {
            let line = line_from(&event, LineState::Received, &me_text);
            if line.conversation != EVERYONE && !line.conversation.starts_with("channel/") {
                let person = line.conversation.clone();
                set_directs.update(|d| {
                    if !d.contains(&person) {
                        d.push(person);
                    }
                });
            }
            set_lines.update(|l| {
                if !l.iter().any(|known| known.id == line.id) {
                    l.push(line);
                }
            });
        }
        PRESENCE_CHANGED if trusts_presence(&event.source.to_string(), &event.payload) => {
            set_people.update(|p| apply_presence(p, &event.payload));
            // Someone came or went: what is shared (and who owns it) may have changed too.
            discover();
        }
        _ => {}
    };
    let tabs_for_signal = tabs.clone();
    let tabs = StoredValue::new_local(tabs);

    // A guest name another browser already holds: this browser becomes a new guest.
    let guest_taken = {
        let (network, me) = (network_name.clone(), me.to_string());
        move |rejection: &agentnet_core::Rejection| {
            if rejection.code != agentnet_core::ErrorCode::AddressInUse
                || !me.starts_with("human:guest-")
            {
                return false;
            }
            storage::keep(&format!("name:{network}"), &guest_address().to_string());
            window().location().reload().is_ok()
        }
    };
    let on_signal = move |signal: Signal| match signal {
        Signal::Connecting => set_status.set("connecting"),
        Signal::Offline => set_status.set("offline"),
        Signal::Replica(effect) => match *effect {
            ReplicaEffect::Received(event) => {
                set_seen.update(|s| inspector::remember(s, event.clone()));
                on_received(event);
            }
            ReplicaEffect::Online => {
                set_status.set("online");
                set_problem.set(None);
                discover();
            }
            ReplicaEffect::Replied { request, reply }
                if discovering.with_value(|d| *d == Some(request)) =>
            {
                set_people.set(people_from(&reply.payload));
                set_channels.set(conversations::channels_from(&reply.payload));
            }
            ReplicaEffect::Replied { request, reply }
                if listing.with_value(|d| *d == Some(request)) =>
            {
                storage::keep(&listed_key, &reply.payload.to_string());
                set_shared.set(resources_from(&reply.payload));
            }
            ReplicaEffect::Replied { request, reply }
                if reading.with_value(|r| r.as_ref().is_some_and(|(id, _)| *id == request)) =>
            {
                if let Some((_, address)) = reading.with_value(|r| r.clone()) {
                    let text = documents::text_of(
                        reply
                            .payload
                            .get("content")
                            .unwrap_or(&serde_json::Value::Null),
                    );
                    set_opened.set(Some((address, documents::Opened::Text(text))));
                }
            }
            ReplicaEffect::Accepted { id, .. }
                if saving.with_value(|s| s.as_ref().is_some_and(|(sid, _, _)| *sid == id)) =>
            {
                if let Some((_, address, text)) = saving.with_value(|s| s.clone()) {
                    set_opened.set(Some((address, documents::Opened::Saved(text))));
                }
            }
            ReplicaEffect::Rejected { id, rejection }
                if saving.with_value(|s| s.as_ref().is_some_and(|(sid, _, _)| *sid == id)) =>
            {
                if let Some((_, address, _)) = saving.with_value(|s| s.clone()) {
                    set_opened.set(Some((
                        address,
                        documents::Opened::Failed(format!("Not saved: {}", rejection.message)),
                    )));
                }
            }
            ReplicaEffect::Replied { request, reply } => {
                if let Some((_, tool)) = invoking
                    .with_value(|i| i.clone())
                    .filter(|(id, _)| *id == request)
                {
                    set_outcome.set(Some((tool, outcome_of(&reply.payload))));
                }
            }
            ReplicaEffect::RequestFailed { request, rejection }
                if reading.with_value(|r| r.as_ref().is_some_and(|(id, _)| *id == request)) =>
            {
                if let Some((_, address)) = reading.with_value(|r| r.clone()) {
                    set_opened.set(Some((
                        address,
                        documents::Opened::Failed(format!(
                            "Could not read it: {}",
                            rejection.message
                        )),
                    )));
                }
            }
            ReplicaEffect::RequestFailed { request, rejection } => {
                if let Some((_, tool)) = invoking
                    .with_value(|i| i.clone())
                    .filter(|(id, _)| *id == request)
                {
                    set_outcome.set(Some((tool, Outcome::Error(rejection.message))));
                }
            }

            ReplicaEffect::DocumentChanged {
                address,
                text,
                editors,
            } => open_docs.changed(
                address.to_string(),
                text,
                editors.iter().map(ToString::to_string).collect(),
            ),
            ReplicaEffect::DocumentRejected { address, rejection } => {
                open_docs.refused(address.to_string(), rejection.message)
            }
            ReplicaEffect::JoinFailed(rejection) if guest_taken(&rejection) => {}
            ReplicaEffect::JoinFailed(rejection) => {
                set_status.set("offline");
                set_problem.set(Some(format!(
                    "The network refused to let you in: {}",
                    rejection.message
                )));
            }

            ReplicaEffect::Accepted { id, .. } => {
                let news = TabNews::Accepted { id };
                tabs_for_signal.tell(&news);
                apply_news(news);
            }
            ReplicaEffect::Rejected { id, rejection } => {
                let news = TabNews::Rejected {
                    id,
                    reason: rejection.message,
                };
                tabs_for_signal.tell(&news);
                apply_news(news);
            }
            _ => {}
        },
    };

    // Leaving this network (switching to another) closes its connection for good.
    on_cleanup(move || {
        connection.try_with_value(|c| {
            if let Some(c) = c {
                c.close();
            }
        });
    });

    // Open from storage first, so history and the outbox show without the network.
    let storage_key = network_name.clone();
    let owner = me.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let rows = storage::load(&storage_key).await;
        let mut replica = Replica::new(owner.clone(), network, random_seed());
        replica.restore(rows);
        replica.set_member_secret(Some(my_secret(&storage_key, &owner)));
        set_lines.set(restored_lines(&replica, &owner));
        set_seen.set(replica.log().values().cloned().collect());
        match Connection::open(
            &socket_url(&storage_key),
            &storage_key,
            replica,
            credentials,
            on_signal,
        ) {
            // If the person switched away meanwhile, this workspace is gone: close at once.
            Ok(c) => {
                let orphan = connection.try_set_value(Some(c)).flatten();
                if let Some(orphan) = &orphan {
                    orphan.close();
                }
                #[cfg(feature = "documents")]
                let remembered = match orphan {
                    None => open_docs.remembered(),
                    Some(_) => Vec::new(),
                };
                #[cfg(feature = "documents")]
                if !remembered.is_empty() {
                    // Their cached text and the history go on screen before the load.
                    frames::after_paint().await;
                }
                #[cfg(feature = "documents")]
                for address in remembered {
                    let Ok(target) = address.parse::<Address>() else {
                        continue;
                    };
                    // Read before the open: the open shows the loaded text, which ends the typing.
                    let typed = open_docs.typed_while_loading(&address);
                    let reopened = connection
                        .try_with_value(|c| c.as_ref().map(|c| c.reopen_document(&target, typed)));
                    match reopened {
                        Some(Some(Ok((text, problem)))) => {
                            open_docs.show(address, text);
                            if problem.is_some() {
                                set_problem.set(problem);
                            }
                        }
                        Some(Some(Err(reason))) => {
                            // Not opened after all: offer to open it again.
                            open_docs.forget(&address);
                            set_problem.set(Some(reason));
                        }
                        _ => {}
                    }
                }
            }
            Err(_) => {
                set_status.set("offline");
                set_problem.set(Some(
                    "This browser could not open a connection to the network.".into(),
                ));
            }
        }
    });

    let post = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let content = draft.get_untracked().trim().to_owned();
        if content.is_empty() {
            return;
        }
        let conversation = current.get_untracked();
        let Ok(target) = conversation.parse::<Address>() else {
            return;
        };
        let mut metadata = serde_json::Map::new();
        let in_reply_to = replying.get_untracked().map(|(id, _)| id);
        if let Some(parent) = in_reply_to {
            metadata.insert("in_reply_to".into(), json!(parent));
        }
        let mentions = mentions_in(&content);
        if !mentions.is_empty() {
            metadata.insert("mentions".into(), json!(mentions));
        }
        let sent = connection.with_value(|c| {
            c.as_ref().map(|c| {
                let id = c.post_with(
                    message_type.clone(),
                    target,
                    json!({ "content": content }),
                    metadata,
                );
                Line {
                    id,
                    source: c.address().to_string(),
                    conversation: conversation.clone(),
                    content: content.clone(),
                    state: LineState::Pending,
                    in_reply_to,
                    status: false,
                }
            })
        });
        match sent {
            Some(line) => {
                tabs.with_value(|t| {
                    t.tell(&TabNews::Posted {
                        id: line.id,
                        source: line.source.clone(),
                        target: line.conversation.clone(),
                        content: line.content.clone(),
                    })
                });
                set_lines.update(|l| l.push(line));
                set_draft.set(String::new());
                set_replying.set(None);
            }
            None => set_problem.set(Some(
                "The workspace is still opening: try again in a moment.".into(),
            )),
        }
    };

    // Sends a channel command to core; the answer needs no handling here.
    let to_core = move |kind: &'static str, payload: serde_json::Value| {
        post_event(kind, Address::core(), payload);
    };
    let open = Callback::new(move |conversation: String| {
        if let Some(name) = conversation.strip_prefix("channel/") {
            to_core(core_types::CHANNEL_JOIN, json!({ "channel": name }));
        } else if conversation != EVERYONE {
            set_directs.update(|d| {
                if !d.contains(&conversation) {
                    d.push(conversation.clone());
                }
            });
        }
        set_current.set(conversation);
        set_inspecting.set(false);
        set_about.set(false);
    });
    let create = Callback::new(move |name: String| {
        let channel = format!("channel/{name}");
        if channel.parse::<Address>().is_err() {
            set_problem.set(Some(format!(
                "“{name}” cannot be a channel name: use letters, digits, dots, dashes or underscores."
            )));
            return;
        }
        to_core(
            core_types::CHANNEL_CREATE,
            json!({ "channel": name, "members": [me_for_channels.clone()] }),
        );
        set_channels.update(|c| {
            if !c.contains(&channel) {
                c.push(channel.clone());
            }
        });
        set_current.set(channel);
    });
    let leave = Callback::new(move |channel: String| {
        if let Some(name) = channel.strip_prefix("channel/") {
            to_core(core_types::CHANNEL_LEAVE, json!({ "channel": name }));
        }
        set_current.set(EVERYONE.to_owned());
    });
    let read_document = Callback::new(move |address: String| {
        let Ok(target) = address.parse::<Address>() else {
            return;
        };
        if let Some(id) = request_event(
            core_types::RESOURCE_READ,
            target,
            json!({}),
            DISCOVER_TIMEOUT_MS,
        ) {
            reading.set_value(Some((id, address.clone())));
            set_opened.set(Some((address, documents::Opened::Reading)));
        }
    });
    let save_document = Callback::new(move |(address, kind, text): (String, String, String)| {
        let (Ok(target), Ok(content)) = (
            address.parse::<Address>(),
            documents::content_from(&kind, &text),
        ) else {
            return;
        };
        if let Some(id) = post_event(
            core_types::RESOURCE_UPDATE,
            target,
            json!({ "content": content }),
        ) {
            saving.set_value(Some((id, address, text)));
        }
    });
    let open_live = Callback::new(move |address: String| {
        let Ok(target) = address.parse::<Address>() else {
            return;
        };
        #[cfg(feature = "documents")]
        {
            let opened = connection.with_value(|c| c.as_ref().map(|c| c.open_document(&target)));
            match opened {
                Some(Ok(text)) => {
                    open_docs.remember(&address);
                    open_docs.show(address, text);
                }
                Some(Err(reason)) => set_problem.set(Some(reason)),
                None => {}
            }
        }
        #[cfg(not(feature = "documents"))]
        let _ = target;
    });
    let edit_live = Callback::new(move |(address, text): (String, String)| {
        let Ok(target) = address.parse::<Address>() else {
            return;
        };
        #[cfg(feature = "documents")]
        {
            // Typed into the cached copy: kept, and applied once the document has loaded.
            if open_docs.keep_if_loading(&address, &text) {
                return;
            }
            let edited = connection
                .with_value(|c| c.as_ref().map(|c| c.edit_document(&target, text.clone())));
            match edited {
                Some(Ok(())) => open_docs.show(address, text),
                Some(Err(reason)) => set_problem.set(Some(reason)),
                None => {}
            }
        }
        #[cfg(not(feature = "documents"))]
        let _ = (target, text);
    });
    let conversation_list = leptos::prelude::Signal::derive(move || {
        let mut list = vec![EVERYONE.to_owned()];
        list.extend(channels.get());
        list.extend(directs.get().into_iter().filter(|d| d != &me_for_list));
        list
    });

    view! {
        <header class="topbar">
            <h1>"agentnet"</h1>
            <span class="network">"network: " {network_name.clone()}</span>
            <span class="me">"you are " <strong>{me.to_string()}</strong></span>
            <span class="status" role="status" data-state=move || status.get()>
                {move || match (status.get(), queued()) {
                    ("online", _) => "online".to_owned(),
                    (state, 0) => state.to_owned(),
                    (state, n) => format!("{state} · {n} queued"),
                }}
            </span>
        </header>
        <nav class="views" aria-label="Views">
            <button type="button" aria-pressed=move || (!inspecting.get() && !about.get()).to_string()
                on:click=move |_| { set_inspecting.set(false); set_about.set(false); }>"Conversation"</button>
            <button type="button" aria-pressed=move || inspecting.get().to_string()
                on:click=move |_| { set_inspecting.set(true); set_about.set(false); }>"Inspector"</button>
            <button type="button" aria-pressed=move || about.get().to_string()
                on:click=move |_| { set_about.set(true); set_inspecting.set(false); }>"About"</button>
        </nav>
        <div class="layout">
        <Conversations list=conversation_list current open create leave />
        <Show when=move || inspecting.get()>
            <Inspector events=seen />
        </Show>
        <Show when=move || about.get()>
            <profile::About network=about_network.clone() />
        </Show>
        <main class="chat" hidden=move || inspecting.get() || about.get()>
            <Show when=move || problem.get().is_some()>
                <p class="problem" role="alert">{move || problem.get().unwrap_or_default()}</p>
            </Show>
            <ul class="messages" aria-label="Conversation">
                <For
                    each=move || {
                        let open = current.get();
                        let all = lines.get();
                        // Each line with an excerpt of the message it answers.
                        all.iter()
                            .filter(|l| l.conversation == open)
                            .map(|l| {
                                let parent = l.in_reply_to.and_then(|p| {
                                    all.iter().find(|x| x.id == p).map(|x| messages::excerpt_of(&x.content))
                                });
                                (l.clone(), parent)
                            })
                            .collect::<Vec<_>>()
                    }
                    key=|(line, parent)| (line.id, format!("{:?}", line.state), parent.is_some())
                    let:item
                >
                    <MessageLine line=item.0 parent=item.1 reply />
                </For>
            </ul>
            <Show when=move || replying.get().is_some()>
                <p class="replying">
                    {move || replying.get().map(|(_, e)| format!("Replying to “{e}”")).unwrap_or_default()}
                    <button type="button" on:click=move |_| set_replying.set(None)>"Cancel reply"</button>
                </p>
            </Show>
            <form class="composer" on:submit=post>
                <label for="message">"Message"</label>
                <input id="message" name="message" autocomplete="off"
                    prop:value=move || draft.get()
                    on:input=move |ev| set_draft.set(event_target_value(&ev)) />
                <button type="submit">"Send"</button>
            </form>
        </main>
        <div class="side">
            <Roster people=people open />
            <Resources resources=shared outcome invoke refresh=Callback::new(move |_| discover())
                documents=DocumentActions { opened, read: read_document, save: save_document,
                    live_docs: open_docs.docs(), open_live, edit_live }
                me=me_for_docs />
        </div>
        </div>
    }
}
