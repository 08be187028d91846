//! User Timing measures of the workspace's long tasks (DevTools shows them
//! in the Performance panel; `tests/bench/documents.mjs` reads them).

/// Runs `task` and records how long it took as the measure `name`.
pub fn measured<T>(name: &str, task: impl FnOnce() -> T) -> T {
    let performance = web_sys::window().and_then(|w| w.performance());
    let start = format!("{name} (start)");
    if let Some(p) = &performance {
        let _ = p.mark(&start);
    }
    let result = task();
    if let Some(p) = &performance {
        let _ = p.measure_with_start_mark(name, &start);
        p.clear_marks_with_mark_name(&start);
    }
    result
}
