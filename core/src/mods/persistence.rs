//! `mod/persistence`: keeps events as queryable history (observe, priority 90).
//!
//! Without it, the log holds events only until every recipient has them
//! (at-least-once delivery) and `network.events.query` is refused. With it,
//! the network marks every logged row `retain` and answers queries: the
//! host reads candidate rows and the core filters them by visibility
//! (see `Network::answer_query`).

use super::api::{Mod, ModMode, ModSpec};

pub(super) struct Persistence {
    spec: ModSpec,
}

impl Persistence {
    pub(super) fn new() -> Self {
        Self {
            spec: ModSpec::standard("persistence", &["*"], 90, ModMode::Observe),
        }
    }
}

impl Mod for Persistence {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }
}
