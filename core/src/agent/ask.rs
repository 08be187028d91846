//! The one tool the loop adds itself: `ask_user`, offered to the model in a
//! task's conversation so it can ask the person who gave the task a question
//! (the task becomes `input-required`) instead of guessing.

use crate::agent::chat::ToolDef;
use crate::agent::rules::Place;
use serde_json::{Value, json};

/// The name of the built-in question tool.
pub const ASK_USER: &str = "ask_user";

/// The longest question passed on, in characters.
const MAX_QUESTION: usize = 2000;

/// The tools offered in `place`: the network's, plus `ask_user` in a task.
/// A network tool of the same name is hidden there: the question wins.
pub fn offered_tools(tools: &[ToolDef], place: &Place) -> Vec<ToolDef> {
    if place.task.is_none() {
        return tools.to_vec();
    }
    let mut offered: Vec<ToolDef> = tools
        .iter()
        .filter(|t| t.name != ASK_USER)
        .cloned()
        .collect();
    offered.push(ToolDef {
        name: ASK_USER.to_owned(),
        description: "Ask the person who gave you this task a question and wait for the \
                      answer. Use it only when you cannot do the task without more information."
            .to_owned(),
        parameters: json!({
            "type": "object",
            "properties": {"question": {"type": "string", "description": "The question"}},
            "required": ["question"]
        }),
    });
    offered
}

/// The question in `ask_user`'s arguments (its `question`, else the arguments as JSON).
pub fn question_of(arguments: &Value) -> String {
    let text = match arguments.get("question") {
        Some(Value::String(q)) if !q.trim().is_empty() => q.trim().to_owned(),
        _ => arguments.to_string(),
    };
    text.chars().take(MAX_QUESTION).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::address::Address;

    fn tool(name: &str) -> ToolDef {
        ToolDef {
            name: name.into(),
            description: String::new(),
            parameters: json!({"type": "object"}),
        }
    }

    #[test]
    fn ask_user_is_offered_in_tasks_only() {
        let ann: Address = "human:ann".parse().unwrap();
        let tools = [tool("search"), tool(ASK_USER)];
        let chat = offered_tools(&tools, &Place::new(ann.clone(), None));
        assert_eq!(
            chat.len(),
            2,
            "a network tool called ask_user is a tool in chat"
        );
        let task = offered_tools(&tools, &Place::task(ann, "t1".into()));
        let names: Vec<&str> = task.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["search", ASK_USER]);
        assert!(task[1].description.starts_with("Ask the person"));
    }

    #[test]
    fn the_question_is_its_text_or_the_arguments() {
        assert_eq!(
            question_of(&json!({"question": " Which city? "})),
            "Which city?"
        );
        assert_eq!(question_of(&json!({"q": 1})), r#"{"q":1}"#);
        let long = question_of(&json!({"question": "x".repeat(5000)}));
        assert_eq!(long.chars().count(), MAX_QUESTION);
    }
}
