//! What an agent spends, per hour: model calls and tokens in the last
//! sixty minutes (a sliding window over the times the host passes in).

use crate::agent::config::Budgets;
use crate::ids::time::Timestamp;
use std::collections::VecDeque;

/// The window budgets count over.
pub const HOUR_MS: u64 = 60 * 60 * 1000;

/// A budget that is spent, and when some of it is free again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    /// Model calls.
    Calls {
        /// Milliseconds until a call is free.
        free_in_ms: u64,
    },
    /// Tokens.
    Tokens {
        /// Milliseconds until the oldest counted tokens leave the window.
        free_in_ms: u64,
    },
}

impl Spent {
    /// The short message posted instead of an answer.
    pub fn message(&self) -> String {
        let (what, ms) = match self {
            Self::Calls { free_in_ms } => ("model calls", free_in_ms),
            Self::Tokens { free_in_ms } => ("tokens", free_in_ms),
        };
        let minutes = ms.div_ceil(60_000).max(1);
        format!(
            "I have used this hour's budget of {what}; I can answer again in about {minutes} min."
        )
    }
}

/// Calls and tokens spent in the last hour.
#[derive(Debug, Default)]
pub struct Spending {
    calls: VecDeque<Timestamp>,
    tokens: VecDeque<(Timestamp, u64)>,
}

impl Spending {
    fn forget(&mut self, now: Timestamp) {
        let gone = |t: Timestamp| t.plus_millis(HOUR_MS) <= now;
        while self.calls.front().is_some_and(|&t| gone(t)) {
            self.calls.pop_front();
        }
        while self.tokens.front().is_some_and(|&(t, _)| gone(t)) {
            self.tokens.pop_front();
        }
    }

    /// Whether one more model call fits the budgets at `now`.
    pub fn check(&mut self, budgets: &Budgets, now: Timestamp) -> Result<(), Spent> {
        self.forget(now);
        let free_in = |t: Timestamp| t.plus_millis(HOUR_MS).millis_since(now);
        if self.calls.len() >= budgets.calls_per_hour as usize {
            let free_in_ms = self.calls.front().map_or(HOUR_MS, |&t| free_in(t));
            return Err(Spent::Calls { free_in_ms });
        }
        let used: u64 = self.tokens.iter().map(|&(_, n)| n).sum();
        if used >= budgets.tokens_per_hour {
            let free_in_ms = self.tokens.front().map_or(HOUR_MS, |&(t, _)| free_in(t));
            return Err(Spent::Tokens { free_in_ms });
        }
        Ok(())
    }

    /// Counts a model call at `now`.
    pub fn call(&mut self, now: Timestamp) {
        self.calls.push_back(now);
    }

    /// Counts tokens spent at `now`.
    pub fn tokens(&mut self, now: Timestamp, count: u64) {
        if count > 0 {
            self.tokens.push_back((now, count));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_free_up_after_an_hour() {
        let budgets = Budgets {
            calls_per_hour: 2,
            ..Budgets::default()
        };
        let mut spending = Spending::default();
        spending.call(Timestamp::from(1_000));
        spending.call(Timestamp::from(2_000));
        let spent = spending
            .check(&budgets, Timestamp::from(3_000))
            .unwrap_err();
        assert_eq!(
            spent,
            Spent::Calls {
                free_in_ms: HOUR_MS - 2_000
            }
        );
        assert!(spent.message().contains("about 60 min"));
        assert!(
            spending
                .check(&budgets, Timestamp::from(1_000 + HOUR_MS))
                .is_ok()
        );
    }

    #[test]
    fn tokens_count_over_the_window() {
        let budgets = Budgets {
            tokens_per_hour: 100,
            ..Budgets::default()
        };
        let mut spending = Spending::default();
        spending.tokens(Timestamp::from(0), 60);
        assert!(spending.check(&budgets, Timestamp::from(10)).is_ok());
        spending.tokens(Timestamp::from(10), 40);
        assert!(matches!(
            spending.check(&budgets, Timestamp::from(20)),
            Err(Spent::Tokens { .. })
        ));
        assert!(
            spending
                .check(&budgets, Timestamp::from(HOUR_MS + 1))
                .is_ok()
        );
    }
}
