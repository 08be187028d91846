//! One copy of the stable sort for every sort of whole records in the core,
//! the edge and the web workspace.
//!
//! `slice::sort_by` is compiled again for every element type and comparison
//! it is called with, about 3.5 KB of wasm each: the workspace's dozen sorts
//! were 51 KB of its first page's code, and the core's and edge's sorts (and
//! their `BTreeSet`s collected from lists, which sort first) about 100 KB of
//! the edge's. [`sort_by`] and [`sort_by_key`] sort a list of positions
//! instead, through one comparison behind a reference, so the sort itself is
//! compiled once; what stays generic per call is a few lines that compare
//! two items and move them into place. They are stable, like
//! `slice::sort_by`. Lists of plain numbers sort with the standard library's
//! `sort_unstable`, one copy for every such list.

use std::cmp::Ordering;

/// Sorts `items` by `compare`, keeping the order of equal items.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &|a, b| compare(&items[a], &items[b]));
    permute(items, &order);
}

/// Sorts `items` by the key `key` gives each, keeping the order of equal keys.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The positions `0..len` in the order `compare` puts the items there in (stable).
fn stable_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Moves the item at `order[k]` to position `k`, for every `k`, by following
/// each cycle of the permutation once.
fn permute<T>(items: &mut [T], order: &[usize]) {
    let mut placed = vec![false; order.len()];
    for start in 0..order.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at];
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn equal_keys_keep_their_order() {
        let mut names = vec![("b", 1), ("a", 2), ("b", 0), ("a", 1), ("c", 0)];
        sort_by_key(&mut names, |(name, _)| *name);
        assert_eq!(
            names,
            vec![("a", 2), ("a", 1), ("b", 1), ("b", 0), ("c", 0)]
        );
    }

    #[test]
    fn empty_and_single_lists_are_left_alone() {
        let mut none: Vec<u8> = Vec::new();
        sort_by(&mut none, u8::cmp);
        assert!(none.is_empty());
        let mut one = vec![7];
        sort_by(&mut one, |a, b| b.cmp(a));
        assert_eq!(one, vec![7]);
    }

    proptest! {
        /// The same order as the standard library's stable sort, whatever the list.
        #[test]
        fn sorts_as_the_standard_stable_sort(items in proptest::collection::vec((0u8..8, any::<u16>()), 0..200)) {
            let mut ours = items.clone();
            let mut theirs = items;
            sort_by_key(&mut ours, |a| std::cmp::Reverse(a.0));
            theirs.sort_by_key(|a| std::cmp::Reverse(a.0));
            prop_assert_eq!(ours, theirs);
        }
    }
}
