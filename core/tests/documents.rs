//! Shared documents between a network and several replicas, end to end
//! through the real `Network` and `Replica` in a memory host.
//!
//! The simulation: three replicas edit one file while links partition and
//! heal at random (a partition drops whatever was in flight, as a closed
//! WebSocket does) and the network restarts from its stored rows. Every
//! edit inserts a unique token; after healing, every copy — and a fresh
//! replica that opens the document afterwards — holds the same text with
//! every token exactly once. `AGENTNET_DOC_SIM_RUNS` sets the number of
//! seeded runs (default 40); `AGENTNET_DOC_SIM_SEED` replays one seed.
//!
//! Every scenario runs twice: with the documents kept in the network, and
//! kept elsewhere ([`Network::keep_documents_elsewhere`]) by a
//! [`DocumentHost`] the memory host asks, as the edge's documents object is.

#![cfg(feature = "documents")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test scaffolding: failures should be loud

use agentnet_core::documents::DocumentHost;
use agentnet_core::host::MemoryHost;
use agentnet_core::model::config::ModConfig;
use agentnet_core::model::config::NetworkConfig;
use agentnet_core::network::{Effect, Network};
use agentnet_core::replica::{DocumentEdit, Replica, ReplicaEffect, ReplicaRow, SyncedDocuments};
use agentnet_core::{Address, ErrorCode, Timestamp};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::{Map, json};
use std::collections::VecDeque;

const FILE: &str = "resource/file/plan.md";

fn file() -> Address {
    FILE.parse().unwrap()
}

struct Peer {
    address: Address,
    replica: Replica,
    connected: bool,
    session: Option<Address>,
    to_net: VecDeque<String>,
    to_peer: VecDeque<String>,
    rows: Vec<ReplicaRow>,
    rejections: Vec<ErrorCode>,
    replies: Vec<serde_json::Value>,
}

/// Who keeps the shared documents.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Keeping {
    /// The network itself.
    Here,
    /// A keeper the host asks.
    Elsewhere,
}

/// Runs a scenario with the documents kept each way.
macro_rules! kept_either_way {
    ($scenario:ident) => {
        mod $scenario {
            use super::*;

            #[test]
            fn kept_in_the_network() {
                super::$scenario(Keeping::Here);
            }

            #[test]
            fn kept_elsewhere() {
                super::$scenario(Keeping::Elsewhere);
            }
        }
    };
}

struct World {
    keeping: Keeping,
    rng: ChaCha8Rng,
    now: u64,
    config: NetworkConfig,
    network: Network,
    host: MemoryHost,
    peers: Vec<Peer>,
}

impl World {
    fn new(seed: u64, names: &[&str], keeping: Keeping) -> Self {
        let mut config = NetworkConfig::open("docs".parse().unwrap(), "Docs");
        config.mods = vec![ModConfig::AccessControl];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let network = Network::new(config.clone(), [], 0, [7; 32]);
        let peers = names
            .iter()
            .map(|name| {
                let mut seed = [0u8; 32];
                rng.fill_bytes(&mut seed);
                let address: Address = name.parse().unwrap();
                let mut replica = Replica::new(address.clone(), "docs".parse().unwrap(), seed);
                replica.install_documents(SyncedDocuments::boxed());
                Peer {
                    replica,
                    address,
                    connected: false,
                    session: None,
                    to_net: VecDeque::new(),
                    to_peer: VecDeque::new(),
                    rows: Vec::new(),
                    rejections: Vec::new(),
                    replies: Vec::new(),
                }
            })
            .collect();
        let mut world = Self {
            keeping,
            rng,
            now: 1_000,
            config,
            network,
            host: MemoryHost::default(),
            peers,
        };
        world.renew_network(MemoryHost::default(), [7; 32]);
        world
    }

