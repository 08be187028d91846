//! The directory of public networks, and who may create networks how often.
//!
//! In this folder too: [`create`] (creating networks and the demo network)
//! and [`networks`] (a creation as the Worker forwards it).
//!
//! One directory object serves the whole edge. It answers three routes the
//! Worker calls ([`DirectoryRoute`]):
//! * `POST /admit` before every creation: a creator (a hash of the caller's
//!   IP address) may create [`CreationLimits::per_hour`] networks an hour;
//!   beyond that the creation is refused with `rate_limited` (429) and a
//!   `retry-after`, before any object is made;
//! * `POST /register` after a public network is created: listed unless its
//!   creator already has [`CreationLimits::listed_per_creator`] listings, so
//!   one creator cannot bury the others' networks;
//! * `POST /unregister` when an admin makes a network private
//!   ([`settings_update`]; a change of name re-registers it in place);
//! * `GET /list?limit=&before=` pages the listing newest first; `next` is the
//!   cursor of the following page, so no network is ever out of reach.
//!
//! Everything here is pure; the directory object stores the rows.

pub mod create;
pub mod networks;

use super::message::{Method, Request, Response};
use crate::ErrorCode;
use crate::crypto::sha256_hex;
use crate::ids::time::Timestamp;
use serde_json::{Value, json};

/// The name of the single directory object.
pub const DIRECTORY: &str = "directory";
/// The directory's URL that admits a creation.
pub const DIRECTORY_ADMIT: &str = "https://directory/admit";
/// The directory's URL that registers a listing.
pub const DIRECTORY_REGISTER: &str = "https://directory/register";
/// The directory's URL that removes a listing (a network no longer public).
pub const DIRECTORY_UNREGISTER: &str = "https://directory/unregister";
/// The directory's URL that lists the public networks.
pub const DIRECTORY_LIST: &str = "https://directory/list";

/// The window creations are counted over.
pub const CREATION_WINDOW_MS: u64 = 60 * 60 * 1000;
/// Networks in one page of the listing unless the caller asks for fewer.
pub const DEFAULT_PAGE: u32 = 100;
/// Most networks in one page of the listing.
pub const MAX_PAGE: u32 = 500;

/// The variable that sets [`CreationLimits::per_hour`].
pub const CREATIONS_PER_HOUR_VAR: &str = "AGENTNET_CREATIONS_PER_HOUR";
/// The variable that sets [`CreationLimits::listed_per_creator`].
pub const LISTINGS_PER_CREATOR_VAR: &str = "AGENTNET_LISTINGS_PER_CREATOR";

/// What a request to the directory object asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirectoryRoute {
    /// `POST /admit`.
    Admit,
    /// `POST /register`.
    Register,
    /// `POST /unregister`.
    Unregister,
    /// `GET /list`.
    List,
}

/// The directory object's routing table.
pub fn directory_route(req: &Request) -> Result<DirectoryRoute, Response> {
    match (&req.method, req.path()) {
        (Method::Post, "/admit") => Ok(DirectoryRoute::Admit),
        (Method::Post, "/register") => Ok(DirectoryRoute::Register),
        (Method::Post, "/unregister") => Ok(DirectoryRoute::Unregister),
        (Method::Get, "/list") => Ok(DirectoryRoute::List),
        _ => Err(Response::error(
            ErrorCode::NotFound,
            "unknown directory route",
        )),
    }
}

/// How many networks one creator may make and list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreationLimits {
    /// Creations per creator in any hour.
    pub per_hour: u32,
    /// Public networks of one creator the directory lists at once.
    pub listed_per_creator: u32,
}

impl Default for CreationLimits {
    fn default() -> Self {
        Self {
            per_hour: 20,
            listed_per_creator: 20,
        }
    }
}

impl CreationLimits {
    /// The limits from the deployment's variables; a missing or unreadable one keeps its default.
    pub fn from_vars(per_hour: Option<&str>, listed_per_creator: Option<&str>) -> Self {
        let defaults = Self::default();
        let read = |var: Option<&str>, default| {
            var.and_then(|v| v.trim().parse().ok())
                .filter(|n| *n > 0)
                .unwrap_or(default)
        };
        Self {
            per_hour: read(per_hour, defaults.per_hour),
            listed_per_creator: read(listed_per_creator, defaults.listed_per_creator),
        }
    }
}

/// Who is creating: a hash of the caller's address (`cf-connecting-ip`), so
/// the directory keeps no addresses. Callers without one share a key.
pub fn creator_of(req: &Request) -> String {
    let address = req.header("cf-connecting-ip").unwrap_or("unknown");
    sha256_hex(format!("agentnet creator {address}").as_bytes())
}

/// The body of a [`DIRECTORY_ADMIT`] request for `creator`.
pub fn admission(creator: &str) -> String {
    json!({ "creator": creator }).to_string()
}

/// The creator's recent creations, as the directory counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecentCreations {
    /// Creations in the last [`CREATION_WINDOW_MS`].
    pub count: u32,
    /// When the oldest of them was made.
    pub oldest_at: Option<Timestamp>,
}

