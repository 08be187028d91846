//! When a message was posted, as people read it: a relative time for the
//! last hour ("just now", "5 min ago"), the clock time after that, the exact
//! date and time on hover, and the day a separator names ("Today",
//! "Yesterday", a date). The arithmetic is pure (times in milliseconds since
//! the epoch, the local zone as an offset); only [`Clock`] asks the browser.

use leptos::prelude::*;

const MINUTE: u64 = 60_000;
const HOUR: u64 = 60 * MINUTE;
const DAY: i64 = 86_400_000;

/// A relative label for a time within the last hour, else `None`.
pub fn relative(now: u64, at: u64) -> Option<String> {
    let ago = now.saturating_sub(at);
    match ago {
        _ if ago < MINUTE => Some("just now".to_owned()),
        _ if ago < HOUR => Some(format!("{} min ago", ago / MINUTE)),
        _ => None,
    }
}

/// The local day of `at` (days since the epoch in the zone `offset_ms` east of UTC).
pub fn local_day(at: u64, offset_ms: i64) -> i64 {
    let local = i64::try_from(at)
        .unwrap_or(i64::MAX)
        .saturating_add(offset_ms);
    local.div_euclid(DAY)
}

/// How a day separator names `day` seen on `today`: "Today", "Yesterday",
/// else the date (`date`, as the browser writes it).
pub fn day_label(day: i64, today: i64, date: impl FnOnce() -> String) -> String {
    match today - day {
        0 => "Today".to_owned(),
        1 => "Yesterday".to_owned(),
        _ => date(),
    }
}

/// Two messages are one group when one author posted them on the same day
/// within five minutes of each other.
pub fn same_group(previous_at: u64, at: u64, offset_ms: i64) -> bool {
    at.abs_diff(previous_at) < 5 * MINUTE
        && local_day(previous_at, offset_ms) == local_day(at, offset_ms)
}

/// The browser's clock: the time now (a signal ticking each half minute, so
/// relative labels age) and local formatting.
#[derive(Clone, Copy)]
pub struct Clock {
    /// Milliseconds since the epoch, updated every 30 s.
    pub now: RwSignal<u64>,
}

impl Clock {
    /// A clock that ticks while the workspace is open.
    pub fn start() -> Self {
        let now = RwSignal::new(now_ms());
        let clock = Self { now };
        let tick = gloo_timers::callback::Interval::new(30_000, move || {
            let _ = now.try_set(now_ms());
        });
        // Stopped when the workspace goes (the app is single-threaded: a local value).
        let tick = StoredValue::new_local(Some(tick));
        on_cleanup(move || {
            let _ = tick.try_set_value(None);
        });
        clock
    }

    /// The local zone's offset east of UTC, in milliseconds.
    pub fn offset_ms() -> i64 {
        // getTimezoneOffset is minutes *west* of UTC.
        let minutes = js_sys::Date::new_0().get_timezone_offset();
        (-minutes * 60_000.0) as i64
    }

    /// `at` as an ISO 8601 date and time (a `<time datetime>`).
    pub fn iso(at: u64) -> String {
        js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at as f64))
            .to_iso_string()
            .as_string()
            .unwrap_or_default()
    }

    /// `at` as the browser writes a date and time in full (the hover title).
    pub fn exact(at: u64) -> String {
        Self::locale(at, true, true)
    }

    /// `at` as a clock time ("14:05" or "2:05 PM", as the browser's locale writes it).
    pub fn clock_time(at: u64) -> String {
        Self::locale(at, false, true)
    }

    /// The date of `at` in words ("Monday, 23 November 2026").
    pub fn date(at: u64) -> String {
        Self::locale(at, true, false)
    }

    fn locale(at: u64, date: bool, time: bool) -> String {
        let when = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at as f64));
        formatter(date, time)
            .and_then(|format| format.call1(&wasm_bindgen::JsValue::NULL, &when).ok())
            .and_then(|text| text.as_string())
            .unwrap_or_default()
    }

    /// The label a message shows: relative within the hour, else its clock time.
    pub fn label(&self, at: u64) -> String {
        relative(self.now.get(), at).unwrap_or_else(|| Self::clock_time(at))
    }

    /// The separator's label for the day of `at`.
    pub fn day(&self, at: u64) -> String {
        let offset = Self::offset_ms();
        day_label(
            local_day(at, offset),
            local_day(self.now.get_untracked(), offset),
            || Self::date(at),
        )
    }
}

