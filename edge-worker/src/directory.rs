//! `DirectoryObject`: the list of public networks behind `GET /v1/networks`.
//!
//! One instance (named [`networks::DIRECTORY`]) keeps `(id, name, created)` rows in
//! SQLite. `POST /register` adds a network, `GET /list` lists them newest first.

use crate::host::{now_ms, request_head, respond};
use agentnet_core::bindings::networks::{self, DirectoryRoute};
use serde::{Deserialize, Serialize};
use worker::{
    DurableObject, Env, Request, Response, Result, SqlStorageValue, State, durable_object,
};

#[derive(Debug, Serialize, Deserialize)]
struct Listing {
    id: String,
    name: String,
    created: i64,
}

/// The directory of public networks.
#[durable_object]
pub struct DirectoryObject {
    state: State,
}

impl DurableObject for DirectoryObject {
    fn new(state: State, _env: Env) -> Self {
        Self { state }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let sql = self.state.storage().sql();
        sql.exec(
            "CREATE TABLE IF NOT EXISTS networks (id TEXT PRIMARY KEY, name TEXT NOT NULL, created INTEGER NOT NULL)",
            None,
        )?;
        match networks::directory_route(&request_head(&req)) {
            Ok(DirectoryRoute::Register) => {
                let listing: Listing = req.json().await?;
                let created = i64::try_from(now_ms()).unwrap_or(i64::MAX);
                sql.exec(
                    "INSERT OR REPLACE INTO networks (id, name, created) VALUES (?, ?, ?)",
                    vec![
                        SqlStorageValue::from(listing.id),
                        SqlStorageValue::from(listing.name),
                        SqlStorageValue::from(created),
                    ],
                )?;
                Response::ok("registered")
            }
            Ok(DirectoryRoute::List) => {
                let rows: Vec<Listing> = sql
                    .exec(
                        "SELECT id, name, created FROM networks ORDER BY created DESC LIMIT 500",
                        None,
                    )?
                    .to_array()?;
                Response::from_json(&rows)
            }
            Err(response) => respond(response),
        }
    }
}
