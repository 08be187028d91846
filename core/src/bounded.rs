//! Maps kept within a bound: beyond it, the oldest entry goes first.
//!
//! Caches and memories that grow with what strangers send (challenges,
//! looked-up identities, conversations) stay small this way; "oldest" is
//! whatever the caller ages an entry by (a time, a tick).

use std::collections::BTreeMap;

/// Removes the entries of `map` with the least `age` until at most `max`
/// are left (of equally old ones, the first in key order goes first).
pub fn trim_oldest<K: Ord + Clone, V, A: Ord>(
    map: &mut BTreeMap<K, V>,
    max: usize,
    age: impl Fn(&V) -> A,
) {
    while map.len() > max {
        let Some(oldest) = map
            .iter()
            .min_by_key(|(_, value)| age(value))
            .map(|(key, _)| key.clone())
        else {
            break;
        };
        map.remove(&oldest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_go_first_down_to_the_bound() {
        let mut map: BTreeMap<&str, u32> = [("a", 3), ("b", 1), ("c", 2), ("d", 1)].into();
        trim_oldest(&mut map, 2, |age| *age);
        assert_eq!(map, [("a", 3), ("c", 2)].into());
        trim_oldest(&mut map, 5, |age| *age);
        assert_eq!(map.len(), 2);
    }
}
