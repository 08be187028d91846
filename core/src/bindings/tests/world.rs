//! A network in memory behind a test host that does the bindings' I/O (MCP sessions too).

use super::post;
use crate::Timestamp;
use crate::bindings::access::policy::{Expired, Policy, SessionRow, TicketRow};
use crate::bindings::http::handle;
use crate::bindings::mcp::session::{McpHost, Session};
use crate::bindings::oauth::grants::{Client, Grant, OAuthHost};
use crate::bindings::{BindingHost, Collected, Outcome, Request, Response};
use crate::host::MemoryHost;
use crate::host::credentials::{Credentials, end_all};
use crate::identity::didwba::ed25519_client_header;
use crate::ids::standing::Verification;
use crate::network::Effect;
use crate::{Address, EventId, Network, NetworkConfig};
use serde_json::json;
use std::collections::BTreeMap;
use std::convert::Infallible;

pub(crate) const BASE: &str = "https://edge.test/networks/demo/";

/// The I/O of a host, in memory.
pub(crate) struct TestHost {
    pub(crate) log: MemoryHost,
    pub(crate) sessions: BTreeMap<String, SessionRow>,
    pub(crate) tickets: BTreeMap<String, TicketRow>,
    pub(crate) policy: Policy,
    pub(crate) mcp_sessions: BTreeMap<String, Session>,
    pub(crate) oauth_clients: BTreeMap<String, Client>,
    /// OAuth grants by the SHA-256 of their secret.
    pub(crate) grants: BTreeMap<String, Grant>,
    /// Every effect applied, in order.
    pub(crate) applied: Vec<Effect>,
    pub(crate) now: u64,
    pub(crate) seed: u8,
    /// Open event streams per member.
    pub(crate) streams: BTreeMap<Address, usize>,
    /// Hosted agents' provider keys.
    pub(crate) agent_keys: BTreeMap<Address, String>,
    /// Stored files' records.
    pub(crate) files: BTreeMap<crate::files::FileId, crate::files::StoredFile>,
}

impl BindingHost for TestHost {
    type Error = Infallible;

    fn now(&self) -> Timestamp {
        Timestamp::from(self.now)
    }
    fn random_seed(&mut self) -> [u8; 32] {
        self.seed = self.seed.wrapping_add(1);
        [self.seed; 32]
    }
    fn policy(&self) -> Policy {
        self.policy
    }
    fn session(&mut self, token_sha256: &str) -> Result<Option<SessionRow>, Infallible> {
        Ok(self.sessions.get(token_sha256).cloned())
    }
    fn add_session(
        &mut self,
        hash: &str,
        address: &Address,
        now: Timestamp,
    ) -> Result<(), Infallible> {
        let row = SessionRow {
            address: address.to_string(),
            created: now,
            last_used: now,
        };
        self.sessions.insert(hash.to_owned(), row);
        Ok(())
    }
    fn touch_session(&mut self, hash: &str, now: Timestamp) -> Result<(), Infallible> {
        if let Some(row) = self.sessions.get_mut(hash) {
            row.last_used = now;
        }
        Ok(())
    }
    fn end_session(&mut self, hash: &str) -> Result<(), Infallible> {
        self.sessions.remove(hash);
        Ok(())
    }
    fn prune_sessions(&mut self, expired: Expired) -> Result<(), Infallible> {
        self.sessions
            .retain(|_, s| !expired.covers(s.created, s.last_used));
        Ok(())
    }
    fn add_ticket(
        &mut self,
        hash: &str,
        address: &Address,
        expires_at: Timestamp,
    ) -> Result<(), Infallible> {
        let row = TicketRow {
            address: address.to_string(),
            expires_at,
        };
        self.tickets.insert(hash.to_owned(), row);
        Ok(())
    }
    fn take_ticket(&mut self, hash: &str) -> Result<Option<TicketRow>, Infallible> {
        Ok(self.tickets.remove(hash))
    }
    fn prune_tickets(&mut self, now: Timestamp) -> Result<(), Infallible> {
        self.tickets.retain(|_, t| t.expires_at > now);
        Ok(())
    }
    fn seq_of(&mut self, id: &EventId) -> Result<Option<u64>, Infallible> {
        Ok(self
            .log
            .log
            .iter()
            .find(|r| r.event.id == *id)
            .map(|r| r.seq))
    }
    fn collect(
        &mut self,
        network: &mut Network,
        effects: Vec<Effect>,
        requester: Option<&Address>,
    ) -> Result<Collected, Infallible> {
        let mut collected = Collected::for_requester(requester);
        for effect in self.log.apply(network, effects, Timestamp::from(self.now)) {
            collected.record(&effect);
            self.end_credentials(&effect);
            self.applied.push(effect);
        }
        Ok(collected)
    }
    fn apply(&mut self, network: &mut Network, effects: Vec<Effect>) -> Result<(), Infallible> {
        for effect in self.log.apply(network, effects, Timestamp::from(self.now)) {
            self.end_credentials(&effect);
            self.applied.push(effect);
        }
        Ok(())
    }
    fn open_streams(&self, member: &Address) -> usize {
        self.streams.get(member).copied().unwrap_or(0)
    }
    fn keep_agent_key(
        &mut self,
        agent: &Address,
        key: Option<&crate::agent::hosted::ProviderKey>,
    ) -> Result<bool, Infallible> {
        match key {
            Some(key) => self
                .agent_keys
                .insert(agent.clone(), key.expose().to_owned()),
            None => self.agent_keys.remove(agent),
        };
        Ok(true)
    }
    fn agent_key_source(
        &mut self,
        agent: &Address,
    ) -> Result<crate::agent::hosted::KeySource, Infallible> {
        Ok(if self.agent_keys.contains_key(agent) {
            crate::agent::hosted::KeySource::Own
        } else {
            crate::agent::hosted::KeySource::None
        })
    }
}