/// The browser's `Intl.DateTimeFormat(…).format` for a date, a time or
/// both, made once (a formatter is slow to make, and a list formats many times).
fn formatter(date: bool, time: bool) -> Option<js_sys::Function> {
    use wasm_bindgen::{JsCast, JsValue};
    type Cache = std::cell::RefCell<Vec<((bool, bool), js_sys::Function)>>;
    thread_local! {
        static MADE: Cache = const { std::cell::RefCell::new(Vec::new()) };
    }
    if let Some(made) = MADE.with(|m| {
        m.borrow()
            .iter()
            .find(|(kind, _)| *kind == (date, time))
            .map(|(_, f)| f.clone())
    }) {
        return Some(made);
    }
    let options = js_sys::Object::new();
    let set = |key: &str, value: &str| {
        let _ = js_sys::Reflect::set(&options, &key.into(), &value.into());
    };
    if date {
        set("weekday", "long");
        set("year", "numeric");
        set("month", "long");
        set("day", "numeric");
    }
    if time {
        set("hour", "numeric");
        set("minute", "2-digit");
    }
    let intl = js_sys::Reflect::get(&js_sys::global(), &"Intl".into()).ok()?;
    let make: js_sys::Function = js_sys::Reflect::get(&intl, &"DateTimeFormat".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let args = js_sys::Array::new();
    args.push(&JsValue::UNDEFINED);
    args.push(&options);
    let made = js_sys::Reflect::construct(&make, &args).ok()?;
    let format: js_sys::Function = js_sys::Reflect::get(&made, &"format".into())
        .ok()?
        .dyn_into()
        .ok()?;
    MADE.with(|m| m.borrow_mut().push(((date, time), format.clone())));
    Some(format)
}

/// The time now, in milliseconds since the epoch.
pub fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_times_read_relative_and_older_ones_do_not() {
        let now = 1_800_000_000_000;
        assert_eq!(relative(now, now - 5_000).as_deref(), Some("just now"));
        assert_eq!(
            relative(now, now - 5 * MINUTE).as_deref(),
            Some("5 min ago")
        );
        assert_eq!(
            relative(now, now - 59 * MINUTE).as_deref(),
            Some("59 min ago")
        );
        assert_eq!(relative(now, now - HOUR), None);
        // A clock ahead of ours (another device) reads as now, never negative.
        assert_eq!(relative(now, now + 10_000).as_deref(), Some("just now"));
    }

    #[test]
    fn days_are_local_and_named_from_today() {
        let noon_utc = 1_800_000_000_000 - 1_800_000_000_000 % (DAY as u64) + 12 * HOUR;
        let day = local_day(noon_utc, 0);
        // 13 hours east, noon UTC is already tomorrow.
        assert_eq!(local_day(noon_utc, 13 * HOUR as i64), day + 1);
        assert_eq!(local_day(noon_utc, -13 * HOUR as i64), day - 1);
        assert_eq!(day_label(day, day, || "x".into()), "Today");
        assert_eq!(day_label(day - 1, day, || "x".into()), "Yesterday");
        assert_eq!(day_label(day - 2, day, || "a date".into()), "a date");
    }

    #[test]
    fn a_group_is_one_day_and_five_minutes() {
        let midnight = 1_800_000_000_000 - 1_800_000_000_000 % (DAY as u64);
        assert!(same_group(midnight + HOUR, midnight + HOUR + 4 * MINUTE, 0));
        assert!(!same_group(
            midnight + HOUR,
            midnight + HOUR + 5 * MINUTE,
            0
        ));
        // Across midnight: two days, two groups.
        assert!(!same_group(midnight - MINUTE, midnight + MINUTE, 0));
    }
}
