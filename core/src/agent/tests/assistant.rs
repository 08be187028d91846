//! The personal assistant driven by a scripted provider: a person's request
//! planned, agents found, parts handed out as tasks, a task's question put
//! to the person and answered, and one answer listing every task.

use super::*;
use crate::Timestamp;
use crate::agent::assistant::ASSISTANT_PROMPT;
use crate::agent::effects::{DelegationUpdate, Progress};
use std::collections::BTreeMap;

/// An OpenAI answer calling each `(call id, tool, arguments)` in one message.
fn openai_calls(calls: &[(&str, &str, Value)]) -> String {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| {
            json!({"id": id, "type": "function",
                "function": {"name": name, "arguments": args.to_string()}})
        })
        .collect();
    json!({"id": "chatcmpl-2", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null,
            "message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": calls}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
    .to_string()
}

fn openai_call(id: &str, name: &str, args: Value) -> String {
    openai_calls(&[(id, name, args)])
}

/// An OpenAI text answer.
fn openai_text(text: &str) -> String {
    json!({"id": "chatcmpl-3", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null,
            "message": {"role": "assistant", "content": text, "refusal": null, "annotations": []}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
    .to_string()
}

/// An assistant Ann has sent `text` as her first message, and its model call.
fn asked_first(text: &str) -> (Agent, RequestId) {
    let mut agent = assistant();
    let request = ask(&mut agent, 1, text);
    (agent, request)
}

fn assistant() -> Agent {
    let mut agent = Agent::new(config_with(
        "agent:helper",
        json!({"mode": "assistant", "tools": [], "system_prompt": "You work for Ann."}),
    ));
    agent.set_tools(Vec::new());
    agent
}

/// The last message the model was sent.
fn last_message(body: &Value) -> Value {
    body["messages"].as_array().unwrap().last().unwrap().clone()
}

fn progress(effects: &[AgentEffect]) -> Vec<(String, Progress)> {
    effects
        .iter()
        .filter_map(|e| match e {
            AgentEffect::Progress {
                content, progress, ..
            } => Some((content.clone(), progress.clone())),
            _ => None,
        })
        .collect()
}

/// The call id of the one effect `pick` finds.
fn call_of(effects: &[AgentEffect], pick: fn(&AgentEffect) -> Option<String>) -> String {
    effects
        .iter()
        .find_map(pick)
        .unwrap_or_else(|| panic!("not in {effects:?}"))
}

fn delegate_id(e: &AgentEffect) -> Option<String> {
    match e {
        AgentEffect::Delegate { call_id, .. } => Some(call_id.clone()),
        _ => None,
    }
}

fn started(task: &str) -> DelegationUpdate {
    DelegationUpdate::Started {
        task: task.into(),
        url: Some(format!("https://edge.example/n/demo/tasks/{task}")),
    }
}

fn finished(state: &str, text: &str) -> DelegationUpdate {
    DelegationUpdate::Finished {
        state: state.into(),
        text: text.into(),
    }
}

/// Has the assistant hand `instructions` to `to` (the model's call `n`): the delegation's id.
fn delegate(agent: &mut Agent, request: RequestId, n: u32, to: &str, instructions: &str) -> String {
    let call = openai_call(
        &format!("call_d{n}"),
        "delegate",
        json!({"to": to, "instructions": instructions}),
    );
    let effects = whole(agent, request, &call);
    assert!(model_call_of(&effects).is_none(), "it waits for the task");
    call_of(&effects, delegate_id)
}

fn model_call_of(effects: &[AgentEffect]) -> Option<(RequestId, Value)> {
    effects.iter().find_map(|e| match e {
        AgentEffect::CallModel { request, body, .. } => {
            Some((*request, serde_json::from_str(body).unwrap()))
        }
        _ => None,
    })
}

#[test]
fn an_assistant_plans_finds_delegates_relays_a_question_and_answers_once() {
    let mut agent = assistant();
    let (request, body) =
        model_call(&agent.handle_event(&dm(1, "book a table and tell Ann"), Timestamp::from(NOW)));
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(system.starts_with("You work for Ann.") && system.ends_with(ASSISTANT_PROMPT));
    let offered = offered_tools(&body);
    assert_eq!(offered, ["plan", "find_agents", "delegate"]);

    // The plan is posted where the answer will go, and the model goes on at once.
    let steps = json!({"steps": ["Book a table", "Tell Ann about it"]});
    let effects = whole(&mut agent, request, &openai_call("call_p", "plan", steps));
    let plan = progress(&effects);
    assert_eq!(
        plan[0].1,
        Progress::Plan {
            steps: vec!["Book a table".into(), "Tell Ann about it".into()]
        }
    );
    assert_eq!(plan[0].0, "**Plan**\n1. Book a table\n2. Tell Ann about it");
    let shown = serde_json::to_value(&effects[0]).unwrap();
    assert_eq!(
        (shown["effect"].as_str(), shown["progress"]["kind"].as_str()),
        (Some("progress"), Some("plan"))
    );
    let (request, _) = model_call(&effects);

    // Finding agents: the host's discovery answer becomes the candidates, without the assistant.
    let find = openai_call(
        "call_f",
        "find_agents",
        json!({"query": "restaurant booking"}),
    );
    let effects = whole(&mut agent, request, &find);
    let Some(AgentEffect::FindAgents { call_id, query, .. }) = effects
        .iter()
        .find(|e| matches!(e, AgentEffect::FindAgents { .. }))
    else {
        panic!("no search in {effects:?}")
    };
    assert_eq!(query, "restaurant booking");
    let found = json!({"agents": [
        {"id": "agent:booker", "kind": "member", "address": "agent:booker", "name": "booker",
         "description": "Books restaurants", "score": 10, "endpoints": [{"url": "https://x"}],
         "skills": [{"id": "booking", "name": "restaurant booking", "tags": ["restaurant"]}], "tools": []},
        {"id": "agent:helper", "kind": "member", "address": "agent:helper", "name": "helper", "skills": []},
        {"id": "aic-1", "kind": "registered", "address": "agent:chef", "network": "paris", "name": "Chef",
         "skills": [], "tools": []}],
        "from_network": 2, "from_registry": 1, "registry": "ok"});
    let (request, body) =
        model_call(&agent.handle_tool_result(call_id, Ok(found), Timestamp::from(NOW)));
    let candidates: Value =
        serde_json::from_str(last_message(&body)["content"].as_str().unwrap()).unwrap();
    let addresses: Vec<&str> = candidates["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["address"].as_str().unwrap())
        .collect();
    assert_eq!(addresses, ["agent:booker", "agent:chef"], "not itself");
    assert_eq!(
        candidates["agents"][0]["skills"][0]["name"],
        "restaurant booking"
    );
    assert_eq!(candidates["agents"][1]["network"], "paris");
    assert!(
        candidates["agents"][0].get("endpoints").is_none(),
        "only what helps choose"
    );

    // The first part is handed out; its question goes to the person in the DM.
    let book = delegate(
        &mut agent,
        request,
        1,
        "agent:booker",
        "Book a table for tonight at 19:30",
    );
    let effects = agent.handle_delegation(&book, started("task-book-01"), Timestamp::from(NOW));
    let posted = progress(&effects);
    assert!(
        matches!(&posted[0].1, Progress::Delegated { to, task, url: Some(_) }
        if to.to_string() == "agent:booker" && task == "task-book-01")
    );
    assert!(
        posted[0]
            .0
            .contains("(https://edge.example/n/demo/tasks/task-book-01)")
    );
    let effects = agent.handle_delegation(
        &book,
        DelegationUpdate::InputRequired {
            question: "For how many people?".into(),
        },
        Timestamp::from(NOW),
    );
    let Some(AgentEffect::Progress {
        conversation,
        content,
        progress: Progress::Question { from, task },
        answers,
    }) = effects.first()
    else {
        panic!("no question in {effects:?}")
    };
    assert_eq!(conversation, &Place::new(addr("human:ann"), None));
    assert!(content.contains("For how many people?") && content.contains("agent:booker"));
    assert_eq!(
        (from.to_string().as_str(), task.as_str(), *answers),
        ("agent:booker", "task-book-01", Some(id(1)))
    );

    // Ann's next message is the answer, not a new request.
    let effects = agent.handle_event(&dm(2, "four of us"), Timestamp::from(NOW));
    assert_eq!(
        effects,
        vec![AgentEffect::AnswerDelegation {
            call_id: book.clone(),
            task: "task-book-01".into(),
            answer: "four of us".into()
        }]
    );
    let effects = agent.handle_delegation(
        &book,
        finished("completed", "Booked: 4 people at 19:30, Chez Marie"),
        Timestamp::from(NOW),
    );
    let (request, body) = model_call(&effects);
    let outcome: Value =
        serde_json::from_str(last_message(&body)["content"].as_str().unwrap()).unwrap();
    assert_eq!(
        (outcome["state"].as_str(), outcome["task"].as_str()),
        (Some("completed"), Some("task-book-01"))
    );
    assert!(outcome["answer"].as_str().unwrap().contains("Chez Marie"));

    // The second part, then one answer with both tasks.
    let tell = delegate(
        &mut agent,
        request,
        2,
        "agent:notify",
        "Tell Ann: table for 4 at 19:30",
    );
    agent.handle_delegation(&tell, started("task-tell-02"), Timestamp::from(NOW));
    let (request, _) = model_call(&agent.handle_delegation(
        &tell,
        finished("completed", "Ann was told"),
        Timestamp::from(NOW),
    ));
    let effects = whole(
        &mut agent,
        request,
        &openai_text("Booked a table for 4 at 19:30; Ann knows."),
    );
    let answers = posts(&effects);
    assert_eq!(answers.len(), 1, "one answer");
    let text = &answers[0].2;
    assert!(text.starts_with("Booked a table for 4 at 19:30; Ann knows.\n\n**Tasks**"));
    assert!(text.contains("[agent:booker: Book a table for tonight at 19:30](https://edge.example/n/demo/tasks/task-book-01) — completed"));
    assert!(text.contains("(https://edge.example/n/demo/tasks/task-tell-02) — completed"));
    let AgentEffect::Post { steps, .. } = the_post(&effects) else {
        unreachable!()
    };
    let tools: Vec<&str> = steps.iter().map(|s| s.tool.as_str()).collect();
    assert_eq!(tools, ["plan", "find_agents", "delegate", "delegate"]);

    // The turn is over: Ann's next message is a new request.
    assert!(model_call_of(&agent.handle_event(&dm(3, "thanks"), Timestamp::from(NOW))).is_some());
}

#[test]
fn a_refused_or_failed_delegation_is_reported_in_the_answer() {
    let (mut agent, request) = asked_first("book a table and tell Ann");
    let book = delegate(&mut agent, request, 1, "agent:booker", "Book a table");
    agent.handle_delegation(&book, started("task-book"), Timestamp::from(NOW));
    let effects = agent.handle_delegation(
        &book,
        finished("rejected", "I only book in Paris"),
        Timestamp::from(NOW),
    );
    let (request, body) = model_call(&effects);
    let result = last_message(&body);
    assert_eq!(result["role"], "tool");
    assert_eq!(
        result["content"],
        "agent:booker did not do it: the task rejected: I only book in Paris"
    );
    // A task that could not be created at all has no link.
    let tell = delegate(&mut agent, request, 2, "agent:nobody", "Tell Ann");
    let effects = agent.handle_delegation(
        &tell,
        finished("failed", "not_found: no member agent:nobody"),
        Timestamp::from(NOW),
    );
    let (request, _) = model_call(&effects);
    let effects = whole(&mut agent, request, &openai_text("All done!"));
    let text = &posts(&effects)[0].2;
    assert!(
        text.contains(
            "](https://edge.example/n/demo/tasks/task-book) — rejected: I only book in Paris"
        ),
        "{text}"
    );
    assert!(
        text.contains("\n- agent:nobody: Tell Ann — failed: not_found: no member agent:nobody"),
        "{text}"
    );
    let AgentEffect::Post { steps, .. } = the_post(&effects) else {
        unreachable!()
    };
    assert!(
        steps.iter().all(|s| !s.ok),
        "both delegations are failed steps"
    );
}

#[test]
fn questions_wait_their_turn_and_a_stop_cancels_the_tasks() {
    let (mut agent, request) = asked_first("two things");
    let both = openai_calls(&[
        (
            "c1",
            "delegate",
            json!({"to": "agent:a", "instructions": "first"}),
        ),
        (
            "c2",
            "delegate",
            json!({"to": "@b", "instructions": "second"}),
        ),
    ]);
    let effects = whole(&mut agent, request, &both);
    let ids: Vec<String> = effects.iter().filter_map(delegate_id).collect();
    assert!(
        matches!(&effects[3], AgentEffect::Delegate { to, on_behalf_of: Some(ann), .. }
        if to.to_string() == "agent:b" && ann.to_string() == "human:ann")
    );
    let mut asked = BTreeMap::new();
    for (n, call) in ids.iter().enumerate() {
        agent.handle_delegation(call, started(&format!("t{n}")), Timestamp::from(NOW));
        let question = DelegationUpdate::InputRequired {
            question: format!("question {n}?"),
        };
        asked.insert(
            n,
            progress(&agent.handle_delegation(call, question, Timestamp::from(NOW))).len(),
        );
    }
    assert_eq!(
        asked,
        BTreeMap::from([(0, 1), (1, 0)]),
        "one question at a time"
    );
    let effects = agent.handle_event(&dm(2, "yes"), Timestamp::from(NOW));
    assert!(matches!(&effects[0], AgentEffect::AnswerDelegation { task, .. } if task == "t0"));
    assert!(
        progress(&effects)[0].0.contains("question 1?"),
        "then the next"
    );
    // An agent's message is not an answer: it is a conversation of its own.
    let other = message(3, "agent:x", "agent:helper", "no", json!({}));
    let effects = agent.handle_event(&other, Timestamp::from(NOW));
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, AgentEffect::AnswerDelegation { .. }))
    );
    assert!(model_call_of(&effects).is_some());

    let effects = agent.cancel(&Place::new(addr("human:ann"), None));
    let canceled: Vec<&str> = effects
        .iter()
        .filter_map(|e| match e {
            AgentEffect::CancelDelegation { task, .. } => Some(task.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(canceled, ["t0", "t1"]);
    assert!(
        agent
            .handle_delegation(&ids[0], finished("completed", "late"), Timestamp::from(NOW))
            .is_empty()
    );
    assert!(
        model_call_of(&agent.handle_event(&dm(4, "hello again"), Timestamp::from(NOW))).is_some(),
        "no question waits"
    );
}

#[test]
fn bad_arguments_are_told_to_the_model_and_chat_agents_have_no_such_tools() {
    let (mut agent, request) = asked_first("do it");
    let bad = openai_calls(&[
        ("c1", "plan", json!({"steps": []})),
        (
            "c2",
            "delegate",
            json!({"to": "not an address", "instructions": "x"}),
        ),
        ("c3", "find_agents", json!({})),
    ]);
    let (_, body) = model_call(&whole(&mut agent, request, &bad));
    let errors: Vec<String> = body["messages"].as_array().unwrap()[3..]
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(errors.len(), 3);
    assert!(errors[1].starts_with("`to` must be an agent's address"));

    let mut chat = helper(json!({}));
    let request = ask(&mut chat, 1, "do it");
    let call = openai_call(
        "c1",
        "delegate",
        json!({"to": "agent:a", "instructions": "x"}),
    );
    let (_, body) = model_call(&whole(&mut chat, request, &call));
    assert_eq!(
        last_message(&body)["content"],
        "The tool delegate is not available to this agent."
    );
    // In a task given to the assistant, it has ask_user, not its own tools.
    let mut agent = assistant();
    let (_, body) =
        model_call(&agent.handle_task("t", &addr("human:ann"), "x", Timestamp::from(NOW)));
    assert_eq!(body["tools"][0]["function"]["name"], "ask_user");
    assert_eq!(body["tools"].as_array().unwrap().len(), 1);
}
