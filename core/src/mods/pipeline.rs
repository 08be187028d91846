//! The [`Pipeline`]: the loaded mods in order, and how each stage runs them.

use super::api::{Context, Mod, ModMode, Outbox};

use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::{Address, Entity};
use crate::model::config::ModConfig;
use serde_json::Value;
use std::collections::BTreeMap;

/// The mod a configuration names, ready to run.
fn instantiate(config: &ModConfig) -> Box<dyn Mod> {
    match config {
        ModConfig::Auth => Box::new(super::auth::Auth::new()),
        ModConfig::AccessControl => Box::new(super::access_control::AccessControl::new()),
        ModConfig::RateLimiter(limit) => Box::new(super::rate_limiter::RateLimiter::new(*limit)),
        ModConfig::Enrichment => Box::new(super::enrichment::Enrichment::new()),
        ModConfig::Workspace(settings) => Box::new(super::workspace::Workspace::new(settings)),
        ModConfig::Persistence => Box::new(super::persistence::Persistence::new()),
        ModConfig::Analytics => Box::new(super::analytics::AnalyticsMod::new()),
    }
}

/// The loaded mods, in pipeline order.
pub struct Pipeline {
    mods: Vec<Box<dyn Mod>>,
    /// The configuration each mod (parallel to `mods`) was made from.
    configs: Vec<ModConfig>,
}

impl Pipeline {
    /// Instantiates the configured mods, ordered by mode then priority
    /// (`priorities` overrides a mod's own, by name).
    pub fn new(configs: &[ModConfig], priorities: &BTreeMap<String, i32>) -> Self {
        Self::rebuilt(Vec::new(), configs, priorities)
    }

    /// The pipeline for a changed configuration: a mod whose settings did not
    /// change keeps its instance (and so its counts and buckets). Returns the
    /// names of the mods started anew (their saved state is theirs to restore).
    pub fn reconfigure(
        &mut self,
        configs: &[ModConfig],
        priorities: &BTreeMap<String, i32>,
    ) -> Vec<&'static str> {
        let old: Vec<(ModConfig, Box<dyn Mod>)> = std::mem::take(&mut self.configs)
            .into_iter()
            .zip(std::mem::take(&mut self.mods))
            .collect();
        let started = configs
            .iter()
            .filter(|c| !old.iter().any(|(o, _)| o == *c))
            .map(ModConfig::name)
            .collect();
        *self = Self::rebuilt(old, configs, priorities);
        started
    }

    fn rebuilt(
        mut old: Vec<(ModConfig, Box<dyn Mod>)>,
        configs: &[ModConfig],
        priorities: &BTreeMap<String, i32>,
    ) -> Self {
        let mut loaded: Vec<(ModConfig, Box<dyn Mod>)> = configs
            .iter()
            .map(|config| match old.iter().position(|(c, _)| c == config) {
                Some(at) => old.swap_remove(at),
                None => (config.clone(), instantiate(config)),
            })
            .collect();
        crate::sorting::sort_by_key(&mut loaded, |(config, m)| {
            let priority = priorities
                .get(config.name())
                .copied()
                .unwrap_or(m.spec().priority);
            (m.spec().mode, priority)
        });
        let (configs, mods) = loaded.into_iter().unzip();
        Self { mods, configs }
    }

    /// The loaded mods' addresses in pipeline order.
    pub fn addresses(&self) -> Vec<Address> {
        self.mods.iter().map(|m| m.spec().address.clone()).collect()
    }

    /// True when a mod with this address is loaded.
    pub fn has(&self, address: &Address) -> bool {
        self.mods.iter().any(|m| &m.spec().address == address)
    }

    /// The loaded mods that run in `mode`, in order.
    fn running_in(&mut self, mode: ModMode) -> impl Iterator<Item = &mut Box<dyn Mod>> {
        self.mods.iter_mut().filter(move |m| m.spec().runs_in(mode))
    }

    /// Runs the guards; the first rejection stops the pipeline.
    pub fn guard(&mut self, cx: &Context<'_>, event: &Event) -> Result<(), Rejection> {
        for m in self.running_in(ModMode::Guard) {
            if m.spec().intercepts(&event.event_type) {
                m.guard(cx, event)?;
            }
        }
        Ok(())
    }

    /// Runs the transforms in order.
    pub fn transform(&mut self, cx: &Context<'_>, event: &mut Event, out: &mut Outbox<'_>) {
        for m in self.running_in(ModMode::Transform) {
            if m.spec().intercepts(&event.event_type) {
                m.transform(cx, event, out);
            }
        }
    }

    /// Runs the observers in order.
    pub fn observe(&mut self, cx: &Context<'_>, event: &Event, out: &mut Outbox<'_>) {
        for m in self.running_in(ModMode::Observe) {
            if m.spec().intercepts(&event.event_type) {
                m.observe(cx, event, out);
            }
        }
    }

    /// Hands an event addressed to `mod/{name}` to that mod.
    pub fn handle(
        &mut self,
        cx: &Context<'_>,
        event: &Event,
        out: &mut Outbox<'_>,
    ) -> Result<(), Rejection> {
        match self
            .mods
            .iter_mut()
            .find(|m| m.spec().address == event.target.to_local())
        {
            Some(m) => m.handle(cx, event, out),
            None => Err(Rejection::new(
                crate::error::ErrorCode::UnknownTarget,
                format!("{} is not loaded in this network", event.target),
            )),
        }
    }

    /// The report of the mod named `name`, when it is loaded and reports.
    pub fn report(&self, name: &str) -> Option<Value> {
        self.mods
            .iter()
            .find(|m| matches!(m.spec().address.entity(), Entity::Mod(n) if n.as_str() == name))
            .and_then(|m| m.report())
    }

    /// Restores a mod's saved state by name.
    pub fn restore(&mut self, name: &str, state: &Value) {
        for m in &mut self.mods {
            if matches!(m.spec().address.entity(), Entity::Mod(n) if n.as_str() == name) {
                m.restore(state);
            }
        }
    }
}
