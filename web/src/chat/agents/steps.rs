//! The tools an agent used for an answer (`payload.steps`: `[{tool,
//! arguments, ok, result}]`), shown under it as a disclosure, collapsed at
//! first ("Used search", "Used 2 tools"), that opens to each step: the
//! tool, its arguments as compact JSON, its outcome and its result. Reading
//! the payload is pure; a step that does not read is left out.

use leptos::prelude::*;
use serde_json::Value;

/// Most steps kept of one answer.
const MOST_STEPS: usize = 32;
/// Longest result kept (the agent sends at most this much).
const RESULT_CHARS: usize = 500;
/// Longest arguments text kept.
const ARGUMENTS_CHARS: usize = 1_000;

/// One tool call of an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The tool's name.
    pub tool: String,
    /// Its arguments, as compact JSON.
    pub arguments: String,
    /// It succeeded.
    pub ok: bool,
    /// What it returned (or why it failed).
    pub result: String,
}

/// `text` cut to `most` characters, marked with "…" when cut.
fn cut(text: &str, most: usize) -> String {
    let mut kept: String = text.chars().take(most).collect();
    if text.chars().nth(most).is_some() {
        kept.push('…');
    }
    kept
}

/// The steps in an answer's payload: each with a tool name and an `ok`
/// that is true or false; anything else is left out.
pub fn read(payload: &Value) -> Vec<Step> {
    let Some(steps) = payload.get("steps").and_then(Value::as_array) else {
        return Vec::new();
    };
    steps
        .iter()
        .filter_map(|step| {
            let tool = step.get("tool")?.as_str()?.trim();
            let ok = step.get("ok")?.as_bool()?;
            if tool.is_empty() {
                return None;
            }
            let arguments = match step.get("arguments") {
                None | Some(Value::Null) => "{}".to_owned(),
                Some(arguments) => arguments.to_string(),
            };
            let result = match step.get("result") {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(text)) => text.clone(),
                Some(other) => other.to_string(),
            };
            Some(Step {
                tool: cut(tool, 100),
                arguments: cut(&arguments, ARGUMENTS_CHARS),
                ok,
                result: cut(&result, RESULT_CHARS),
            })
        })
        .take(MOST_STEPS)
        .collect()
}

/// What the closed disclosure says: "Used search", "Used search 3 times",
/// "Used 2 tools", and how many failed.
pub fn summary(steps: &[Step]) -> String {
    let mut tools: Vec<&str> = Vec::new();
    for step in steps {
        if !tools.contains(&step.tool.as_str()) {
            tools.push(&step.tool);
        }
    }
    let used = match (tools.as_slice(), steps.len()) {
        ([tool], 1) => format!("Used {tool}"),
        ([tool], n) => format!("Used {tool} {n} times"),
        (tools, _) => format!("Used {} tools", tools.len()),
    };
    match steps.iter().filter(|s| !s.ok).count() {
        0 => used,
        _ if steps.len() == 1 => format!("{used} (failed)"),
        failed => format!("{used}, {failed} failed"),
    }
}

/// An answer's steps, collapsed under it until opened.
#[component]
pub fn Steps(
    /// The steps (the component is empty without any).
    steps: Vec<Step>,
) -> impl IntoView {
    if steps.is_empty() {
        return ().into_any();
    }
    let label = summary(&steps);
    view! {
        <details class="steps">
            <summary>{label}</summary>
            <ol class="step-list">
                {steps.into_iter().map(|step| view! {
                    <li class="step" data-ok=step.ok.to_string()>
                        <p class="step-head">
                            <code class="step-tool">{step.tool}</code>
                            <span class="step-outcome">{if step.ok { "✓ ok" } else { "✗ failed" }}</span>
                        </p>
                        <dl>
                            <dt>"Arguments"</dt>
                            <dd><code class="step-arguments">{step.arguments}</code></dd>
                            {(!step.result.is_empty()).then(|| view! {
                                <dt>"Result"</dt>
                                <dd class="step-result">{step.result}</dd>
                            })}
                        </dl>
                    </li>
                }).collect_view()}
            </ol>
        </details>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn steps_read_with_compact_arguments_and_bad_ones_left_out() {
        let payload = json!({"content": "42", "steps": [
            {"tool": "search", "arguments": {"q": "answer", "n": 2}, "ok": true, "result": "found it"},
            {"tool": "fetch", "ok": false, "result": "timeout"},
            {"tool": "", "ok": true},
            {"tool": "no outcome"},
            {"tool": 3, "ok": true},
            {"tool": "odd", "ok": "yes"},
            "not a step",
            {"tool": "big", "ok": true, "result": "x".repeat(600), "arguments": [1]},
        ]});
        let steps = read(&payload);
        assert_eq!(steps.len(), 3, "{steps:?}");
        assert_eq!(steps[0].arguments, r#"{"n":2,"q":"answer"}"#);
        assert_eq!((steps[1].arguments.as_str(), steps[1].ok), ("{}", false));
        assert_eq!(steps[2].result.chars().count(), RESULT_CHARS + 1);
        assert_eq!(steps[2].arguments, "[1]");
        assert!(read(&json!({"content": "no steps"})).is_empty());
        assert!(read(&json!({"steps": {"tool": "x"}})).is_empty());
        let many: Vec<Value> = (0..50).map(|_| json!({"tool": "t", "ok": true})).collect();
        assert_eq!(read(&json!({ "steps": many })).len(), MOST_STEPS);
    }

    #[test]
    fn the_summary_names_one_tool_or_counts_them() {
        let step = |tool: &str, ok: bool| Step {
            tool: tool.into(),
            arguments: "{}".into(),
            ok,
            result: String::new(),
        };
        assert_eq!(summary(&[step("search", true)]), "Used search");
        assert_eq!(summary(&[step("search", false)]), "Used search (failed)");
        assert_eq!(
            summary(&[step("search", true), step("search", true)]),
            "Used search 2 times"
        );
        assert_eq!(
            summary(&[
                step("search", true),
                step("fetch", false),
                step("search", false)
            ]),
            "Used 2 tools, 2 failed"
        );
    }
}