    /// The network (and its documents' keeper) restored from `stored`'s rows.
    fn renew_network(&mut self, stored: MemoryHost, seed: [u8; 32]) {
        self.network = Network::new(
            self.config.clone(),
            stored.state_rows(),
            stored.last_seq(),
            seed,
        );
        self.host = stored;
        if self.keeping == Keeping::Elsewhere {
            self.network.keep_documents_elsewhere();
            let keeper = DocumentHost::new(&self.config.id, self.host.document_rows.values());
            self.host.documents = Some(keeper);
        }
    }

    /// The document rows stored, wherever the documents are kept.
    fn stored_documents(&self) -> usize {
        let in_network = self
            .host
            .state_rows()
            .iter()
            .filter(|r| matches!(r, agentnet_core::model::state::Row::Document(_)))
            .count();
        in_network + self.host.document_rows.len()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u32() as usize) % n.max(1)
    }

    fn peer_effects(&mut self, i: usize, effects: Vec<ReplicaEffect>) {
        let peer = &mut self.peers[i];
        for effect in effects {
            match effect {
                ReplicaEffect::Send(frame) if peer.connected => peer.to_net.push_back(frame),
                ReplicaEffect::Persist(row) => peer.rows.push(row),
                ReplicaEffect::DocumentRejected { rejection, .. } => {
                    peer.rejections.push(rejection.code)
                }
                ReplicaEffect::Replied { reply, .. } => peer.replies.push(reply.payload),
                _ => {}
            }
        }
    }

    fn network_effects(&mut self, from: usize, effects: Vec<Effect>) {
        let now = self.now;
        for effect in self
            .host
            .apply(&mut self.network, effects, Timestamp::from(now))
        {
            match &effect {
                Effect::Bind(a) => self.peers[from].session = Some(a.clone()),
                Effect::Unbind => self.peers[from].session = None,
                Effect::Reply(_) | Effect::Ack(_) => {
                    if let Some(text) = effect.reply_text() {
                        self.peers[from].to_peer.push_back(text)
                    }
                }
                Effect::Deliver { .. } => {
                    for (to, frame) in effect.frames() {
                        if let Some(peer) = self
                            .peers
                            .iter_mut()
                            .find(|p| &p.address == to && p.connected && p.session.is_some())
                        {
                            peer.to_peer.push_back(frame);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn connect(&mut self, i: usize) {
        if self.peers[i].connected {
            return;
        }
        self.peers[i].connected = true;
        let effects = self.peers[i]
            .replica
            .connected(None, Timestamp::from(self.now));
        self.peer_effects(i, effects);
    }

    /// The link breaks: what was in flight is lost.
    fn partition(&mut self, i: usize) {
        let peer = &mut self.peers[i];
        if !peer.connected {
            return;
        }
        peer.connected = false;
        peer.to_net.clear();
        peer.to_peer.clear();
        peer.replica.disconnected();
        if peer.session.take().is_some() {
            let address = peer.address.clone();
            let effects = self.network.disconnect(&address, Timestamp::from(self.now));
            self.network_effects(i, effects);
        }
    }

    /// The network process restarts from its stored rows; every link breaks.
    fn restart_network(&mut self) {
        for i in 0..self.peers.len() {
            let peer = &mut self.peers[i];
            peer.connected = false;
            peer.session = None;
            peer.to_net.clear();
            peer.to_peer.clear();
            peer.replica.disconnected();
        }
        let stored = std::mem::take(&mut self.host);
        self.renew_network(stored, [8; 32]);
    }

    /// Passes one frame each way for peer `i`; false when nothing moved.
    fn step(&mut self, i: usize) -> bool {
        let mut moved = false;
        if let Some(frame) = self.peers[i].to_net.pop_front() {
            let session = self.peers[i].session.clone();
            let effects =
                self.network
                    .handle_frame(session.as_ref(), &frame, Timestamp::from(self.now));
            self.network_effects(i, effects);
            moved = true;
        }
        if let Some(frame) = self.peers[i].to_peer.pop_front() {
            let effects = self.peers[i]
                .replica
                .receive(&frame, Timestamp::from(self.now));
            self.peer_effects(i, effects);
            moved = true;
        }
        moved
    }

    fn settle(&mut self) {
        for _ in 0..100_000 {
            self.now += 5;
            let mut moved = false;
            for i in 0..self.peers.len() {
                moved |= self.step(i);
                let effects = self.peers[i]
                    .replica
                    .handle_timeout(Timestamp::from(self.now));
                self.peer_effects(i, effects);
            }
            if !moved {
                return;
            }
        }
        panic!("the world did not settle");
    }

    /// Peers `peers` connect and join.
    fn join(&mut self, peers: std::ops::Range<usize>) {
        for i in peers {
            self.connect(i);
        }
        self.settle();
    }

    /// Peer 0 registers the file with `fields` (content, permissions).
    fn register(&mut self, mut fields: serde_json::Value) {
        fields["address"] = json!(FILE);
        self.post(0, "network.resource.register", "core", fields);
        self.settle();
    }

    /// Peers `members` join, peer 0 registers the file with `fields`, and
    /// peers `readers` open it; all settled.
    fn share(
        &mut self,
        members: std::ops::Range<usize>,
        fields: serde_json::Value,
        readers: &[usize],
    ) {
        self.join(members);
        self.register(fields);
        for &i in readers {
            self.open(i);
        }
        self.settle();
    }

    fn post(&mut self, i: usize, event_type: &str, target: &str, payload: serde_json::Value) {
        let (_, effects) = self.peers[i].replica.post(
            event_type.parse().unwrap(),
            target.parse().unwrap(),
            payload,
            Map::new(),
            Timestamp::from(self.now),
        );
        self.peer_effects(i, effects);
    }

    fn open(&mut self, i: usize) {
        let mut actor = [0u8; 16];
        self.rng.fill_bytes(&mut actor);
        let effects = self.peers[i]
            .replica
            .open_document(&file(), actor, Timestamp::from(self.now))
            .unwrap();
        self.peer_effects(i, effects);
    }

    fn edit(&mut self, i: usize, edit: DocumentEdit) -> Result<(), ErrorCode> {
        let effects = self.peers[i]
            .replica
            .edit_document(&file(), edit, Timestamp::from(self.now))
            .map_err(|r| r.code)?;
        self.peer_effects(i, effects);
        Ok(())
    }

    fn text(&self, i: usize) -> String {
        self.peers[i].replica.document_text(&file()).unwrap()
    }
}

/// One seeded run; returns the final text.
fn run(seed: u64, keeping: Keeping) -> String {
    let mut world = World::new(seed, &["agent:owner", "agent:ann", "human:bo"], keeping);
    world.join(0..3);
    world.register(json!({"content": "# plan\n", "permissions": {"write": "network"}}));
    for i in 0..3 {
        world.open(i);
    }
    let mut tokens = Vec::new();
    for tick in 0..300 {
        world.now += 3;
        match world.below(100) {
            0..30 => {
                let i = world.below(3);
                let token = format!("<{seed}.{tick}>");
                let len = world.text(i).encode_utf16().count();
                let index = world.below(len + 1);
                // Insert only at token boundaries, so tokens stay whole.
                let text = world.text(i);
                let index = text
                    .char_indices()
                    .map(|(b, _)| b)
                    .chain([text.len()])
                    .filter(|b| *b == 0 || *b == text.len() || text[..*b].ends_with(['>', '\n']))
                    .min_by_key(|b| b.abs_diff(index))
                    .map_or(0, |b| text[..b].encode_utf16().count());
                world
                    .edit(
                        i,
                        DocumentEdit::Splice {
                            index,
                            delete: 0,
                            insert: token.clone(),
                        },
                    )
                    .unwrap();
                tokens.push(token);
            }
            30..80 => {
                let i = world.below(3);
                world.step(i);
            }
            80..90 => {
                let i = world.below(3);
                let effects = world.peers[i]
                    .replica
                    .handle_timeout(Timestamp::from(world.now));
                world.peer_effects(i, effects);
            }
            90..96 => {
                let i = world.below(3);
                world.partition(i);
            }
            96..99 => {
                let i = world.below(3);
                world.connect(i);
            }
            _ => world.restart_network(),
        }
    }
    world.join(0..3);
    let text = world.text(0);
    for i in 1..3 {
        assert_eq!(world.text(i), text, "seed {seed}: replica {i} differs");
    }
    for token in &tokens {
        assert_eq!(
            text.matches(token.as_str()).count(),
            1,
            "seed {seed}: {token} in {text:?}"
        );
    }
    assert!(text.contains("# plan\n"), "seed {seed}");
    // A replica that restores peer 0's rows holds the same text offline.
    let mut restored = Replica::new(
        world.peers[0].address.clone(),
        "docs".parse().unwrap(),
        [9; 32],
    );
    restored.restore(world.peers[0].rows.clone());
    // Installed after the rows: they are handed over then.
    restored.install_documents(SyncedDocuments::boxed());
    restored
        .open_document(&file(), [9; 16], Timestamp::from(world.now))
        .unwrap();
    assert_eq!(
        restored.document_text(&file()).unwrap(),
        text,
        "seed {seed}: restore"
    );
    text
}

fn three_replicas_with_random_partitions_and_restarts_converge(keeping: Keeping) {
    if let Ok(seed) = std::env::var("AGENTNET_DOC_SIM_SEED") {
        run(seed.parse().unwrap(), keeping);
        return;
    }
    let runs: u64 = std::env::var("AGENTNET_DOC_SIM_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(40);
    for seed in 0..runs {
        run(seed, keeping);
    }
}
kept_either_way!(three_replicas_with_random_partitions_and_restarts_converge);

#[test]
fn a_replica_without_its_documents_installed_refuses_to_open_them_until_they_are() {
    let mut world = World::new(3, &["agent:owner", "agent:ann"], Keeping::Here);
    world.share(0..2, json!({"content": "hello"}), &[0]);
    let mut bare = Replica::new(
        "agent:ann".parse().unwrap(),
        "docs".parse().unwrap(),
        [5; 32],
    );
    assert!(!bare.has_documents());
    let refused = bare
        .open_document(&file(), [5; 16], Timestamp::from(world.now))
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::NotSupported);
    assert_eq!(bare.document_text(&file()), None);
    assert!(
        bare.close_document(&file(), Timestamp::from(world.now))
            .is_empty()
    );
    // Installed later, the same replica opens documents.
    bare.install_documents(SyncedDocuments::boxed());
    assert!(bare.has_documents());
    assert!(
        bare.open_document(&file(), [5; 16], Timestamp::from(world.now))
            .is_ok()
    );
    assert_eq!(bare.document_text(&file()).as_deref(), Some(""));
}

fn a_newcomer_and_a_restarted_network_read_the_merged_text(keeping: Keeping) {
    let mut world = World::new(1, &["agent:owner", "agent:ann", "agent:late"], keeping);
    world.share(0..2, json!({"content": "hello"}), &[0, 1]);
    world
        .edit(
            0,
            DocumentEdit::Splice {
                index: 5,
                delete: 0,
                insert: " world".into(),
            },
        )
        .unwrap();
    world.settle();
    assert_eq!(world.text(1), "hello world");
    world.restart_network();
    world.connect(2);
    world.settle();
    world.open(2);
    world.settle();
    assert_eq!(world.text(2), "hello world");
    // A read answers with the document's text.
    let (_, effects) = world.peers[2].replica.request(
        "network.resource.read".parse().unwrap(),
        file(),
        json!({}),
        5_000,
        Timestamp::from(world.now),
    );
    world.peer_effects(2, effects);
    world.settle();
    assert_eq!(world.peers[2].replies[0]["content"], "hello world");
}
kept_either_way!(a_newcomer_and_a_restarted_network_read_the_merged_text);

fn a_read_only_members_edit_is_refused_undone_and_never_reaches_anyone(keeping: Keeping) {
    let mut world = World::new(2, &["agent:owner", "agent:reader"], keeping);
    // Write stays with the owner (the default); everyone may read.
    world.share(0..2, json!({"content": "draft"}), &[0, 1]);
    assert_eq!(world.text(1), "draft");
    world
        .edit(1, DocumentEdit::Replace("defaced".into()))
        .unwrap();
    assert_eq!(world.text(1), "defaced"); // locally, until the network answers
    world.settle();
    assert_eq!(world.peers[1].rejections, vec![ErrorCode::Forbidden]);
    assert_eq!(world.text(1), "draft");
    assert_eq!(world.text(0), "draft");
    // Further edits are refused locally; the owner's still reach the reader.
    assert_eq!(
        world.edit(1, DocumentEdit::Replace("again".into())),
        Err(ErrorCode::Forbidden)
    );
    world
        .edit(0, DocumentEdit::Replace("final".into()))
        .unwrap();
    world.settle();
    assert_eq!(world.text(1), "final");
    // The network's stored copy never held the refused edit.
    world.restart_network();
    world.connect(0);
    world.settle();
    let mut fresh = World::new(3, &["agent:owner"], keeping);
    fresh.config = world.config.clone();
    fresh.renew_network(world.host.clone(), [1; 32]);
    // A new replica of the same address presents the address's member secret.
    let secret = world.peers[0].replica.member_secret().map(str::to_owned);
    fresh.peers[0].replica.set_member_secret(secret);
    fresh.connect(0);
    fresh.settle();
    fresh.open(0);
    fresh.settle();
    assert_eq!(fresh.text(0), "final");
}
kept_either_way!(a_read_only_members_edit_is_refused_undone_and_never_reaches_anyone);

fn permissions_on_documents_hold_without_access_control(keeping: Keeping) {
    let mut world = World::new(
        5,
        &["agent:owner", "agent:reader", "agent:outsider"],
        keeping,
    );
    world.config.mods = Vec::new();
    world.renew_network(MemoryHost::default(), [7; 32]);
    world.join(0..3);
    world.register(json!({"content": "draft",
               "permissions": {"read": "agents:[agent:owner,agent:reader]"}}));
    // No read: not even a sync.
    world.open(2);
    world.settle();
    assert_eq!(world.peers[2].rejections, vec![ErrorCode::Forbidden]);
    assert_eq!(world.text(2), "");
    // Read but no write: the edit is refused and undone.
    world.open(0);
    world.open(1);
    world.settle();
    world
        .edit(1, DocumentEdit::Replace("defaced".into()))
        .unwrap();
    world.settle();
    assert_eq!(world.peers[1].rejections, vec![ErrorCode::Forbidden]);
    assert_eq!(world.text(0), "draft");
}
kept_either_way!(permissions_on_documents_hold_without_access_control);

fn documents_are_created_listed_read_and_deleted_as_resources_with_their_permissions(
    keeping: Keeping,
) {
    let mut world = World::new(
        4,
        &["agent:owner", "agent:member", "agent:outsider"],
        keeping,
    );
    world.join(0..3);
    // Only the owner and the member may read; only the owner writes.
    world.register(json!({"content": "secret plan",
               "permissions": {"read": "agents:[agent:owner,agent:member]"}}));
    let stored = World::stored_documents;
    assert!(
        stored(&world) > 0,
        "creating the resource stores its document"
    );

    // Listing shows it to readers only, each with their permissions.
    for (i, visible) in [(1, true), (2, false)] {
        let (_, effects) = world.peers[i].replica.request(
            "network.resource.discover".parse().unwrap(),
            Address::core(),
            json!({"type": "file"}),
            5_000,
            Timestamp::from(world.now),
        );
        world.peer_effects(i, effects);
        world.settle();
        let listed = world.peers[i].replies.last().unwrap()["resources"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(listed == 1, visible, "peer {i}");
    }

    // Someone without read may not even sync: refused, nothing learned.
    world.open(2);
    world.settle();
    assert_eq!(world.peers[2].rejections, vec![ErrorCode::Forbidden]);
    assert_eq!(world.text(2), "");
    world.open(1);
    world.settle();
    assert_eq!(world.text(1), "secret plan");

    // Deleting needs admin (the owner's), removes every stored row, and ends syncing.
    world.post(
        1,
        "network.resource.unregister",
        "core",
        json!({"address": FILE}),
    );
    world.settle();
    assert!(
        stored(&world) > 0,
        "a member without admin cannot delete it"
    );
    world.post(
        0,
        "network.resource.unregister",
        "core",
        json!({"address": FILE}),
    );
    world.settle();
    assert_eq!(stored(&world), 0);
    world
        .edit(1, DocumentEdit::Replace("too late".into()))
        .unwrap();
    world.settle();
    assert_eq!(world.peers[1].rejections, vec![ErrorCode::UnknownTarget]);
}
kept_either_way!(documents_are_created_listed_read_and_deleted_as_resources_with_their_permissions);

#[test]
fn documents_a_network_kept_itself_move_to_a_keeper_elsewhere_with_their_text() {
    let names = ["agent:owner", "agent:ann", "agent:late"];
    let mut before = World::new(6, &names, Keeping::Here);
    before.share(0..2, json!({"content": "hello"}), &[0, 1]);
    before
        .edit(0, DocumentEdit::Replace("hello world".into()))
        .unwrap();
    before.settle();
    assert_eq!(before.text(1), "hello world");
    // The network's stored rows, its documents' among them (as an edge object kept them).
    let (documents, rest): (Vec<_>, Vec<_>) = before
        .host
        .rows
        .clone()
        .into_iter()
        .partition(|(_, row)| matches!(row, agentnet_core::model::state::Row::Document(_)));
    let documents: Vec<_> = documents
        .into_iter()
        .filter_map(|(_, row)| match row {
            agentnet_core::model::state::Row::Document(row) => Some(row),
            _ => None,
        })
        .collect();
    assert!(!documents.is_empty());
    let mut stored = before.host.clone();
    stored.rows = rest.into_iter().collect();

    let mut after = World::new(6, &names, Keeping::Elsewhere);
    after.config = before.config.clone();
    after.renew_network(stored, [3; 32]);
    // The keeper adopts the rows and reports each document's text.
    let done = after.host.documents.as_mut().unwrap().adopt(&documents);
    assert_eq!(done.answer.texts.len(), 1);
    assert_eq!(done.adopted.len(), documents.len());
    assert_eq!(done.answer.texts[0].text, "hello world");
    let effects = after
        .network
        .answer_document(done.answer, Timestamp::from(after.now));
    after.network_effects(2, effects);
    // Handing the same rows over again (a hand-over whose answer was lost)
    // keeps nothing more and answers the same text.
    let again = after.host.documents.as_mut().unwrap().adopt(&documents);
    assert!(again.adopted.is_empty() && again.writes.is_empty());
    assert_eq!(again.answer.texts[0].text, "hello world");

    // A newcomer reads the text and opens the document with every edit in it.
    after.join(2..3);
    let (_, effects) = after.peers[2].replica.request(
        "network.resource.read".parse().unwrap(),
        file(),
        json!({}),
        5_000,
        Timestamp::from(after.now),
    );
    after.peer_effects(2, effects);
    after.settle();
    assert_eq!(after.peers[2].replies[0]["content"], "hello world");
    after.open(2);
    after.settle();
    assert_eq!(after.text(2), "hello world");
}
