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
//! * when the keeper cannot be reached, a member's sync is answered
//!   `network_unavailable` (the member sends it again); any other job (rows
//!   to hand over, a registration, a whole-content update, a removal, a
//!   member leaving) stays first in the queue for the next commit, and the
//!   syncs waiting behind it are answered `network_unavailable` meanwhile.

use crate::host::now;
use crate::host::origin::Origin;
use crate::host::stubs::{documents_object, post_ok};
use crate::network::component::Component;
use crate::network::documents_queue::{DocumentsIo, KeeperJob};
use crate::network::object::NetworkHost;
use agentnet_core::documents::DocumentRow;
use agentnet_core::error::ErrorCode;
use agentnet_core::ids::network_id::NetworkId;
use agentnet_core::model::state::{Row, RowKind};
use agentnet_core::network::documents::ask::{ADOPT_PATH, ASK_PATH};
use agentnet_core::network::{DocumentAnswer, DocumentAsk, DocumentOp};
use worker::{Env, Result};

/// POSTs `body` to the keeper of `network`'s documents at `path`; its answer when 200.
async fn post_keeper(
    env: &Env,
    path: &str,
    network: &NetworkId,
    body: String,
) -> Result<worker::Response> {
    let url = format!("https://documents{path}?network={}", network.as_str());
    post_ok(
        &documents_object(env, network)?,
        &url,
        body,
        "the documents' keeper",
    )
    .await
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
                let Some(failed) = me.send_keeper_job(job).await else {
                    continue;
                };
                // The members' syncs waiting behind it are refused now (they send
                // them again), while this sender still holds the queue; then the
                // failed job goes first again, for the next commit: nothing may
                // overtake it (a keeper that started a document afresh would not
                // take its stored rows any more).
                for ask in me.live.documents.take_syncs() {
                    if let Err(err) = me.answer_keeper(unreachable(&ask)) {
                        worker::console_error!("refusing a document sync failed: {err}");
                    }
                }
                me.live.documents.put_back(failed);
                return;
            }
        });
    }

    fn network_id(&self) -> Option<NetworkId> {
        let network = self.network.try_borrow().ok()?;
        Some(network.as_ref()?.config().id.clone())
    }

    /// Sends one job; a job that failed comes back, but for a member's sync,
    /// which is refused instead (the member sends it again).
    async fn send_keeper_job(&self, job: KeeperJob) -> Option<KeeperJob> {
        let id = self.network_id()?;
        let result = match &job {
            KeeperJob::Adopt(rows) => self.hand_over(&id, rows).await,
            KeeperJob::Ask(ask) => match Self::ask_keeper(&self.env, &id, ask).await {
                Ok(answer) => self.answer_keeper(answer),
                Err(err) if matches!(ask.op, DocumentOp::Sync { .. }) => {
                    worker::console_error!("the documents' keeper failed: {err}");
                    self.answer_keeper(unreachable(ask))
                }
                Err(err) => Err(err),
            },
        };
        match result {
            Ok(()) => None,
            Err(err) => {
                worker::console_error!("a shared document's job failed, kept for later: {err}");
                Some(job)
            }
        }
    }

    /// Hands rows stored here to the keeper, then deletes them here; their
    /// texts come back as the resources' content, for reads.
    async fn hand_over(&self, id: &NetworkId, rows: &[DocumentRow]) -> Result<()> {
        let mut response =
            post_keeper(&self.env, ADOPT_PATH, id, serde_json::to_string(rows)?).await?;
        let answer: DocumentAnswer = response.json().await?;
        let store = self.store()?;
        for row in rows {
            store.remove(RowKind::Document, &row.key())?;
        }
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
        let mut response = post_keeper(env, ASK_PATH, id, serde_json::to_string(ask)?).await?;
        response.json().await
    }
}

/// What a member hears when the keeper could not be asked: its sync is refused, to be sent again.
fn unreachable(ask: &DocumentAsk) -> DocumentAnswer {
    DocumentAnswer::refusing_sync(
        ask,
        ErrorCode::NetworkUnavailable,
        "the shared documents could not be reached; try again",
    )
}

impl Component<NetworkHost> for DocumentsIo {
    /// The asks the commit left go to the keeper.
    fn committed(&self, host: &NetworkHost) {
        host.start_documents_io();
    }
}
