//! The Admin view's analytics charts: `mod/analytics`' counts (per type, per
//! source, per minute) as bars. What the bars are is pure ([`top`],
//! [`per_minute`]); [`BarChart`] draws them as an SVG.

use agentnet_core::sorting::sort_by;
use leptos::prelude::*;
use serde_json::Value;

/// One bar: what it counts and how many.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bar {
    /// Its label (a type, an address, a time).
    pub label: String,
    /// The count.
    pub value: u64,
}

/// The `n` largest counts of a `{name: count}` object, largest first (ties by name).
pub fn top(counts: Option<&Value>, n: usize) -> Vec<Bar> {
    let mut bars: Vec<Bar> = counts
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(label, v)| {
                    Some(Bar {
                        label: label.clone(),
                        value: v.as_u64()?,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    sort_by(&mut bars, |a, b| {
        b.value.cmp(&a.value).then_with(|| a.label.cmp(&b.label))
    });
    bars.truncate(n);
    bars
}

/// The last `minutes` minutes up to `now` (unix ms), oldest first, from
/// `by_minute` (`{minute start ms: count}`); minutes without events count 0.
/// Labels are `HH:MM` (UTC).
pub fn per_minute(by_minute: Option<&Value>, now: u64, minutes: u64) -> Vec<Bar> {
    let map = by_minute.and_then(Value::as_object);
    let current = now - now % 60_000;
    (0..minutes)
        .rev()
        .map(|back| {
            let start = current.saturating_sub(back * 60_000);
            let value = map
                .and_then(|m| m.get(&start.to_string()))
                .and_then(Value::as_u64)
                .unwrap_or(0);
            let minute_of_day = (start / 60_000) % (24 * 60);
            Bar {
                label: format!("{:02}:{:02}", minute_of_day / 60, minute_of_day % 60),
                value,
            }
        })
        .collect()
}

/// A bar chart: horizontal bars with their labels and counts.
#[component]
pub fn BarChart(
    /// What it shows (its accessible name).
    title: &'static str,
    /// The bars.
    bars: Vec<Bar>,
) -> impl IntoView {
    let max = bars.iter().map(|b| b.value).max().unwrap_or(0).max(1);
    let height = 22 * bars.len().max(1);
    let empty = bars.is_empty();
    view! {
        <figure class="chart">
            <figcaption>{title}</figcaption>
            <svg role="img" aria-label=title width="420" height=height viewBox=format!("0 0 420 {height}")>
                {bars.into_iter().enumerate().map(|(i, bar)| {
                    let y = i * 22;
                    let width = 1 + bar.value * 200 / max;
                    view! {
                        <g class="bar" data-label=bar.label.clone() data-value=bar.value>
                            <title>{format!("{}: {}", bar.label, bar.value)}</title>
                            <text x="0" y=y + 15 font-size="12">{bar.label.chars().take(24).collect::<String>()}</text>
                            <rect x="170" y=y + 4 width=width height="14"></rect>
                            <text x=175 + width y=y + 15 font-size="12">{bar.value}</text>
                        </g>
                    }
                }).collect_view()}
            </svg>
            {empty.then(|| view! { <p>"Nothing counted yet."</p> })}
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_largest_counts_come_first_and_the_rest_are_left_out() {
        let counts = json!({"chat.message": 5, "note": 9, "ping": 5, "bad": "x"});
        let bars = top(Some(&counts), 2);
        assert_eq!(
            bars,
            vec![
                Bar {
                    label: "note".into(),
                    value: 9
                },
                Bar {
                    label: "chat.message".into(),
                    value: 5
                }
            ]
        );
        assert!(top(None, 3).is_empty());
    }

    #[test]
    fn minutes_without_events_are_zero_bars_in_time_order() {
        let now = 1_764_000_000_000 + 30_000; // 30 s into a minute
        let minute = now - now % 60_000;
        let series = json!({ (minute - 120_000).to_string(): 4, minute.to_string(): 1 });
        let bars = per_minute(Some(&series), now, 3);
        assert_eq!(
            bars.iter().map(|b| b.value).collect::<Vec<_>>(),
            vec![4, 0, 1]
        );
        assert_eq!(bars.len(), 3);
        assert_eq!(bars[2].label.len(), 5);
        assert!(per_minute(None, now, 2).iter().all(|b| b.value == 0));
    }
}
