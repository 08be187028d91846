//! `network.admin.mod.*`: a master loads, unloads and reconfigures mods at
//! runtime — the standard ones (`{name, settings?, priority?}`) and member
//! agents installed as mods (`{agent, patterns, mode, priority?,
//! deadline_ms?, on_late?}`, [`crate::model::agent_mod`]).

use super::admin_types as types;
use super::payload::invalid;
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::model::agent_mod::{AgentMod, MAX_AGENT_MODS};
use crate::model::config::ModConfig;
use crate::model::requests::admin::ModChange;
use crate::model::requests::field::read;
use crate::network::engine::{Network, mod_address};
use crate::network::pipeline::outcome::{Handled, logged};
use serde_json::{Value, json};

/// Handles load, unload and configure.
pub(super) fn handle(network: &mut Network, event: &Event) -> Handled {
    let mut config = network.config.clone();
    let kind = event.event_type.as_str();
    let change = read::<ModChange>(&event.payload);
    if change.agent.is_sent() {
        agent_mod(&mut config, event, change, kind)?;
    } else {
        standard_mod(&mut config, change, kind)?;
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
    change: ModChange,
    kind: &str,
) -> Result<(), Rejection> {
    let name = change
        .name
        .given()
        .ok_or_else(|| invalid("payload.name names the mod"))?;
    let name = name.strip_prefix("mod/").unwrap_or(&name);
    let Some(default) = ModConfig::from_name(name) else {
        return Err(Rejection::new(
            ErrorCode::NotFound,
            format!("there is no standard mod {name}"),
        ));
    };
    let mod_name = default.name();
    let at = config.mods.iter().position(|m| m.name() == mod_name);
    let priority = change
        .priority
        .checked(|| invalid("priority is a whole number"))?;
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
    let settings = match change
        .settings
        .checked(|| invalid("settings is an object"))?
    {
        Some(mut tagged) => {
            tagged.insert("name".into(), json!(mod_name));
            serde_json::from_value::<ModConfig>(Value::Object(tagged))
                .map_err(|e| invalid(format!("settings of mod/{name}: {e}")))?
        }
        None => match at {
            Some(at) => config.mods.get(at).cloned().unwrap_or(default),
            None => default,
        },
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
    change: ModChange,
    kind: &str,
) -> Result<(), Rejection> {
    let at = |config: &crate::model::config::NetworkConfig, agent: &str| {
        config
            .agent_mods
            .iter()
            .position(|m| m.agent.to_string() == agent)
    };
    let agent = change
        .agent
        .given()
        .ok_or_else(|| invalid("payload.agent names it"))?;
    let agent = agent.as_str();
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
