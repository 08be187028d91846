//! The [`Pipeline`]: the loaded mods in order, and how each stage runs them.

use super::api::{Context, Mod, ModMode, Outbox};

use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::{Address, Entity};
use crate::model::config::ModConfig;
use serde_json::Value;

/// The mod a configuration names, ready to run.
fn instantiate(config: &ModConfig) -> Box<dyn Mod> {
    match config {
        ModConfig::Auth => Box::new(super::auth::Auth::new()),
        ModConfig::AccessControl => Box::new(super::access_control::AccessControl::new()),
        ModConfig::RateLimiter(limit) => Box::new(super::rate_limiter::RateLimiter::new(*limit)),
        ModConfig::Enrichment => Box::new(super::enrichment::Enrichment::new()),
        ModConfig::Workspace => Box::new(super::workspace::Workspace::new()),
        ModConfig::Persistence => Box::new(super::persistence::Persistence::new()),
        ModConfig::Analytics => Box::new(super::analytics::AnalyticsMod::new()),
    }
}

/// The loaded mods, in pipeline order.
pub struct Pipeline {
    mods: Vec<Box<dyn Mod>>,
}

impl Pipeline {
    /// Instantiates the configured mods, ordered by mode then priority.
    pub fn new(configs: &[ModConfig]) -> Self {
        let mut mods: Vec<Box<dyn Mod>> = configs.iter().map(instantiate).collect();
        mods.sort_by_key(|m| (m.spec().mode, m.spec().priority));
        Self { mods }
    }

    /// The loaded mods' addresses in pipeline order.
    pub fn addresses(&self) -> Vec<Address> {
        self.mods.iter().map(|m| m.spec().address.clone()).collect()
    }

    /// True when a mod with this address is loaded.
    pub fn has(&self, address: &Address) -> bool {
        self.mods.iter().any(|m| &m.spec().address == address)
    }

    /// Runs the guards; the first rejection stops the pipeline.
    pub fn guard(&mut self, cx: &Context<'_>, event: &Event) -> Result<(), Rejection> {
        for m in self
            .mods
            .iter_mut()
            .filter(|m| m.spec().mode == ModMode::Guard)
        {
            if m.spec().intercepts(&event.event_type) {
                m.guard(cx, event)?;
            }
        }
        Ok(())
    }

    /// Runs the transforms in order.
    pub fn transform(&mut self, cx: &Context<'_>, event: &mut Event, out: &mut Outbox<'_>) {
        for m in self
            .mods
            .iter_mut()
            .filter(|m| m.spec().mode == ModMode::Transform)
        {
            if m.spec().intercepts(&event.event_type) {
                m.transform(cx, event, out);
            }
        }
    }

    /// Runs the observers in order.
    pub fn observe(&mut self, cx: &Context<'_>, event: &Event, out: &mut Outbox<'_>) {
        for m in self
            .mods
            .iter_mut()
            .filter(|m| m.spec().mode == ModMode::Observe)
        {
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

    /// Restores a mod's saved state by name.
    pub fn restore(&mut self, name: &str, state: &Value) {
        for m in &mut self.mods {
            if matches!(m.spec().address.entity(), Entity::Mod(n) if n.as_str() == name) {
                m.restore(state);
            }
        }
    }
}
