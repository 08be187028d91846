//! `RegistryObject`: the identity registry (`/registry/v1/…`, did.json
//! documents, `/.well-known/jwks.json`) in its own Durable Object.
//!
//! One instance (named [`crate::host::stubs::REGISTRY`]) keeps each agent's record as a JSON row
//! and the JWT signing seed in SQLite; every decision is
//! [`agentnet_core::bindings::registry`]'s and
//! [`agentnet_core::identity::registry`]'s. Sharding when one object is not
//! enough is planned in `docs/identity.md`.

use crate::adoption::Adoption;
use crate::host::handover::ADOPT_PATH;
use crate::host::sql::{run, select};
use crate::host::{now, now_ms, random_seed, request_of, respond};
use agentnet_core::bindings::a2a::signature;
use agentnet_core::bindings::access::nonce_claims;
use agentnet_core::bindings::discovery;
use agentnet_core::bindings::discovery::members::{self, MEMBERS_PATH};
use agentnet_core::bindings::registry as routes;
use agentnet_core::crypto::{from_hex, to_hex};
use agentnet_core::discovery::Catalog;
use agentnet_core::discovery::feed::DEFAULT_RETENTION;
use agentnet_core::discovery::fetch_policy::{self, FetchPolicy, Submissions};
use agentnet_core::identity::aic::AicIssuer;
use agentnet_core::identity::registry::{AgentRecord, Registry, RegistryConfig, TOKEN_TTL_SECS};
use serde::Deserialize;
use std::cell::RefCell;
use worker::{
    DurableObject, Env, Request, Response, Result, SqlStorage, SqlStorageValue, State,
    durable_object,
};

