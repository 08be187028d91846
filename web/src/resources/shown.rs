//! A tool's result as people read it: text as text, an array of records
//! (objects) as a table, anything else structured as pretty JSON (shown
//! collapsible by [`super::outcome`]).

use serde_json::{Map, Value};

/// Most rows a result table shows (the rest are counted).
pub const MAX_ROWS: usize = 100;
/// Most columns a result table shows; wider records read better as JSON.
pub const MAX_COLUMNS: usize = 12;

/// How a result is shown.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// Plain words (a string, a number, `true`, nothing).
    Text(String),
    /// Records: the columns (every key, in order of first appearance), the
    /// rows' cells, and how many rows were left out.
    Table {
        /// Column names.
        columns: Vec<String>,
        /// One cell text per column, per row.
        rows: Vec<Vec<String>>,
        /// Rows not shown.
        more: usize,
    },
    /// Structured data: a short summary and the pretty-printed JSON.
    Json {
        /// "3 fields", "5 items".
        summary: String,
        /// Indented JSON text.
        pretty: String,
    },
}

/// How `output` is shown. A lone `{text}` or `{result}` of plain value reads as that value.
pub fn shown(output: &Value) -> Shown {
    if let Some(plain) = plain_text(output) {
        return Shown::Text(plain);
    }
    if let Some(single) = output.as_object().and_then(lone_plain)
        && let Some(plain) = plain_text(single)
    {
        return Shown::Text(plain);
    }
    if let Some(table) = table_of(output) {
        return table;
    }
    let summary = match output {
        Value::Object(fields) => count(fields.len(), "field"),
        Value::Array(items) => count(items.len(), "item"),
        _ => String::new(),
    };
    Shown::Json {
        summary,
        pretty: serde_json::to_string_pretty(output).unwrap_or_default(),
    }
}

