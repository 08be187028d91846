//! Hosted agents' rows in the network object's SQLite, apart from the log
//! and the state rows, so no event, export or replay carries them: each
//! agent's provider key (`agent_keys`, written and replaced, never answered)
//! and the turns under way (`agent_turns`), which tell a woken object which
//! answers a restart cut short.

use crate::host::sql::{integer, run, select, select_first, text};
use agentnet_core::agent::Place;
use agentnet_core::{Address, EventId};
use serde::Deserialize;
use worker::{Result, SqlStorage};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS agent_keys (agent TEXT PRIMARY KEY, key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agent_turns (agent TEXT NOT NULL, answers TEXT NOT NULL, place TEXT NOT NULL, started INTEGER NOT NULL, PRIMARY KEY (agent, answers));
";

/// Creates the tables (with the store's, when the object first opens it).
pub(crate) fn open(sql: &SqlStorage) -> Result<()> {
    run(sql, SCHEMA, None)
}

#[derive(Deserialize)]
struct KeyRow {
    key: String,
}

/// `agent`'s own provider key, when a master set one.
pub(crate) fn key(sql: &SqlStorage, agent: &Address) -> Result<Option<String>> {
    let query = "SELECT key FROM agent_keys WHERE agent = ?";
    let row: Option<KeyRow> = select_first(sql, query, vec![text(agent.to_string())])?;
    Ok(row.map(|r| r.key))
}

/// Keeps `key` as `agent`'s (replacing any), or forgets its key.
pub(crate) fn keep(sql: &SqlStorage, agent: &Address, key: Option<&str>) -> Result<()> {
    let agent = text(agent.to_string());
    match key {
        Some(key) => run(
            sql,
            "INSERT OR REPLACE INTO agent_keys (agent, key) VALUES (?, ?)",
            vec![agent, text(key)],
        ),
        None => run(sql, "DELETE FROM agent_keys WHERE agent = ?", vec![agent]),
    }
}

/// Notes a turn under way.
pub(crate) fn turn_started(
    sql: &SqlStorage,
    agent: &Address,
    answers: EventId,
    place: &Place,
    now: u64,
) -> Result<()> {
    run(
        sql,
        "INSERT OR IGNORE INTO agent_turns (agent, answers, place, started) VALUES (?, ?, ?, ?)",
        vec![
            text(agent.to_string()),
            text(answers.to_string()),
            text(serde_json::to_string(place)?),
            integer(now)?,
        ],
    )
}

/// Forgets a turn that ended.
pub(crate) fn turn_ended(sql: &SqlStorage, agent: &Address, answers: EventId) -> Result<()> {
    run(
        sql,
        "DELETE FROM agent_turns WHERE agent = ? AND answers = ?",
        vec![text(agent.to_string()), text(answers.to_string())],
    )
}

#[derive(Deserialize)]
struct TurnRow {
    agent: String,
    answers: String,
    place: String,
}

/// Every turn noted as under way (after a wake: the ones a restart cut short).
pub(crate) fn turns(sql: &SqlStorage) -> Result<Vec<(Address, EventId, Place)>> {
    let turns: Vec<TurnRow> = select(sql, "SELECT agent, answers, place FROM agent_turns", None)?;
    Ok(turns
        .into_iter()
        .filter_map(|r| {
            Some((
                r.agent.parse().ok()?,
                r.answers.parse().ok()?,
                serde_json::from_str(&r.place).ok()?,
            ))
        })
        .collect())
}

/// The last chat messages of the log, oldest first (a woken agent's memory).
pub(crate) fn recent_messages(sql: &SqlStorage) -> Result<Vec<agentnet_core::Event>> {
    let query = "SELECT seq, event FROM events WHERE type = 'workspace.message.posted' ORDER BY seq DESC LIMIT 400";
    let newest: Vec<crate::network::storage::EventRow> = select(sql, query, None)?;
    let mut events: Vec<agentnet_core::Event> = crate::network::storage::decode_rows(&newest)
        .into_iter()
        .map(|(_, e)| e)
        .collect();
    events.reverse();
    Ok(events)
}
