//! The traversal against a plain walk of the whole log, on random graphs.

use super::*;
use crate::model::graph_memory::MemoryGraph;
use proptest::prelude::*;

/// A random DAG: message `i` (1-based `seq`) lists parents among the messages before it.
fn dag() -> impl Strategy<Value = Vec<Vec<u64>>> {
    proptest::collection::vec(
        proptest::collection::vec(any::<prop::sample::Index>(), 0..4),
        1..60,
    )
    .prop_map(|picks| {
        picks
            .iter()
            .enumerate()
            .map(|(i, parents)| {
                let mut chosen: Vec<u64> = if i == 0 {
                    Vec::new()
                } else {
                    parents.iter().map(|p| p.index(i) as u64 + 1).collect()
                };
                chosen.sort_unstable();
                chosen.dedup();
                chosen
            })
            .collect()
    })
}

fn index_of(parents: &[Vec<u64>]) -> MemoryGraph {
    let mut graph = MemoryGraph::default();
    for (i, of) in parents.iter().enumerate() {
        let placement = Placement {
            space: "s".into(),
            parents: of.clone(),
            recipients: Vec::new(),
        };
        graph.add_links(&placement.links(i as u64 + 1));
    }
    graph
}

/// Ancestors or descendants of `start` by scanning the whole log until nothing changes.
fn naive(parents: &[Vec<u64>], start: u64, direction: Direction) -> Vec<u64> {
    let mut up = BTreeSet::from([start]);
    let mut down = BTreeSet::from([start]);
    loop {
        let mut changed = false;
        for (i, of) in parents.iter().enumerate() {
            let seq = i as u64 + 1;
            if up.contains(&seq) {
                for p in of {
                    changed |= up.insert(*p);
                }
            }
            if of.iter().any(|p| down.contains(p)) {
                changed |= down.insert(seq);
            }
        }
        if !changed {
            break;
        }
    }
    let mut all: BTreeSet<u64> = BTreeSet::new();
    if direction != Direction::Downstream {
        all.extend(up);
    }
    if direction != Direction::Upstream {
        all.extend(down);
    }
    all.into_iter().collect()
}

proptest! {
    #[test]
    fn traversal_matches_a_walk_of_the_whole_log(
        parents in dag(),
        pick in any::<prop::sample::Index>(),
        which in 0..3u8,
    ) {
        let index = index_of(&parents);
        let start = pick.index(parents.len()) as u64 + 1;
        let direction = [Direction::Both, Direction::Upstream, Direction::Downstream][usize::from(which)];
        prop_assert_eq!(related(&index, start, direction), naive(&parents, start, direction));
    }

    #[test]
    fn window_keeps_the_last_n_or_the_first_n_after_the_cursor(
        seqs in proptest::collection::btree_set(1..500u64, 0..50),
        after in proptest::option::of(0..500u64),
        limit in proptest::option::of(1..20usize),
    ) {
        let seqs: Vec<u64> = seqs.into_iter().collect();
        let later: Vec<u64> = seqs.iter().copied().filter(|s| after.is_none_or(|a| *s > a)).collect();
        let expected: Vec<u64> = match (after, limit) {
            (_, None) => later,
            (Some(_), Some(n)) => later.into_iter().take(n).collect(),
            (None, Some(n)) => later[later.len().saturating_sub(n)..].to_vec(),
        };
        prop_assert_eq!(window(seqs, after, limit), expected);
    }
}

#[test]
fn upstream_returns_every_ancestor_of_a_chain() {
    let parents = vec![vec![], vec![1], vec![2], vec![3]];
    let index = index_of(&parents);
    assert_eq!(related(&index, 4, Direction::Upstream), vec![1, 2, 3, 4]);
    assert_eq!(related(&index, 2, Direction::Downstream), vec![2, 3, 4]);
}

#[test]
fn a_dag_with_two_parents_reaches_both_roots() {
    let parents = vec![vec![], vec![], vec![1, 2], vec![3]];
    let index = index_of(&parents);
    assert_eq!(related(&index, 4, Direction::Upstream), vec![1, 2, 3, 4]);
    assert_eq!(related(&index, 1, Direction::Both), vec![1, 3, 4]);
    assert_eq!(Direction::parse("sideways"), None);
}

#[test]
fn a_root_is_indexed_under_its_space_and_the_roots() {
    let placement = Placement {
        space: "general".into(),
        parents: Vec::new(),
        recipients: Vec::new(),
    };
    let keys: Vec<String> = placement.links(7).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        vec![
            ALL_KEY.to_owned(),
            space_key("general"),
            root_key("general")
        ]
    );
}

#[test]
fn newest_lookups_keep_the_last_rows() {
    let index = index_of(&[vec![], vec![], vec![], vec![]]);
    assert_eq!(
        index.linked(&space_key("s"), 0, u64::MAX, 2, End::Newest),
        vec![3, 4]
    );
    assert_eq!(
        index.linked(&space_key("s"), 1, u64::MAX, 2, End::Oldest),
        vec![2, 3]
    );
    assert_eq!(
        index.linked(&space_key("s"), 0, 4, 2, End::Newest),
        vec![2, 3]
    );
    assert_eq!(index.count(&space_key("s")), 4);
}