/// `n thing(s)`.
fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// The words of a plain value; none for objects and arrays.
fn plain_text(value: &Value) -> Option<String> {
    match value {
        Value::Null => Some("(nothing)".to_owned()),
        Value::String(text) => Some(text.clone()),
        Value::Bool(b) => Some(if *b { "yes" } else { "no" }.to_owned()),
        Value::Number(n) => Some(n.to_string()),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// The value of an object of one field named `text` or `result`.
fn lone_plain(fields: &Map<String, Value>) -> Option<&Value> {
    match fields.iter().next() {
        Some((key, value)) if fields.len() == 1 && (key == "text" || key == "result") => {
            Some(value)
        }
        _ => None,
    }
}

/// A table when `output` is a non-empty array of objects with few enough keys.
fn table_of(output: &Value) -> Option<Shown> {
    let items = output.as_array().filter(|items| !items.is_empty())?;
    let records: Vec<&Map<String, Value>> =
        items.iter().map(Value::as_object).collect::<Option<_>>()?;
    let mut columns: Vec<String> = Vec::new();
    for record in &records {
        for key in record.keys() {
            if !columns.contains(key) {
                columns.push(key.clone());
            }
        }
    }
    if columns.is_empty() || columns.len() > MAX_COLUMNS {
        return None;
    }
    let rows = records
        .iter()
        .take(MAX_ROWS)
        .map(|record| {
            columns
                .iter()
                .map(|column| match record.get(column) {
                    None => String::new(),
                    Some(value) => plain_text(value).unwrap_or_else(|| value.to_string()),
                })
                .collect()
        })
        .collect();
    Some(Shown::Table {
        columns,
        rows,
        more: records.len().saturating_sub(MAX_ROWS),
    })
}

/// `result` of `tool` as a message people read in the conversation: the
/// words, the records as a pipe table in a code block (messages render no
/// Markdown tables), or the JSON in a code block.
pub fn as_markdown(result: &Shown, tool: &str) -> String {
    let heading = format!("Result of `{tool}`:");
    match result {
        Shown::Text(text) => format!("{heading} {text}"),
        Shown::Json { pretty, .. } => format!("{heading}\n\n```json\n{pretty}\n```"),
        Shown::Table {
            columns,
            rows,
            more,
        } => {
            let cell = |text: &str| text.replace(['\n', '\r'], " ").replace("```", "'''");
            let header: Vec<String> = columns.iter().map(|c| cell(c)).collect();
            let body: Vec<Vec<String>> = rows
                .iter()
                .map(|row| row.iter().map(|c| cell(c)).collect())
                .collect();
            // Each column as wide as its widest cell, so the table lines up in monospace.
            let widths: Vec<usize> = (0..header.len())
                .map(|i| {
                    std::iter::once(&header)
                        .chain(&body)
                        .filter_map(|r| r.get(i))
                        .map(|c| c.chars().count())
                        .max()
                        .unwrap_or(0)
                        .max(3)
                })
                .collect();
            let line = |cells: &[String]| {
                let padded: Vec<String> = widths
                    .iter()
                    .enumerate()
                    .map(|(i, w)| {
                        let c = cells.get(i).map_or("", String::as_str);
                        format!("{c}{}", " ".repeat(w - c.chars().count().min(*w)))
                    })
                    .collect();
                format!("| {} |", padded.join(" | "))
            };
            let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            let mut lines = vec![
                heading,
                String::new(),
                "```".to_owned(),
                line(&header),
                line(&rule),
            ];
            lines.extend(body.iter().map(|row| line(row)));
            lines.push("```".to_owned());
            if *more > 0 {
                lines.push(String::new());
                lines.push(format!("and {more} more not shown"));
            }
            lines.join("\n")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_becomes_a_message_people_read() {
        assert_eq!(
            as_markdown(&Shown::Text("14 °C".into()), "resource/tool/weather"),
            "Result of `resource/tool/weather`: 14 °C"
        );
        let table = Shown::Table {
            columns: vec!["city".into(), "note".into()],
            rows: vec![vec!["Oslo".into(), "a|b\nc".into()]],
            more: 2,
        };
        assert_eq!(
            as_markdown(&table, "t"),
            "Result of `t`:\n\n```\n| city | note  |\n| ---- | ----- |\n| Oslo | a|b c |\n```\n\nand 2 more not shown"
        );
        let json = Shown::Json {
            summary: "1 field".into(),
            pretty: "{\n  \"a\": 1\n}".into(),
        };
        assert_eq!(
            as_markdown(&json, "t"),
            "Result of `t`:\n\n```json\n{\n  \"a\": 1\n}\n```"
        );
    }
    use serde_json::json;

    #[test]
    fn plain_values_and_lone_results_read_as_words() {
        assert_eq!(
            shown(&json!("hello\nworld")),
            Shown::Text("hello\nworld".into())
        );
        assert_eq!(shown(&json!(42)), Shown::Text("42".into()));
        assert_eq!(shown(&json!({"result": 42})), Shown::Text("42".into()));
        assert_eq!(shown(&json!({"text": "done"})), Shown::Text("done".into()));
        assert_eq!(shown(&Value::Null), Shown::Text("(nothing)".into()));
        assert!(matches!(
            shown(&json!({"result": [1, 2]})),
            Shown::Json { .. }
        ));
    }

    #[test]
    fn records_become_a_table_with_every_column() {
        let rows =
            json!([{"name": "ann", "age": 31}, {"name": "bob", "city": "Oslo", "tags": ["a"]}]);
        assert_eq!(
            shown(&rows),
            Shown::Table {
                // Each record's keys as JSON objects keep them (sorted), new ones after.
                columns: vec!["age".into(), "name".into(), "city".into(), "tags".into()],
                rows: vec![
                    vec!["31".into(), "ann".into(), String::new(), String::new()],
                    vec![String::new(), "bob".into(), "Oslo".into(), "[\"a\"]".into()],
                ],
                more: 0,
            }
        );
        let many = Value::Array((0..150).map(|i| json!({"i": i})).collect());
        let Shown::Table { rows, more, .. } = shown(&many) else {
            panic!("a table");
        };
        assert_eq!((rows.len(), more), (MAX_ROWS, 50));
    }

    #[test]
    fn other_structures_are_pretty_json() {
        let Shown::Json { summary, pretty } = shown(&json!({"a": 1, "b": {"c": [1, 2]}})) else {
            panic!("json");
        };
        assert_eq!(summary, "2 fields");
        assert!(pretty.contains("\n  \"b\": {\n"), "{pretty}");
        // Mixed arrays and arrays of scalars are not tables.
        assert!(matches!(shown(&json!([{"a": 1}, 2])), Shown::Json { .. }));
        let Shown::Json { summary, .. } = shown(&json!([1, 2, 3])) else {
            panic!("json");
        };
        assert_eq!(summary, "3 items");
        let wide: Map<String, Value> = (0..20).map(|i| (format!("k{i}"), json!(i))).collect();
        assert!(matches!(shown(&json!([wide])), Shown::Json { .. }));
    }
}
