//! `DirectoryObject`: the list of public networks behind `GET /v1/networks`,
//! and the count of recent creations behind the creation limit.
//!
//! One instance (named [`directory::DIRECTORY`]) keeps `(id, name,
//! description, created, creator)` rows of listed networks and `(creator, at)` rows of creations in
//! SQLite; the decisions are [`agentnet_core::bindings::directory`]'s.

use crate::adoption::Adoption;
use crate::host::sql::{clamped_integer, select};
use crate::host::{now, now_ms, request_head, respond};
use agentnet_core::bindings::directory::{
    self, CreationLimits, DirectoryRoute, ListQuery, RecentCreations,
};
use serde::{Deserialize, Serialize};
use worker::{
    DurableObject, Env, Request, Response, Result, SqlStorage, SqlStorageValue, State,
    durable_object,
};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS networks (id TEXT PRIMARY KEY, name TEXT NOT NULL, created INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS creations (creator TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS creations_by_creator ON creations (creator, at);
";

#[derive(Debug, Serialize, Deserialize)]
struct Listing {
    id: String,
    name: String,
    description: String,
    created: i64,
}

#[derive(Debug, Deserialize)]
struct Registration {
    id: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    creator: String,
}

#[derive(Debug, Deserialize)]
struct Unregistration {
    id: String,
}

#[derive(Debug, Deserialize)]
struct Admission {
    creator: String,
}

#[derive(Deserialize)]
struct Count {
    count: i64,
    oldest: Option<i64>,
}

/// The directory of public networks.
#[durable_object]
pub struct DirectoryObject {
    state: State,
    limits: CreationLimits,
    /// The tables are made and migrated (once per instance).
    ready: std::cell::Cell<bool>,
    /// The rows taken over from the main Worker's retired directory.
    adoption: Adoption,
}

/// Every table the directory keeps (what it adopts from the main Worker's retired directory).
const TABLES: &[&str] = &["networks", "creations"];

/// Adds the `creator` and `description` columns to a directory made before they existed.
fn migrate(sql: &SqlStorage) -> Result<()> {
    sql.exec(SCHEMA, None)?;
    for column in ["creator", "description"] {
        let columns: Vec<Count> = select(
            sql,
            "SELECT COUNT(*) AS count, NULL AS oldest FROM pragma_table_info('networks') WHERE name = ?",
            vec![SqlStorageValue::from(column.to_owned())],
        )?;
        if columns.first().is_some_and(|c| c.count == 0) {
            // `column` is one of the two names above, never input.
            sql.exec(
                &format!("ALTER TABLE networks ADD COLUMN {column} TEXT NOT NULL DEFAULT ''"),
                None,
            )?;
        }
    }
    Ok(())
}

impl DirectoryObject {
    /// Counts the creator's creations in the window (dropping older ones) and
    /// records this one when it is admitted.
    fn admit(&self, sql: &SqlStorage, admission: Admission) -> Result<Response> {
        let now = now();
        sql.exec(
            "DELETE FROM creations WHERE at < ?",
            vec![clamped_integer(
                now.as_millis()
                    .saturating_sub(directory::CREATION_WINDOW_MS),
            )],
        )?;
        let counted: Vec<Count> = select(
            sql,
            "SELECT COUNT(*) AS count, MIN(at) AS oldest FROM creations WHERE creator = ?",
            vec![SqlStorageValue::from(admission.creator.clone())],
        )?;
        let recent = counted.first().map_or(
            RecentCreations {
                count: 0,
                oldest_at: None,
            },
            |c| RecentCreations {
                count: u32::try_from(c.count).unwrap_or(u32::MAX),
                oldest_at: c
                    .oldest
                    .and_then(|at| u64::try_from(at).ok())
                    .map(agentnet_core::Timestamp::from_millis),
            },
        );
        if let Err(refused) = directory::admit(recent, self.limits, now) {
            return respond(refused);
        }
        sql.exec(
            "INSERT INTO creations (creator, at) VALUES (?, ?)",
            vec![
                SqlStorageValue::from(admission.creator),
                clamped_integer(now.as_millis()),
            ],
        )?;
        Ok(Response::empty()?.with_status(204))
    }

    /// Lists a network unless its creator already has as many listings as
    /// allowed; a network listed already only takes its new name and
    /// description (it keeps its place and creator).
    fn register(&self, sql: &SqlStorage, registration: Registration) -> Result<Response> {
        let present: Vec<Count> = select(
            sql,
            "SELECT COUNT(*) AS count, NULL AS oldest FROM networks WHERE id = ?",
            vec![SqlStorageValue::from(registration.id.clone())],
        )?;
        if present.first().is_some_and(|c| c.count > 0) {
            sql.exec(
                "UPDATE networks SET name = ?, description = ? WHERE id = ?",
                vec![
                    SqlStorageValue::from(registration.name.unwrap_or_default()),
                    SqlStorageValue::from(registration.description.unwrap_or_default()),
                    SqlStorageValue::from(registration.id),
                ],
            )?;
            return Response::ok("registered");
        }
        let listed: Vec<Count> = select(
            sql,
            "SELECT COUNT(*) AS count, NULL AS oldest FROM networks WHERE creator = ?",
            vec![SqlStorageValue::from(registration.creator.clone())],
        )?;
        let listed = listed
            .first()
            .map_or(0, |c| u32::try_from(c.count).unwrap_or(u32::MAX));
        if !directory::may_list(listed, self.limits) {
            return Response::ok("not listed: the creator has as many listings as allowed");
        }
        sql.exec(
            "INSERT OR REPLACE INTO networks (id, name, description, created, creator) VALUES (?, ?, ?, ?, ?)",
            vec![
                SqlStorageValue::from(registration.id),
                SqlStorageValue::from(registration.name.unwrap_or_default()),
                SqlStorageValue::from(registration.description.unwrap_or_default()),
                clamped_integer(now_ms()),
                SqlStorageValue::from(registration.creator),
            ],
        )?;
        Response::ok("registered")
    }

    /// One page, newest first, with one row more than asked for (see [`directory::listing`]).
    fn list(sql: &SqlStorage, query: &ListQuery) -> Result<Response> {
        let fetch = SqlStorageValue::from(i64::from(query.limit) + 1);
        let rows: Vec<Listing> = match &query.before {
            None => sql.exec(
                "SELECT id, name, description, created FROM networks ORDER BY created DESC, id DESC LIMIT ?",
                vec![fetch],
            )?,
            Some(cursor) => sql.exec(
                "SELECT id, name, description, created FROM networks WHERE created < ? OR (created = ? AND id < ?) \
                 ORDER BY created DESC, id DESC LIMIT ?",
                vec![
                    SqlStorageValue::from(cursor.created),
                    SqlStorageValue::from(cursor.created),
                    SqlStorageValue::from(cursor.id.clone()),
                    fetch,
                ],
            )?,
        }
        .to_array()?;
        Response::from_json(&rows)
    }
}

impl DurableObject for DirectoryObject {
    fn new(state: State, env: Env) -> Self {
        let var = |name| env.var(name).ok().map(|v| v.to_string());
        let limits = CreationLimits::from_vars(
            var(directory::CREATIONS_PER_HOUR_VAR).as_deref(),
            var(directory::LISTINGS_PER_CREATOR_VAR).as_deref(),
        );
        Self {
            state,
            limits,
            ready: std::cell::Cell::new(false),
            adoption: Adoption::new(TABLES, migrate),
        }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let sql = self.state.storage().sql();
        if let Some(answer) = self.adoption.answer(&sql, &mut req).await? {
            return Ok(answer);
        }
        if !self.ready.get() {
            migrate(&sql)?;
            self.ready.set(true);
        }
        let head = request_head(&req);
        match directory::directory_route(&head) {
            Ok(DirectoryRoute::Admit) => self.admit(&sql, req.json().await?),
            Ok(DirectoryRoute::Register) => self.register(&sql, req.json().await?),
            Ok(DirectoryRoute::Unregister) => {
                let gone: Unregistration = req.json().await?;
                sql.exec(
                    "DELETE FROM networks WHERE id = ?",
                    vec![SqlStorageValue::from(gone.id)],
                )?;
                Response::ok("unregistered")
            }
            Ok(DirectoryRoute::List) => match directory::list_query(&head) {
                Ok(query) => Self::list(&sql, &query),
                Err(response) => respond(response),
            },
            Err(response) => respond(response),
        }
    }
}