/// Whether one more creation is allowed; a refusal says when to retry.
pub fn admit(
    recent: RecentCreations,
    limits: CreationLimits,
    now: Timestamp,
) -> Result<(), Response> {
    if recent.count < limits.per_hour {
        return Ok(());
    }
    let free_at = recent
        .oldest_at
        .map_or(now, |at| at.plus_millis(CREATION_WINDOW_MS));
    let retry_after_s = free_at.millis_since(now).div_ceil(1000).max(1);
    Err(Response::error(
        ErrorCode::RateLimited,
        format!(
            "at most {} networks an hour from one address; retry in {retry_after_s} s",
            limits.per_hour
        ),
    )
    .with_header("retry-after", &retry_after_s.to_string()))
}

/// The directory request a network's object makes when its settings change
/// at runtime (`network.admin.settings.update`): `(url, body)` registering
/// it under its current name when it is public (a network listed already
/// keeps its place and creator; a new listing counts for the creator
/// `admin:{id}`), unregistering it when it is not.
pub fn settings_update(
    id: &str,
    name: &str,
    description: Option<&str>,
    public: bool,
) -> (&'static str, String) {
    if public {
        let description = description.map(listed_description);
        let body = json!({"id": id, "name": name, "description": description,
            "creator": format!("admin:{id}")});
        (DIRECTORY_REGISTER, body.to_string())
    } else {
        (DIRECTORY_UNREGISTER, json!({ "id": id }).to_string())
    }
}

/// Most characters of a network's description the listing shows.
pub const MAX_LISTED_DESCRIPTION: usize = 280;

/// A network's description as listed: at most [`MAX_LISTED_DESCRIPTION`]
/// characters (cut at a character boundary).
pub fn listed_description(description: &str) -> &str {
    match description.char_indices().nth(MAX_LISTED_DESCRIPTION) {
        Some((at, _)) => &description[..at],
        None => description,
    }
}

/// Whether a creator with `listed` listings may list one more.
pub fn may_list(listed: u32, limits: CreationLimits) -> bool {
    listed < limits.listed_per_creator
}

/// The first network after a page: newer networks come first, ties by id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// The creation time of the last network listed.
    pub created: i64,
    /// Its id.
    pub id: String,
}

impl Cursor {
    fn parse(text: &str) -> Option<Self> {
        let (created, id) = text.split_once('.')?;
        Some(Self {
            created: created.parse().ok()?,
            id: id.to_owned(),
        })
    }

    fn render(&self) -> String {
        format!("{}.{}", self.created, self.id)
    }
}

/// What `GET /v1/networks?limit=&before=` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListQuery {
    /// Networks in the page (1..=[`MAX_PAGE`]).
    pub limit: u32,
    /// List only networks after this cursor.
    pub before: Option<Cursor>,
}

/// Reads the listing's query; a bad `limit` or `before` is `invalid_request`.
pub fn list_query(req: &Request) -> Result<ListQuery, Response> {
    let limit = match req.query("limit") {
        None => DEFAULT_PAGE,
        Some(text) => text
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_PAGE).contains(n))
            .ok_or_else(|| {
                Response::error(
                    ErrorCode::InvalidRequest,
                    format!("limit is 1 to {MAX_PAGE}"),
                )
            })?,
    };
    let before = match req.query("before") {
        None => None,
        Some(text) => Some(Cursor::parse(&text).ok_or_else(|| {
            Response::error(
                ErrorCode::InvalidRequest,
                "before is the `next` of a previous page",
            )
        })?),
    };
    Ok(ListQuery { limit, before })
}

/// The directory's URL for a page of the listing.
pub fn list_url(query: &ListQuery) -> String {
    let mut url = format!("{DIRECTORY_LIST}?limit={}", query.limit);
    if let Some(before) = &query.before {
        // Digits, a dot and a network id: nothing to escape.
        url.push_str("&before=");
        url.push_str(&before.render());
    }
    url
}

/// The answer to `GET /v1/networks` (`{networks: [{id, name, description,
/// profile}], next}`) from one page of the directory's rows
/// `{id, name, description, created}`, fetched with one row more than `limit` to learn
/// whether another page follows.
pub fn listing(rows: &[Value], limit: u32, origin: &str) -> Response {
    let shown = rows.len().min(limit as usize);
    let networks: Vec<Value> = rows
        .iter()
        .take(shown)
        .map(|row| {
            let id = row.get("id").and_then(Value::as_str).unwrap_or("");
            json!({
                "id": id,
                "name": row.get("name"),
                "description": row.get("description").and_then(Value::as_str).unwrap_or(""),
                "profile": format!("{origin}/networks/{id}/v1/profile"),
            })
        })
        .collect();
    let next = (rows.len() > shown)
        .then(|| rows.get(shown.saturating_sub(1)))
        .flatten()
        .and_then(|last| {
            Some(
                Cursor {
                    created: last.get("created")?.as_i64()?,
                    id: last.get("id")?.as_str()?.to_owned(),
                }
                .render(),
            )
        });
    Response::json(json!({ "networks": networks, "next": next }))
}

#[cfg(test)]
mod tests;
