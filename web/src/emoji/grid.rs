//! Moving through the picker's grid with the arrow keys: the emoji are
//! groups (Recent, then each category; or the search's results) laid out in
//! rows of [`COLUMNS`], each group starting a row. Left and Right step
//! through them all; Up and Down keep the column, crossing into the next or
//! previous group's nearest row. Pure: positions are indices in the
//! groups laid end to end.

/// The emoji in one row of the picker (the style sheet lays them out so).
pub const COLUMNS: usize = 8;

/// A move the arrows (and Home and End) ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// ArrowLeft.
    Left,
    /// ArrowRight.
    Right,
    /// ArrowUp.
    Up,
    /// ArrowDown.
    Down,
    /// Home: the first.
    First,
    /// End: the last.
    Last,
}

impl Move {
    /// The move `key` (a `KeyboardEvent.key`) asks for, if any.
    pub fn of_key(key: &str) -> Option<Self> {
        Some(match key {
            "ArrowLeft" => Self::Left,
            "ArrowRight" => Self::Right,
            "ArrowUp" => Self::Up,
            "ArrowDown" => Self::Down,
            "Home" => Self::First,
            "End" => Self::Last,
            _ => return None,
        })
    }
}

/// Where `index` goes with `step`, given the groups' sizes (in order).
pub fn moved(groups: &[usize], index: usize, step: Move) -> usize {
    let total: usize = groups.iter().sum();
    if total == 0 {
        return 0;
    }
    let index = index.min(total - 1);
    // The group `index` is in, where that group starts, and its size.
    let mut start = 0;
    let mut group = 0;
    for (g, size) in groups.iter().enumerate() {
        if index < start + size {
            group = g;
            break;
        }
        start += size;
    }
    let size = groups[group];
    let (row, column) = ((index - start) / COLUMNS, (index - start) % COLUMNS);
    match step {
        Move::Left => index.saturating_sub(1),
        Move::Right => (index + 1).min(total - 1),
        Move::First => 0,
        Move::Last => total - 1,
        Move::Down if (row + 1) * COLUMNS < size => {
            start + ((row + 1) * COLUMNS + column).min(size - 1)
        }
        Move::Down => match groups[group + 1..].iter().position(|s| *s > 0) {
            Some(ahead) => {
                let next = group + 1 + ahead;
                let next_start: usize = groups[..next].iter().sum();
                next_start + column.min(groups[next] - 1)
            }
            None => index,
        },
        Move::Up if row > 0 => start + (row - 1) * COLUMNS + column,
        Move::Up => match groups[..group].iter().rposition(|s| *s > 0) {
            Some(previous) => {
                let previous_start: usize = groups[..previous].iter().sum();
                let last_row = (groups[previous] - 1) / COLUMNS;
                previous_start + (last_row * COLUMNS + column).min(groups[previous] - 1)
            }
            None => index,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Two groups: 10 emoji (a row of 8 and a row of 2), then 20 (8, 8, 4).
    const GROUPS: [usize; 2] = [10, 20];

    #[test]
    fn left_and_right_step_through_all_and_stop_at_the_ends() {
        assert_eq!(moved(&GROUPS, 0, Move::Left), 0);
        assert_eq!(moved(&GROUPS, 9, Move::Right), 10, "into the next group");
        assert_eq!(moved(&GROUPS, 29, Move::Right), 29);
        assert_eq!(moved(&GROUPS, 15, Move::First), 0);
        assert_eq!(moved(&GROUPS, 3, Move::Last), 29);
    }

    #[test]
    fn up_and_down_keep_the_column_across_groups() {
        assert_eq!(moved(&GROUPS, 1, Move::Down), 9, "the short row's nearest");
        assert_eq!(moved(&GROUPS, 5, Move::Down), 9);
        assert_eq!(
            moved(&GROUPS, 9, Move::Down),
            11,
            "column 1 of the next group"
        );
        assert_eq!(moved(&GROUPS, 11, Move::Down), 19);
        assert_eq!(moved(&GROUPS, 19, Move::Down), 27);
        assert_eq!(moved(&GROUPS, 27, Move::Down), 27, "the last row stays");
        assert_eq!(moved(&GROUPS, 27, Move::Up), 19);
        assert_eq!(
            moved(&GROUPS, 14, Move::Up),
            9,
            "the short row, nearest column"
        );
        assert_eq!(moved(&GROUPS, 10, Move::Up), 8);
        assert_eq!(moved(&GROUPS, 3, Move::Up), 3, "the first row stays");
    }

    #[test]
    fn empty_groups_are_skipped_and_nothing_is_nothing() {
        assert_eq!(moved(&[3, 0, 2], 1, Move::Down), 4);
        assert_eq!(moved(&[3, 0, 2], 4, Move::Up), 1);
        assert_eq!(moved(&[], 5, Move::Down), 0);
        assert_eq!(Move::of_key("ArrowDown"), Some(Move::Down));
        assert_eq!(Move::of_key("a"), None);
    }
}
