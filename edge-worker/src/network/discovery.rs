//! The network object's discovery I/O (the decisions are the core's):
//!
//! * a member's `network.discovery.query` becomes an `Effect::Discover`; the
//!   effect loop leaves it in `crate::network::discovery_queue::DiscoveryIo` and, once the effects
//!   are committed, a task asks the registry object's `discover` route and
//!   feeds its answer back with `Network::answer_discovery`;
//! * when a member or resource row or the configuration is stored, the network's
//!   listing (`discovery::members::network_listing`: its opted-in members and their tools,
//!   none unless public) is sent to the registry object if it changed;
//! * when the configuration is stored (an admin's settings change), the
//!   directory of public networks registers or unregisters the network.

use crate::handover::{directory_object, registry_object};
use crate::host::now;
use crate::host::origin::Origin;
use crate::host::sql::run;
use crate::host::stubs::post;
use crate::network::component::Component;
use crate::network::discovery_queue::DiscoveryIo;
use crate::network::object::NetworkHost;
use agentnet_core::Address;
use agentnet_core::bindings::directory::settings_update;
use agentnet_core::bindings::discovery::members::MEMBERS_PATH;
use agentnet_core::discovery::members::network_listing;
use agentnet_core::model::state::{Row, RowKind};
use agentnet_core::network::Effect;
use agentnet_core::network::{DiscoveryAsk, RegistryAnswer};
use serde::Deserialize;
use serde_json::Value;
use worker::{Result, SqlStorageValue};

const ORIGIN_TABLE: &str = "CREATE TABLE IF NOT EXISTS known_origin (id INTEGER PRIMARY KEY CHECK (id = 1), origin TEXT NOT NULL)";

#[derive(Deserialize)]
struct KnownOrigin {
    origin: String,
}

impl NetworkHost {
    /// Keeps the origin requests reach this object at, so a woken object
    /// (no request yet) still knows it.
    pub(crate) fn store_origin(&self, origin: &str) -> Result<()> {
        let sql = self.state.storage().sql();
        sql.exec(ORIGIN_TABLE, None)?;
        run(
            &sql,
            "INSERT OR REPLACE INTO known_origin (id, origin) VALUES (1, ?)",
            vec![SqlStorageValue::from(origin.to_owned())],
        )
    }

    fn known_origin(&self) -> Option<String> {
        if let Some(origin) = self.origin.borrow().clone() {
            return Some(origin);
        }
        let sql = self.state.storage().sql();
        sql.exec(ORIGIN_TABLE, None).ok()?;
        let rows: Vec<KnownOrigin> = sql
            .exec("SELECT origin FROM known_origin WHERE id = 1", None)
            .ok()?
            .to_array()
            .ok()?;
        let origin = rows.into_iter().next()?.origin;
        *self.origin.borrow_mut() = Some(origin.clone());
        Some(origin)
    }

    /// Starts what the last commit left for the registry and the directory.
    /// A commit may come while the caller holds the network, so the listing
    /// is read in the task, once that hold is over.
    pub(crate) fn start_discovery_io(&self) {
        let (asks, listing, settings) = self.live.discovery.take();
        if asks.is_empty() && !listing && !settings {
            return;
        }
        let Some(me) = self.me.upgrade() else {
            return;
        };
        worker::wasm_bindgen_futures::spawn_local(async move {
            let listing = if listing { me.changed_listing() } else { None };
            let settings = if settings {
                me.directory_update()
            } else {
                None
            };
            if let Err(err) = me.send_discovery_io(asks, listing, settings).await {
                worker::console_error!("discovery I/O of a network failed: {err}");
            }
        });
    }

    /// The listing, when it differs from the one last sent.
    fn changed_listing(&self) -> Option<String> {
        let network = self.network.try_borrow().ok()?;
        let network = network.as_ref()?;
        let config = network.config();
        let text = network_listing(
            config.id.as_str(),
            config.public,
            network.state().members.values(),
            &network.state().resources,
        )
        .to_string();
        self.live.discovery.is_new(text)
    }

    /// The directory request for the network's current settings.
    fn directory_update(&self) -> Option<(&'static str, String)> {
        let network = self.network.try_borrow().ok()?;
        let config = network.as_ref()?.config();
        let description = config.metadata.get("description").and_then(Value::as_str);
        Some(settings_update(
            config.id.as_str(),
            &config.name,
            description,
            config.public,
        ))
    }

    async fn send_discovery_io(
        &self,
        asks: Vec<DiscoveryAsk>,
        listing: Option<String>,
        settings: Option<(&'static str, String)>,
    ) -> Result<()> {
        if let Some((url, body)) = settings {
            post(&directory_object(&self.env).await?, url, body).await?;
        }
        let Some(origin) = self.known_origin() else {
            // Never reached over HTTP: nothing can have joined, nothing to list or answer.
            self.live.discovery.forget_sent();
            return Ok(());
        };
        if let Some(listing) = listing {
            let url = format!("{origin}{MEMBERS_PATH}");
            let sent = post(&registry_object(&self.env).await?, &url, listing).await;
            if !sent.is_ok_and(|r| r.status_code() == 200) {
                // Sent again with the next change.
                self.live.discovery.forget_sent();
            }
        }
        for ask in asks {
            let agents = self.ask_registry(&origin, &ask).await;
            let answer = RegistryAnswer {
                agents,
                origin: origin.clone(),
            };
            let effects = {
                let Ok(mut network) = self.network.try_borrow_mut() else {
                    continue;
                };
                match network.as_mut() {
                    Some(network) => network.answer_discovery(&ask, answer, now()),
                    None => continue,
                }
            };
            self.apply(&Origin::Nowhere, effects)?;
        }
        Ok(())
    }

    /// The registry's part of a query's answer.
    async fn ask_registry(
        &self,
        origin: &str,
        ask: &DiscoveryAsk,
    ) -> std::result::Result<Vec<Value>, String> {
        let stub = registry_object(&self.env)
            .await
            .map_err(|e| e.to_string())?;
        let url = format!("{origin}{}", ask.registry_path());
        let mut response = stub.fetch_with_str(&url).await.map_err(|e| e.to_string())?;
        if response.status_code() != 200 {
            return Err(format!("the registry answered {}", response.status_code()));
        }
        let body: Value = response.json().await.map_err(|e| e.to_string())?;
        match body.get("agents") {
            Some(Value::Array(agents)) => Ok(agents.clone()),
            _ => Err("the registry's answer has no agents".into()),
        }
    }
}

impl Component<NetworkHost> for DiscoveryIo {
    fn observe(&self, effect: &Effect, _taken: &mut Vec<Address>) {
        match effect {
            // A member's record or the tools it offers: the listing may have changed.
            Effect::Store(Row::Member(_) | Row::Resource(_))
            | Effect::Remove {
                kind: RowKind::Member | RowKind::Resource,
                ..
            } => self.members_changed(),
            Effect::StoreConfig(_) => self.settings_changed(),
            _ => {}
        }
    }

    /// Discovery queries go to the registry; listing changes to it and the directory.
    fn committed(&self, host: &NetworkHost) {
        host.start_discovery_io();
    }
}