impl TestHost {
    /// Applies an [`Effect::EndCredentials`] as every host does.
    fn end_credentials(&mut self, effect: &Effect) {
        if let Effect::EndCredentials(member) = effect {
            let Ok(()) = end_all(self, member);
        }
    }
}

/// What a member holds in memory, ended as a host ends it.
impl Credentials for TestHost {
    type Error = Infallible;
    fn close_sockets(&mut self, _: &Address) -> Result<(), Infallible> {
        Ok(())
    }
    fn close_streams(&mut self, member: &Address) -> Result<(), Infallible> {
        self.streams.remove(member);
        Ok(())
    }
    fn end_sessions(&mut self, member: &Address) -> Result<(), Infallible> {
        let member = member.to_string();
        self.sessions.retain(|_, s| s.address != member);
        self.tickets.retain(|_, t| t.address != member);
        Ok(())
    }
    fn end_oauth_grants(&mut self, member: &Address) -> Result<(), Infallible> {
        let member = member.to_string();
        self.grants.retain(|_, g| g.address != member);
        Ok(())
    }
    fn end_mcp_sessions(&mut self, member: &Address) -> Result<(), Infallible> {
        self.mcp_sessions.retain(|_, s| &s.member != member);
        Ok(())
    }
}

pub(crate) struct World {
    pub(crate) host: TestHost,
    pub(crate) network: Network,
}

impl World {
    pub(crate) fn new() -> Self {
        Self::with_config(NetworkConfig::open("demo".parse().unwrap(), "Demo"))
    }

    pub(crate) fn with_config(config: NetworkConfig) -> Self {
        World {
            host: TestHost {
                log: MemoryHost::default(),
                sessions: BTreeMap::new(),
                tickets: BTreeMap::new(),
                policy: Policy::default(),
                mcp_sessions: BTreeMap::new(),
                oauth_clients: BTreeMap::new(),
                grants: BTreeMap::new(),
                applied: Vec::new(),
                now: 1_000,
                seed: 0,
                streams: BTreeMap::new(),
                agent_keys: BTreeMap::new(),
                files: BTreeMap::new(),
            },
            network: Network::new(config, [], 0, [7; 32]),
        }
    }

    pub(crate) fn outcome(&mut self, req: &Request) -> Outcome {
        self.host.now += 1;
        let route = match crate::bindings::route::network_route(req) {
            Some(crate::bindings::route::NetworkRoute::Api(route)) => route,
            other => panic!("not a path of the HTTP API: {other:?}"),
        };
        let Ok(outcome) = handle(&mut self.host, &mut self.network, req, &route, false);
        outcome
    }

    pub(crate) fn call(&mut self, req: &Request) -> Response {
        match self.outcome(req) {
            Outcome::Respond(response) => response,
            other => panic!("expected a response, got {other:?}"),
        }
    }

