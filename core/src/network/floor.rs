//! A lower bound on a set of deadlines that is cheap to keep: lowered as
//! deadlines are set, set exactly now and then (`super::wakeup` keeps the
//! network's alarm by it).

/// A time no later than the earliest of a set of deadlines (none: there is
/// no deadline). Lowered as deadlines are set; a deadline that goes away or
/// moves later leaves it early until it is set exactly again.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Floor(Option<u64>);

impl Floor {
    /// The floor of deadlines whose earliest is `at`.
    pub fn exact(at: Option<u64>) -> Self {
        Self(at)
    }

    /// A deadline at `at` was set.
    pub fn lower(&mut self, at: u64) {
        self.0 = Some(self.0.map_or(at, |floor| floor.min(at)));
    }

    /// The floor.
    pub fn get(self) -> Option<u64> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::Floor;

    #[test]
    fn a_floor_only_goes_down_until_it_is_set_exactly() {
        let mut floor = Floor::default();
        assert_eq!(floor.get(), None);
        floor.lower(50);
        floor.lower(70);
        assert_eq!(floor.get(), Some(50));
        floor.lower(20);
        assert_eq!(floor.get(), Some(20));
        assert_eq!(Floor::exact(Some(90)).get(), Some(90));
        assert_eq!(Floor::exact(None), Floor::default());
    }
}
