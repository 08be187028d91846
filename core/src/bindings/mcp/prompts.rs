//! Prompts: shared contexts named as skills, after the SKILL.md convention.
//!
//! A context named `{skill}.SKILL.md` (`resource/context/review.SKILL.md`;
//! the suffix in any case) is the prompt `{skill}`. Its text is a SKILL.md:
//! optional YAML front matter between `---` lines whose `description:`
//! describes the skill, then the instructions. `prompts/list` lists the
//! skills the member may read (described by their registration, else by
//! their front matter when read); `prompts/get` reads the context as the
//! member and answers its instructions as one user message.

use super::caller::MethodCall;
use super::resources::{Text, read_text};
use super::results::complete;
use super::waiting::{Reply, or_reply};
use crate::Address;
use crate::bindings::exchange::BindingHost;
use crate::bindings::jsonrpc::{RpcError, string_param};
use crate::bindings::member::refusal;
use crate::ids::address::Entity;
use serde_json::{Map, Value, json};

/// What a context's name ends with when it is a skill.
pub const SKILL_SUFFIX: &str = ".skill.md";

/// The skill a context is, if it is one: `resource/context/review.SKILL.md` → `review`.
pub fn skill_of(address: &Address) -> Option<&str> {
    let Entity::Context(name) = address.entity() else {
        return None;
    };
    let name = name.as_str();
    let cut = name.len().checked_sub(SKILL_SUFFIX.len())?;
    let (skill, suffix) = (name.get(..cut)?, name.get(cut..)?);
    (suffix.eq_ignore_ascii_case(SKILL_SUFFIX) && !skill.is_empty()).then_some(skill)
}

/// A SKILL.md split into its front matter's `description` and its instructions.
pub fn parse_skill(text: &str) -> (Option<String>, String) {
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return (None, text.trim().to_owned());
    };
    let Some((front, body)) = rest.split_once("\n---") else {
        return (None, text.trim().to_owned());
    };
    let description = front.lines().find_map(|line| {
        let value = line.strip_prefix("description:")?.trim();
        Some(value.trim_matches(|c| c == '"' || c == '\'').to_owned())
    });
    let body = body.split_once('\n').map_or("", |(_, after)| after);
    (
        description.filter(|d| !d.is_empty()),
        body.trim().to_owned(),
    )
}

/// `prompts/list`.
pub fn list<H: BindingHost>(call: MethodCall<'_, H>) -> Result<Reply, H::Error> {
    call.list(Some("context"), "prompts", |_, caller, found| {
        found
            .iter()
            .filter_map(|r| {
                let address: Address = r["address"].as_str()?.parse().ok()?;
                let skill = skill_of(&address)?;
                let mut prompt = json!({"name": skill});
                if let Some(description) = r["description"].as_str().filter(|d| !d.is_empty()) {
                    prompt["description"] = json!(description);
                }
                if caller.revision.has_titles_and_structure() {
                    prompt["title"] = json!(address.to_string());
                }
                Some(prompt)
            })
            .collect()
    })
}

/// `prompts/get`.
pub fn get<H: BindingHost>(
    call: MethodCall<'_, H>,
    params: &Map<String, Value>,
) -> Result<Reply, H::Error> {
    let name = or_reply!(string_param(params, "name"));
    let address = call
        .network
        .state()
        .resources
        .keys()
        .find(|a| skill_of(a) == Some(name))
        .cloned();
    let Some(address) = address else {
        return Ok(Reply::Error(RpcError::invalid_params(format!(
            "Unknown prompt: {name}"
        ))));
    };
    Ok(
        match read_text(call.host, call.network, call.caller.member, &address)? {
            Ok(Text {
                text,
                description: registered,
                ..
            }) => {
                let (front, body) = parse_skill(&text);
                let description = Some(registered).filter(|d| !d.is_empty()).or(front);
                let mut result = json!({"messages": [{"role": "user", "content": {"type": "text", "text": body}}]});
                if let Some(description) = description {
                    result["description"] = json!(description);
                }
                Reply::Result(complete(call.caller.revision, result))
            }
            Err(rejection) => Reply::Error(refusal(&rejection)),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts_named_as_skills_are_prompts() {
        let skill = |a: &str| skill_of(&a.parse().unwrap()).map(str::to_owned);
        assert_eq!(
            skill("resource/context/review.SKILL.md").as_deref(),
            Some("review")
        );
        assert_eq!(
            skill("resource/context/review.skill.md").as_deref(),
            Some("review")
        );
        assert_eq!(skill("resource/context/brief"), None);
        assert_eq!(skill("resource/context/.SKILL.md"), None);
        assert_eq!(skill("resource/file/review.SKILL.md"), None);
    }

    #[test]
    fn a_skill_md_splits_into_description_and_instructions() {
        let text = "---\nname: review\ndescription: \"Reviews a change\"\n---\n\n# Review\nRead the diff.\n";
        assert_eq!(
            parse_skill(text),
            (
                Some("Reviews a change".into()),
                "# Review\nRead the diff.".into()
            )
        );
        assert_eq!(parse_skill("Just do it."), (None, "Just do it.".into()));
        assert_eq!(
            parse_skill("---\nunterminated"),
            (None, "---\nunterminated".into())
        );
    }
}
