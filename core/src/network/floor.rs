//! A lower bound on a set of deadlines that is cheap to keep: lowered as
//! deadlines are set, set exactly now and then (`super::wakeup` keeps the
//! network's alarm by it).

use crate::ids::time::Timestamp;

/// A time no later than the earliest of a set of deadlines (none: there is
/// no deadline). Lowered as deadlines are set; a deadline that goes away or
/// moves later leaves it early until it is set exactly again.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Floor(Option<Timestamp>);

impl Floor {
    /// The floor of deadlines whose earliest is `at`.
    pub fn exact(at: Option<Timestamp>) -> Self {
        Self(at)
    }

    /// A deadline at `at` was set.
    pub fn lower(&mut self, at: Timestamp) {
        self.0 = Some(self.0.map_or(at, |floor| floor.min(at)));
    }

    /// The floor.
    pub fn get(self) -> Option<Timestamp> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::Floor;
    use crate::ids::time::Timestamp;

    #[test]
    fn a_floor_only_goes_down_until_it_is_set_exactly() {
        let at = Timestamp::from_millis;
        let mut floor = Floor::default();
        assert_eq!(floor.get(), None);
        floor.lower(at(50));
        floor.lower(at(70));
        assert_eq!(floor.get(), Some(at(50)));
        floor.lower(at(20));
        assert_eq!(floor.get(), Some(at(20)));
        assert_eq!(Floor::exact(Some(at(90))).get(), Some(at(90)));
        assert_eq!(Floor::exact(None), Floor::default());
    }
}