/// AIC provider part (4 characters `0-9A-Z`), a `wrangler.toml` var.
const PROVIDER_VAR: &str = "AGENTNET_AIC_PROVIDER";
/// AIC registering-entity part (5 characters), a `wrangler.toml` var.
const ENTITY_VAR: &str = "AGENTNET_AIC_ENTITY";
/// How many DRC changes the feed keeps (`changes` answers 410 behind them), a `wrangler.toml` var.
const RETENTION_VAR: &str = "AGENTNET_DRC_RETENTION";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS agents (name TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
";

/// Every table the registry keeps (what it adopts from the main Worker's retired registry).
const TABLES: &[&str] = &[
    "agents",
    "meta",
    "drc_changes",
    "drc_versions",
    "drc_webhooks",
    "drc_deliveries",
    "submitted",
    "network_members",
    "didwba_nonces",
];

/// Makes every table of [`TABLES`].
fn schema(sql: &SqlStorage) -> Result<()> {
    sql.exec(SCHEMA, None)?;
    sql.exec(crate::registry::discovery_store::SCHEMA, None)?;
    sql.exec(crate::registry::nonces::SCHEMA, None)?;
    Ok(())
}

#[derive(Deserialize)]
struct Row {
    record: String,
}

#[derive(Deserialize)]
struct Meta {
    value: String,
}

/// The registry's Durable Object.
#[durable_object]
pub struct RegistryObject {
    pub(crate) state: State,
    aic: AicIssuer,
    retention: usize,
    registry: RefCell<Option<Registry>>,
    catalog: RefCell<Option<Catalog>>,
    /// What passive registration and webhooks may fetch (`AGENTNET_OUTBOUND_ALLOW_HOSTS`, `AGENTNET_DISCOVERY_ALLOW_HOSTS`, `AGENTNET_DESCRIPTIONS_PER_MINUTE`).
    pub(crate) policy: FetchPolicy,
    /// Recent submissions by caller (in memory: a restart forgets them).
    pub(crate) submissions: RefCell<Submissions>,
    /// The rows taken over from the main Worker's retired registry.
    adoption: Adoption,
}

/// The signing seed, made on first use and kept.
fn signing_seed(sql: &SqlStorage) -> Result<[u8; 32]> {
    let rows: Vec<Meta> = select(
        sql,
        "SELECT value FROM meta WHERE key = 'signing_seed'",
        None,
    )?;
    if let Some(seed) = rows.first().and_then(|m| from_hex::<32>(&m.value)) {
        return Ok(seed);
    }
    let seed = random_seed();
    sql.exec(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('signing_seed', ?)",
        vec![SqlStorageValue::from(to_hex(&seed))],
    )?;
    Ok(seed)
}

impl RegistryObject {
    fn load(&self, sql: &SqlStorage, config: RegistryConfig) -> Result<(Registry, Catalog)> {
        sql.exec(SCHEMA, None)?;
        let mut registry = Registry::new(config, signing_seed(sql)?);
        let mut catalog = Catalog::new(self.retention);
        catalog.outbound = self.policy.outbound.clone();
        let rows: Vec<Row> = select(sql, "SELECT record FROM agents", None)?;
        for row in rows {
            if let Ok(record) = serde_json::from_str::<AgentRecord>(&row.record) {
                catalog.load_agent(
                    record.to_json(registry.config()),
                    record.revoked_at.is_none(),
                );
                registry.load(record);
            }
        }
        crate::registry::discovery_store::load(sql, &mut catalog)?;
        Ok((registry, catalog))
    }

    /// Runs `f` on the loaded registry and catalog (no borrow outlives it).
    pub(crate) fn with_both<T>(
        &self,
        f: impl FnOnce(&mut Registry, &mut Catalog) -> T,
    ) -> Result<T> {
        let mut registry = self.registry.borrow_mut();
        let mut catalog = self.catalog.borrow_mut();
        match (registry.as_mut(), catalog.as_mut()) {
            (Some(r), Some(c)) => Ok(f(r, c)),
            _ => Err(worker::Error::RustError("registry not loaded".into())),
        }
    }

    /// Stores an agent's record.
    pub(crate) fn store_record(&self, sql: &SqlStorage, record: &AgentRecord) -> Result<()> {
        run(
            sql,
            "INSERT OR REPLACE INTO agents (name, record) VALUES (?, ?)",
            vec![
                SqlStorageValue::from(record.name.clone()),
                SqlStorageValue::from(serde_json::to_string(record)?),
            ],
        )
    }
}

impl DurableObject for RegistryObject {
    fn new(state: State, env: Env) -> Self {
        let var = |name| {
            env.var(name)
                .ok()
                .map(|v| v.to_string())
                .unwrap_or_default()
        };
        let aic = AicIssuer::new(&var(PROVIDER_VAR), &var(ENTITY_VAR)).unwrap_or_default();
        let retention = var(RETENTION_VAR).parse().unwrap_or(DEFAULT_RETENTION);
        let policy = FetchPolicy::from_vars(
            crate::host::outbound::policy_of(&env),
            Some(var(fetch_policy::PER_MINUTE_VAR).as_str()),
        );
        Self {
            state,
            aic,
            retention,
            registry: RefCell::new(None),
            catalog: RefCell::new(None),
            policy,
            submissions: RefCell::new(Submissions::default()),
            adoption: Adoption::new(TABLES, schema),
        }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let sql = self.state.storage().sql();
        if let Some(answer) = self.adoption.answer(&sql, &mut req).await? {
            // Webhook deliveries that were waiting in the retired registry go out from here now.
            if req.path() == ADOPT_PATH
                && let Some(next) = crate::registry::discovery_store::next_due(&sql)?
            {
                self.wake_at(next.max(now_ms())).await?;
            }
            return Ok(answer);
        }
        let request = match request_of(&mut req).await {
            Ok(request) => request,
            Err(refused) => return respond(refused),
        };
        if request.path() == signature::SIGN_PATH {
            sql.exec(SCHEMA, None)?;
            return respond(signature::sign_answer(&signing_seed(&sql)?, &request.body));
        }
        if request.path() == nonce_claims::CLAIM_PATH {
            return respond(crate::registry::nonces::claim(&sql, &request.body, now())?);
        }
        let origin = request.origin().to_owned();
        let host = origin.split("://").nth(1).unwrap_or("").to_owned();
        let config = RegistryConfig {
            issuer: origin,
            host,
            aic: self.aic.clone(),
            token_ttl_secs: TOKEN_TTL_SECS,
        };
        if self.registry.borrow().is_none() {
            let (registry, catalog) = self.load(&sql, config.clone())?;
            *self.registry.borrow_mut() = Some(registry);
            *self.catalog.borrow_mut() = Some(catalog);
        }
        self.with_both(|registry, _| registry.set_origin(config.issuer, config.host))?;
        if request.path() == MEMBERS_PATH {
            let listed =
                self.with_both(|_, catalog| members::network_members(catalog, &request.body))?;
            return respond(match listed {
                Ok((network, records)) => {
                    crate::registry::discovery_store::store_members(&sql, &network, &records)?;
                    members::listed_answer(&network, &records)
                }
                Err(refused) => refused,
            });
        }
        if discovery::is_discovery(&request) {
            return self.serve_discovery(request).await;
        }
        let nonce = || to_hex(&random_seed());
        let (response, changed) = self.with_both(|registry, catalog| {
            let (response, changed) = routes::handle(registry, &request, nonce, now());
            let change = changed.as_ref().map(|record| {
                let live = record.revoked_at.is_none();
                catalog.agent_changed(record.to_json(registry.config()), live, now())
            });
            (response, changed.zip(change))
        })?;
        if let Some((record, (change, pruned))) = changed {
            self.store_record(&sql, &record)?;
            self.store_change(&sql, &change, &pruned).await?;
        }
        respond(response)
    }

    async fn alarm(&self) -> Result<Response> {
        self.deliver_due().await?;
        Response::ok("")
    }
}
