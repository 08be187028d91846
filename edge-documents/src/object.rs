//! `DocumentsObject`: one network's shared documents, asked by its network
//! object. It keeps the documents' rows in SQLite (`document_rows`, one row
//! per stored piece, by [`DocumentRow::key`]), loads them into the core's
//! [`DocumentHost`] on the first ask after a start, and answers each
//! [`DocumentAsk`] with the [`DocumentAnswer`] the host gives, after writing
//! the rows it wrote. Sync sessions live in memory only, as in the core: a
//! keeper that restarts learns them again as members sync.

use agentnet_core::documents::{DocumentHost, DocumentRow, DocumentWrite};
use agentnet_core::ids::network_id::NetworkId;
use agentnet_core::network::DocumentAsk;
use agentnet_core::network::documents::ask::{ADOPT_PATH, ASK_PATH};
use std::cell::RefCell;
use worker::{
    DurableObject, Env, Method, Request, Response, Result, SqlStorage, State, durable_object,
};

const SCHEMA: &str =
    "CREATE TABLE IF NOT EXISTS document_rows (key TEXT PRIMARY KEY, row TEXT NOT NULL)";

/// The shared documents of one network.
#[durable_object]
pub struct DocumentsObject {
    state: State,
    /// The documents, once loaded from the rows.
    keeper: RefCell<Option<DocumentHost>>,
}

#[derive(serde::Deserialize)]
struct StoredRow {
    row: String,
}

impl DocumentsObject {
    /// The keeper of `network`'s documents, loaded from the stored rows the first time.
    fn load(&self, sql: &SqlStorage, network: &NetworkId) -> Result<()> {
        if self.keeper.borrow().is_some() {
            return Ok(());
        }
        sql.exec(SCHEMA, None)?;
        let stored: Vec<StoredRow> = sql
            .exec("SELECT row FROM document_rows ORDER BY key", None)?
            .to_array()?;
        // A row that does not read back is skipped: a damaged piece costs its changes, not the document.
        let rows: Vec<DocumentRow> = stored
            .iter()
            .filter_map(|s| serde_json::from_str(&s.row).ok())
            .collect();
        *self.keeper.borrow_mut() = Some(DocumentHost::new(network, rows.iter()));
        Ok(())
    }

    fn store(sql: &SqlStorage, row: &DocumentRow) -> Result<()> {
        let text =
            serde_json::to_string(row).map_err(|e| worker::Error::RustError(e.to_string()))?;
        sql.exec(
            "INSERT OR REPLACE INTO document_rows (key, row) VALUES (?, ?)",
            vec![row.key().into(), text.into()],
        )?;
        Ok(())
    }

    /// Answers one ask, after writing the rows it wrote.
    fn ask(&self, sql: &SqlStorage, ask: &DocumentAsk) -> Result<Response> {
        let done = match self.keeper.borrow_mut().as_mut() {
            Some(keeper) => keeper.handle(ask),
            None => return Response::error("the documents are not loaded", 500),
        };
        Self::write(sql, &done.writes)?;
        Response::from_json(&done.answer)
    }

    /// Takes over rows the network object stored itself: those of documents
    /// not kept here already are kept, and the answer gives each one's text.
    fn adopt(&self, sql: &SqlStorage, rows: &[DocumentRow]) -> Result<Response> {
        let done = match self.keeper.borrow_mut().as_mut() {
            Some(keeper) => keeper.adopt(rows),
            None => return Response::error("the documents are not loaded", 500),
        };
        for row in &done.adopted {
            Self::store(sql, row)?;
        }
        Self::write(sql, &done.writes)?;
        Response::from_json(&done.answer)
    }

    /// Stores and deletes what the keeper wrote.
    fn write(sql: &SqlStorage, writes: &[DocumentWrite]) -> Result<()> {
        for write in writes {
            match write {
                DocumentWrite::Store(row) => Self::store(sql, row)?,
                DocumentWrite::Remove(key) => {
                    sql.exec(
                        "DELETE FROM document_rows WHERE key = ?",
                        vec![key.clone().into()],
                    )?;
                }
            }
        }
        Ok(())
    }
}

impl DurableObject for DocumentsObject {
    fn new(state: State, _env: Env) -> Self {
        Self {
            state,
            keeper: RefCell::new(None),
        }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        if req.method() != Method::Post {
            return Response::error("only POST", 405);
        }
        let url = req.url()?;
        let network = url
            .query_pairs()
            .find(|(k, _)| k == "network")
            .and_then(|(_, v)| v.parse::<NetworkId>().ok());
        let Some(network) = network else {
            return Response::error("?network= must name the network", 400);
        };
        let sql = self.state.storage().sql();
        let body = req.text().await?;
        match url.path() {
            ASK_PATH => match serde_json::from_str::<DocumentAsk>(&body) {
                Ok(ask) => {
                    self.load(&sql, &network)?;
                    self.ask(&sql, &ask)
                }
                Err(e) => Response::error(format!("not a document ask: {e}"), 400),
            },
            ADOPT_PATH => match serde_json::from_str::<Vec<DocumentRow>>(&body) {
                Ok(rows) => {
                    self.load(&sql, &network)?;
                    self.adopt(&sql, &rows)
                }
                Err(e) => Response::error(format!("not document rows: {e}"), 400),
            },
            _ => Response::error("not found", 404),
        }
    }
}
