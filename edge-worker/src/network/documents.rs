//! The network object's shared documents, kept by the documents Worker
//! (`agentnet-edge-documents`, one `DocumentsObject` per network, reached
//! through the `DOCUMENTS` binding) so this object's module carries no
//! Automerge. The decisions are the core's:
//!
//! * each document change the network makes is an `Effect::Document` ask;
//!   the effect loop leaves it in `crate::network::documents_queue::DocumentsIo`
//!   and, once the effects are committed, a task posts the asks to the
//!   keeper one at a time and feeds each answer back with
//!   `Network::answer_document`;
//! * document rows this object stored itself (before its documents moved)
//!   are handed to the keeper when the network loads, then deleted here; the
//!   keeper answers with their texts, which become the resources' content;
//! * a keeper that cannot be reached costs the ask: a member's sync is
//!   answered `network_unavailable` so it tries again, and the rest follow
//!   from the member's next sync (the keeper starts a missing document from
//!   the text the network holds).

use crate::host::now;
use crate::host::origin::Origin;
use crate::network::component::Component;
use crate::network::documents_queue::{DocumentsIo, KeeperJob};
use crate::network::object::NetworkHost;
use agentnet_core::documents::DocumentRow;
use agentnet_core::error::ErrorCode;
use agentnet_core::ids::network_id::NetworkId;
use agentnet_core::model::state::{Row, RowKind};
use agentnet_core::network::documents::ask::{ADOPT_PATH, ASK_PATH};
use agentnet_core::network::{DocumentAnswer, DocumentAsk};
use worker::{Env, Method, Request, RequestInit, Result, Stub};

/// The Durable Object namespace of the documents' keepers (the documents Worker's).
pub const DOCUMENTS_BINDING: &str = "DOCUMENTS";

/// The keeper of `network`'s documents.
fn keeper(env: &Env, network: &NetworkId) -> Result<Stub> {
    env.durable_object(DOCUMENTS_BINDING)?
        .id_from_name(network.as_str())?
        .get_stub()
}

async fn post(
    stub: &Stub,
    path: &str,
    network: &NetworkId,
    body: String,
) -> Result<worker::Response> {
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_body(Some(body.into()));
    let url = format!("https://documents{path}?network={}", network.as_str());
    let response = stub
        .fetch_with_request(Request::new_with_init(&url, &init)?)
        .await?;
    if response.status_code() == 200 {
        Ok(response)
    } else {
        Err(worker::Error::RustError(format!(
            "the documents' keeper answered {}",
            response.status_code()
        )))
    }
}

impl NetworkHost {
    /// The document rows stored here, to hand to the keeper before any ask.
    pub(crate) fn hand_over_documents(&self, rows: &[Row]) {
        let documents: Vec<DocumentRow> = rows
            .iter()
            .filter_map(|row| match row {
                Row::Document(document) => Some(document.clone()),
                _ => None,
            })
            .collect();
        if !documents.is_empty() {
            self.live.documents.adopt(documents);
        }
    }

    /// Starts sending what the last commit left for the keeper.
    pub(crate) fn start_documents_io(&self) {
        if !self.live.documents.start() {
            return;
        }
        let Some(me) = self.me.upgrade() else {
            return;
        };
        worker::wasm_bindgen_futures::spawn_local(async move {
            while let Some(job) = me.live.documents.next() {
                if let Some(rows) = me.send_keeper_job(job).await {
                    // Asks wait behind rows not yet handed over: a document
                    // the keeper started afresh would not take them any more.
                    me.live.documents.put_back(KeeperJob::Adopt(rows));
                    return;
                }
            }
        });
    }

    fn network_id(&self) -> Option<NetworkId> {
        let network = self.network.try_borrow().ok()?;
        Some(network.as_ref()?.config().id.clone())
    }

    /// Sends one job; rows that could not be handed over come back.
    async fn send_keeper_job(&self, job: KeeperJob) -> Option<Vec<DocumentRow>> {
        let id = self.network_id()?;
        let outcome = match job {
            KeeperJob::Adopt(rows) => match self.hand_over(&id, &rows).await {
                Ok(()) => Ok(()),
                Err(err) => {
                    worker::console_error!(
                        "handing stored documents to their keeper failed: {err}"
                    );
                    return Some(rows);
                }
            },
            KeeperJob::Ask(ask) => self.send_ask(&id, ask).await,
        };
        if let Err(err) = outcome {
            worker::console_error!("a shared document's answer failed: {err}");
        }
        None
    }

    /// Hands rows stored here to the keeper, then deletes them here; their
    /// texts come back as the resources' content, for reads.
    async fn hand_over(&self, id: &NetworkId, rows: &[DocumentRow]) -> Result<()> {
        let stub = keeper(&self.env, id)?;
        let mut response = post(&stub, ADOPT_PATH, id, serde_json::to_string(rows)?).await?;
        let answer: DocumentAnswer = response.json().await?;
        let store = self.store()?;
        for row in rows {
            store.remove(RowKind::Document, &row.key())?;
        }
        self.answer_keeper(answer)
    }

    /// Asks the keeper and hands its answer (or a refusal, when it cannot be reached) to the network.
    async fn send_ask(&self, id: &NetworkId, ask: DocumentAsk) -> Result<()> {
        let answer = match Self::ask_keeper(&self.env, id, &ask).await {
            Ok(answer) => answer,
            Err(err) => {
                worker::console_error!("the documents' keeper failed: {err}");
                DocumentAnswer::refusing_sync(
                    &ask,
                    ErrorCode::NetworkUnavailable,
                    "the shared documents could not be reached; try again",
                )
            }
        };
        self.answer_keeper(answer)
    }

    /// Hands the keeper's answer to the network and applies what follows.
    fn answer_keeper(&self, answer: DocumentAnswer) -> Result<()> {
        let effects = {
            let Ok(mut network) = self.network.try_borrow_mut() else {
                return Ok(());
            };
            match network.as_mut() {
                Some(network) => network.answer_document(answer, now()),
                None => return Ok(()),
            }
        };
        self.apply(&Origin::Nowhere, effects)
    }

    async fn ask_keeper(env: &Env, id: &NetworkId, ask: &DocumentAsk) -> Result<DocumentAnswer> {
        let stub = keeper(env, id)?;
        let mut response = post(&stub, ASK_PATH, id, serde_json::to_string(ask)?).await?;
        response.json().await
    }
}

impl Component<NetworkHost> for DocumentsIo {
    /// The asks the commit left go to the keeper.
    fn committed(&self, host: &NetworkHost) {
        host.start_documents_io();
    }
}
