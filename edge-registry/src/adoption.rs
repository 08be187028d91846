//! Each object's side of the handover (`agentnet_edge_shared::handover`):
//! before anything else, it answers whether it has adopted the rows the main
//! Worker's retired class of the same name held, takes them over once, and
//! refuses every other request until it has.

use crate::host::handover::{self, ADOPT_PATH, Rows, STATE_PATH};
use crate::host::{now_ms, read_body, respond};
use agentnet_core::bindings::step::Step;
use std::cell::Cell;
use worker::{Request, Response, Result, SqlStorage};

/// What an object keeps for its handover: whether it has adopted (known once
/// read), its tables, and how they are made.
pub(crate) struct Adoption {
    adopted: Cell<bool>,
    tables: &'static [&'static str],
    schema: fn(&SqlStorage) -> Result<()>,
}

impl Adoption {
    /// The handover of an object keeping `tables`, made by `schema`.
    pub(crate) fn new(
        tables: &'static [&'static str],
        schema: fn(&SqlStorage) -> Result<()>,
    ) -> Self {
        Self {
            adopted: Cell::new(false),
            tables,
            schema,
        }
    }

    /// The answer to a handover request, or to any request before the
    /// adoption; `None` when the request is the object's to serve.
    pub(crate) async fn answer(
        &self,
        sql: &SqlStorage,
        req: &mut Request,
    ) -> Result<Option<Response>> {
        let path = req.path();
        if path != STATE_PATH && path != ADOPT_PATH && self.adopted.get() {
            return Ok(None);
        }
        let adopted = handover::adopted(sql)?;
        self.adopted.set(adopted);
        match path.as_str() {
            STATE_PATH => Response::from_json(&serde_json::json!({ "adopted": adopted })).map(Some),
            ADOPT_PATH => {
                let body = match read_body(req).await {
                    Ok(body) => body,
                    Err(refused) => return respond(refused).map(Some),
                };
                let rows: Rows = match handover::parse(&body) {
                    Ok(rows) => rows,
                    Err(refused) => return respond(refused).map(Some),
                };
                match handover::adopt(sql, self.schema, self.tables, &rows, now_ms())? {
                    Step::Go(taken) => {
                        self.adopted.set(true);
                        Response::from_json(&taken).map(Some)
                    }
                    Step::Answer(refused) => respond(refused).map(Some),
                }
            }
            _ if adopted => Ok(None),
            _ => respond(handover::not_adopted()).map(Some),
        }
    }
}
