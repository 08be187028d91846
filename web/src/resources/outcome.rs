//! A tool's latest outcome under its form: "Working…", the result as people
//! read it ([`super::shown`]: text, a table of records, or pretty JSON in a
//! `<details>` that folds), or the error in words, with "Share in the
//! conversation" putting a result in the composer as Markdown (a table, a
//! code block) for the person to send. One outcome at a time: the next
//! replaces it.

use super::forms::Outcome;
use super::shown::{Shown, as_markdown, shown};
use leptos::prelude::*;

/// The outcome box of one tool.
#[component]
pub fn OutcomeView(
    /// What became of the tool's latest invocation, if any.
    outcome: Signal<Option<Outcome>>,
    /// The tool's address (names the result table).
    tool: String,
) -> impl IntoView {
    let tool = StoredValue::new(tool);
    let (chat, sheets) = (crate::chat::state::Chat::get(), crate::frame::Sheets::get());
    move || {
        outcome.get().map(|o| match o {
            Outcome::Waiting => {
                view! { <div class="outcome" role="status">"Working…"</div> }.into_any()
            }
            Outcome::Error(message) => problem_view("The tool could not do it", message),
            Outcome::Form(message) => problem_view("Nothing was sent", message),
            Outcome::Result(output) => {
                let result = shown(&output);
                let message = as_markdown(&result, &tool.get_value());
                let share = move |_| {
                    chat.share_in_composer(&message);
                    // On a phone the panel is a sheet over the composer.
                    sheets.close();
                };
                view! {
                    <div class="outcome result" role="status">
                        <span class="outcome-label">"Result"</span>
                        {result_view(result, tool.get_value())}
                        <button type="button" class="share-result" on:click=share>"Share in the conversation"</button>
                    </div>
                }
                .into_any()
            }
        })
    }
}

/// A problem under its label: the tool's error, or why the form sent nothing.
fn problem_view(label: &'static str, message: String) -> AnyView {
    view! {
        <div class="outcome error" role="alert">
            <span class="outcome-label">{label}</span>
            <p>{message}</p>
        </div>
    }
    .into_any()
}

/// The view of one shown result.
fn result_view(result: Shown, tool: String) -> AnyView {
    match result {
        Shown::Text(text) => view! { <p class="result-text">{text}</p> }.into_any(),
        Shown::Json { summary, pretty } => view! {
            <details class="result-json" open>
                <summary>{format!("JSON · {summary}")}</summary>
                <pre><code>{pretty}</code></pre>
            </details>
        }
        .into_any(),
        Shown::Table {
            columns,
            rows,
            more,
        } => {
            let caption = format!(
                "{} {} from {tool}",
                rows.len() + more,
                if rows.len() + more == 1 {
                    "record"
                } else {
                    "records"
                }
            );
            view! {
                <div class="result-table" tabindex="0" role="region" aria-label=caption.clone()>
                    <table>
                        <caption>{caption.clone()}</caption>
                        <thead><tr>
                            {columns.into_iter().map(|c| view! { <th scope="col">{c}</th> }).collect_view()}
                        </tr></thead>
                        <tbody>
                            {rows.into_iter().map(|row| view! {
                                <tr>{row.into_iter().map(|cell| view! { <td>{cell}</td> }).collect_view()}</tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    {(more > 0).then(|| view! { <p class="details">{format!("and {more} more not shown")}</p> })}
                </div>
            }
            .into_any()
        }
    }
}
