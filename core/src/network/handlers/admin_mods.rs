//! `network.admin.mod.*`: a master loads, unloads and reconfigures mods at
//! runtime — the standard ones (`{name, settings?, priority?}`) and member
//! agents installed as mods (`{agent, patterns, mode, priority?,
//! deadline_ms?, on_late?}`, [`crate::model::agent_mod`]).

use super::admin_types as types;
use super::payload::{invalid, payload_str};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::model::agent_mod::{AgentMod, MAX_AGENT_MODS};
use crate::model::config::ModConfig;
use crate::network::engine::{Network, mod_address};
use crate::network::pipeline::outcome::{Outcome, logged};
use serde_json::{Value, json};

/// Handles load, unload and configure.
pub(super) fn handle(network: &mut Network, event: &Event) -> Result<Outcome, Rejection> {
    let mut config = network.config.clone();
    let kind = event.event_type.as_str();
    if event.payload.get("agent").is_some() {
        agent_mod(&mut config, event, kind)?;
    } else {
        standard_mod(&mut config, event, kind)?;
    }
    config
        .validate()
        .map_err(|e| Rejection::new(ErrorCode::InvalidRequest, e.to_string()))?;
    network.config = config;
    network.refresh_wakeup();
    let started = network
        .pipeline
        .reconfigure(&network.config.mods, &network.config.mod_priorities);
    for name in started {
        if let Some(saved) = network.state.mod_state.get(name) {
            network.pipeline.restore(name, saved);
        }
    }
    network.keeps_history = network.pipeline.has(&mod_address("persistence"));
    let mut outcome = logged();
    outcome
        .ack
        .insert("mods".into(), json!(network.pipeline.addresses()));
    Ok(outcome)
}

fn standard_mod(
    config: &mut crate::model::config::NetworkConfig,
    event: &Event,
    kind: &str,
) -> Result<(), Rejection> {
    let name = payload_str(event, "name").ok_or_else(|| invalid("payload.name names the mod"))?;
    let name = name.strip_prefix("mod/").unwrap_or(name);
    let Some(default) = ModConfig::from_name(name) else {
        return Err(Rejection::new(
            ErrorCode::NotFound,
            format!("there is no standard mod {name}"),
        ));
    };
    let mod_name = default.name();
    let at = config.mods.iter().position(|m| m.name() == mod_name);
    let priority = match event.payload.get("priority") {
        None | Some(Value::Null) => None,
        Some(p) => Some(
            p.as_i64()
                .and_then(|p| i32::try_from(p).ok())
                .ok_or_else(|| invalid("priority is a whole number"))?,
        ),
    };
    match (kind, at) {
        (types::MOD_UNLOAD, Some(at)) => {
            config.mods.remove(at);
            config.mod_priorities.remove(mod_name);
            return Ok(());
        }
        (types::MOD_LOAD, Some(_)) => {
            return Err(Rejection::new(
                ErrorCode::AlreadyExists,
                format!("mod/{name} is loaded: configure it"),
            ));
        }
        (types::MOD_UNLOAD | types::MOD_CONFIGURE, None) => {
            return Err(Rejection::new(
                ErrorCode::NotFound,
                format!("mod/{name} is not loaded"),
            ));
        }
        _ => {}
    }
    let settings = match event.payload.get("settings") {
        Some(Value::Object(settings)) => {
            let mut tagged = settings.clone();
            tagged.insert("name".into(), json!(mod_name));
            serde_json::from_value::<ModConfig>(Value::Object(tagged))
                .map_err(|e| invalid(format!("settings of mod/{name}: {e}")))?
        }
        None | Some(Value::Null) => match at {
            Some(at) => config.mods.get(at).cloned().unwrap_or(default),
            None => default,
        },
        Some(_) => return Err(invalid("settings is an object")),
    };
    match at.and_then(|at| config.mods.get_mut(at)) {
        Some(slot) => *slot = settings,
        None => config.mods.push(settings),
    }
    if let Some(priority) = priority {
        config.mod_priorities.insert(mod_name.to_owned(), priority);
    }
    Ok(())
}

fn agent_mod(
    config: &mut crate::model::config::NetworkConfig,
    event: &Event,
    kind: &str,
) -> Result<(), Rejection> {
    let at = |config: &crate::model::config::NetworkConfig, agent: &str| {
        config
            .agent_mods
            .iter()
            .position(|m| m.agent.to_string() == agent)
    };
    let agent = payload_str(event, "agent").ok_or_else(|| invalid("payload.agent names it"))?;
    match kind {
        types::MOD_UNLOAD => {
            let Some(i) = at(config, agent) else {
                return Err(Rejection::new(
                    ErrorCode::NotFound,
                    format!("{agent} is not installed as a mod"),
                ));
            };
            config.agent_mods.remove(i);
            Ok(())
        }
        _ => {
            let installed: AgentMod = serde_json::from_value(event.payload.clone())
                .map_err(|e| invalid(format!("an agent mod: {e}")))?;
            installed.check().map_err(invalid)?;
            match at(config, agent) {
                Some(i) => {
                    if let Some(slot) = config.agent_mods.get_mut(i) {
                        *slot = installed;
                    }
                }
                None if kind == types::MOD_CONFIGURE => {
                    return Err(Rejection::new(
                        ErrorCode::NotFound,
                        format!("{agent} is not installed as a mod"),
                    ));
                }
                None if config.agent_mods.len() >= MAX_AGENT_MODS => {
                    return Err(Rejection::new(
                        ErrorCode::LimitReached,
                        format!("a network installs at most {MAX_AGENT_MODS} agent mods"),
                    ));
                }
                None => config.agent_mods.push(installed),
            }
            Ok(())
        }
    }
}
