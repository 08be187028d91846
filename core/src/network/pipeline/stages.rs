//! The pipeline stages after the guards: transforms and observers, and what
//! the mods ask the network to do (commands) or to send (emitted events);
//! [`Network::with_mods`], the context every stage runs the mods in.

use crate::event::Event;
use crate::ids::address::{Address, Entity};
use crate::ids::time::Timestamp;
use crate::model::membership::Member;
use crate::model::state::{Channel, Row};
use crate::mods::{Command, Context, JoinClaim, Outbox, Pipeline};
use crate::network::delivery::routing;
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::log::graph::LogView;
use std::rc::Rc;

/// The two pipeline stages after the guards.
#[derive(Clone, Copy)]
pub(crate) enum Stage {
    /// May rewrite the event and emit.
    Transform,
    /// Sees the final event; may emit.
    Observe,
}

impl Network {
    /// Runs the transforms or the observers, applies what they asked for and routes what they emitted.
    pub(crate) fn run_stage(
        &mut self,
        stage: Stage,
        event: &mut Event,
        now: Timestamp,
    ) -> Vec<Effect> {
        let ((), emitted, commands) = self.with_mods(now, None, |pipeline, cx, out| match stage {
            Stage::Transform => pipeline.transform(cx, event, out),
            Stage::Observe => pipeline.observe(cx, event, out),
        });
        let mut effects = Vec::new();
        for command in commands {
            effects.extend(self.apply_command(command));
        }
        for emitted in emitted {
            if let Ok(recipients) = routing::recipients(&self.state, &emitted) {
                let to: Vec<Address> = recipients
                    .into_iter()
                    .filter(|to| self.state.members.get(to).is_some_and(Member::is_online))
                    .collect();
                if !to.is_empty() {
                    effects.push(Effect::Deliver {
                        to,
                        event: Rc::new(emitted),
                        order: None,
                    });
                }
            }
        }
        effects
    }

    /// Runs `f` on the mods' pipeline with the context at `now` (of the
    /// `join` under way, if any) and a fresh outbox: what `f` returns, then
    /// the events and commands the outbox collected.
    pub(crate) fn with_mods<R>(
        &mut self,
        now: Timestamp,
        join: Option<&JoinClaim>,
        f: impl FnOnce(&mut Pipeline, &Context<'_>, &mut Outbox<'_>) -> R,
    ) -> (R, Vec<Event>, Vec<Command>) {
        let log = LogView {
            dedupe: &self.dedupe,
            index: self.index.as_ref(),
            keeps_history: self.keeps_history,
        };
        let cx = Context {
            state: &self.state,
            config: &self.config,
            now,
            join,
            log: &log,
        };
        let mut out = Outbox::new(&mut self.ids, &self.config.id, now);
        let result = f(&mut self.pipeline, &cx, &mut out);
        (result, out.events, out.commands)
    }

    /// Carries out what a mod asked for.
    pub(crate) fn apply_command(&mut self, command: Command) -> Vec<Effect> {
        match command {
            Command::EnsureChannel { name, members } => {
                let Ok(name) = format!("channel/{name}").parse::<Address>() else {
                    return Vec::new();
                };
                let Entity::Channel(name) = name.entity().clone() else {
                    return Vec::new();
                };
                let creator = members.first().cloned().unwrap_or_else(Address::core);
                let channel = self
                    .state
                    .channels
                    .entry(name.clone())
                    .or_insert_with(|| Channel {
                        name,
                        members: Default::default(),
                        created_by: creator,
                        private: false,
                        invited: Default::default(),
                        tags: Vec::new(),
                        title: None,
                    });
                channel.members.extend(members);
                vec![Effect::Store(Row::Channel(channel.clone()))]
            }
            Command::SaveModState { name, state } => {
                self.state.mod_state.insert(name.to_owned(), state.clone());
                vec![Effect::Store(Row::ModState {
                    name: name.to_owned(),
                    state,
                })]
            }
        }
    }
}