    /// Gives the network the document of `did` listing an Ed25519 key made
    /// from `seed` as `key-1` (as the host would after resolving it); the key.
    pub(crate) fn knows_did(&mut self, did: &str, seed: u8) -> ed25519_dalek::SigningKey {
        use crate::identity::did::{Did, document};
        use crate::identity::keys::PublicKey;
        let key = ed25519_dalek::SigningKey::from_bytes(&[seed; 32]);
        let did: Did = did.parse().unwrap();
        let public = PublicKey::ed25519(key.verifying_key().as_bytes()).unwrap();
        let doc = document(&did, &[("key-1".into(), public)], vec![]);
        self.network
            .provide_document(&did, Ok(doc), Timestamp::from(self.host.now));
        key
    }

    /// A DIDWba `Authorization` header of `did`, signed now with `key` as
    /// its `key-1` for `domain` (ANP 1.1's form when `v1_1`).
    pub(crate) fn didwba_header(
        &self,
        key: &ed25519_dalek::SigningKey,
        did: &str,
        nonce: &str,
        domain: &str,
        v1_1: bool,
    ) -> String {
        let timestamp = crate::identity::time::format_rfc3339(self.host.now / 1000);
        let key = key.to_bytes();
        ed25519_client_header(&key, did, "key-1", (nonce, &timestamp), domain, v1_1)
    }

    /// How `member` is verified and the DID it joined with, when it is a member.
    pub(crate) fn verified(&self, member: &str) -> Option<(Verification, Option<String>)> {
        let member = self.network.member(&member.parse().unwrap())?;
        Some((member.verification, member.did.clone()))
    }

    /// Joins `agent` over HTTP; returns its session token.
    pub(crate) fn join(&mut self, agent: &str) -> String {
        let req = post("v1/join", &json!({"agent_id": agent}).to_string());
        let response = self.call(&req);
        assert_eq!(response.status, 200, "{response:?}");
        let body = response.json_body().unwrap();
        body["token"].as_str().unwrap().to_owned()
    }
}

impl McpHost for TestHost {
    fn mcp_session(&mut self, id: &str) -> Result<Option<Session>, Infallible> {
        Ok(self.mcp_sessions.get(id).cloned())
    }
    fn save_mcp_session(&mut self, session: &Session) -> Result<(), Infallible> {
        self.mcp_sessions
            .insert(session.id.clone(), session.clone());
        Ok(())
    }
    fn end_mcp_session(&mut self, id: &str) -> Result<bool, Infallible> {
        Ok(self.mcp_sessions.remove(id).is_some())
    }
}

impl OAuthHost for TestHost {
    fn oauth_client(&mut self, client_id: &str) -> Result<Option<Client>, Infallible> {
        Ok(self.oauth_clients.get(client_id).cloned())
    }
    fn add_oauth_client(&mut self, client: &Client) -> Result<(), Infallible> {
        self.oauth_clients
            .insert(client.client_id.clone(), client.clone());
        Ok(())
    }
    fn oauth_grant(&mut self, sha256: &str) -> Result<Option<Grant>, Infallible> {
        Ok(self.grants.get(sha256).cloned())
    }
    fn save_oauth_grant(&mut self, sha256: &str, grant: &Grant) -> Result<(), Infallible> {
        self.grants.insert(sha256.to_owned(), grant.clone());
        Ok(())
    }
    fn end_oauth_family(&mut self, family: &str) -> Result<(), Infallible> {
        self.grants.retain(|_, g| g.family != family);
        Ok(())
    }
    fn prune_oauth_grants(&mut self, now: Timestamp) -> Result<(), Infallible> {
        self.grants.retain(|_, g| g.expires_at > now);
        Ok(())
    }
}

impl crate::bindings::http::files::FileStore for TestHost {
    type Error = Infallible;
    fn file(
        &mut self,
        id: &crate::files::FileId,
    ) -> Result<Option<crate::files::StoredFile>, Infallible> {
        Ok(self.files.get(id).cloned())
    }
    fn save_file(&mut self, file: &crate::files::StoredFile) -> Result<(), Infallible> {
        self.files.insert(file.id.clone(), file.clone());
        Ok(())
    }
    fn used_bytes(&mut self) -> Result<u64, Infallible> {
        Ok(self.files.values().map(|f| f.size).sum())
    }
    fn link_key(&mut self) -> Result<[u8; 32], Infallible> {
        Ok([42; 32])
    }
}
