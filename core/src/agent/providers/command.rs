//! A command-line program as the model: Claude Code `-p`, Codex `exec`,
//! Gemini `-p`, a shell script — anything that takes a prompt and prints an
//! answer.
//!
//! The request is `{"prompt": "…"}`: the persona, the conversation as a
//! transcript and what to do. The host runs the program
//! ([`AgentConfig::command`](crate::agent::config::AgentConfig::command)),
//! `{prompt}` in it replaced by the prompt as one argument or the prompt on
//! its stdin, and reports its stdout as a whole body with status 200 when it
//! exits 0, else its stderr with status 500. The program calls the network's
//! tools itself, over MCP, where it supports that; the loop offers it none.

use crate::agent::chat::{Entry, Prompt, ProviderError, Reply, Stop, Usage};
use serde_json::{Value, json};

/// The most characters of a failed command's output repeated in the conversation.
const MAX_FAILURE: usize = 300;

/// The prompt for `prompt`: persona, transcript, instruction.
pub fn request_body(prompt: &Prompt<'_>) -> Value {
    let mut text = String::new();
    if !prompt.system.trim().is_empty() {
        text.push_str(prompt.system.trim());
        text.push_str("\n\n");
    }
    text.push_str("You are a member of a chat conversation. The conversation so far:\n\n");
    for entry in prompt.entries {
        match entry {
            Entry::User { text: said } => text.push_str(said),
            Entry::Assistant { text: said, .. } => {
                text.push_str("you: ");
                text.push_str(said);
            }
            Entry::ToolResult { .. } => continue,
        }
        text.push('\n');
    }
    text.push_str("\nWrite your answer to the last message. Print only the answer.\n");
    json!({ "prompt": text })
}

/// The program's output: its answer when it exited 0 (status 2xx), else why it failed.
pub fn parse(status: u16, body: &str) -> Result<Reply, ProviderError> {
    if !(200..300).contains(&status) {
        let tail: String = body.trim().chars().rev().take(MAX_FAILURE).collect();
        let tail: String = tail.chars().rev().collect();
        return Err(ProviderError::CommandFailed(if tail.is_empty() {
            format!("exit status {status}")
        } else {
            tail
        }));
    }
    Ok(Reply {
        text: body.trim().to_owned(),
        tool_calls: Vec::new(),
        usage: Usage::default(),
        stop: Stop::Done,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_is_a_transcript_with_the_persona_first() {
        let entries = vec![
            Entry::User {
                text: "human:ann: what is 2+2?".into(),
            },
            Entry::Assistant {
                text: "4".into(),
                tool_calls: Vec::new(),
            },
            Entry::User {
                text: "human:ann: and 3+3?".into(),
            },
        ];
        let prompt = Prompt {
            model: "",
            system: "You are Coder.",
            entries: &entries,
            tools: &[],
            max_tokens: 10,
            stream: false,
        };
        let body = request_body(&prompt);
        let text = body["prompt"].as_str().unwrap();
        assert!(text.starts_with("You are Coder.\n\n"));
        let ann = text.find("human:ann: what is 2+2?").unwrap();
        let mine = text.find("you: 4").unwrap();
        let last = text.find("human:ann: and 3+3?").unwrap();
        assert!(ann < mine && mine < last);
        assert!(text.ends_with("Print only the answer.\n"));
    }

    #[test]
    fn output_is_the_answer_and_a_failure_says_why() {
        assert_eq!(parse(200, "  6\n").unwrap().text, "6");
        let failed = parse(500, &format!("{}\nerror: not logged in", "x".repeat(900))).unwrap_err();
        let said = failed.to_string();
        assert!(said.ends_with("error: not logged in"), "{said}");
        assert!(said.len() < 400, "the tail only");
        assert_eq!(
            parse(500, "").unwrap_err().to_string(),
            "the command failed: exit status 500"
        );
    }
}
