//! The agent loop (`agentnet_core::agent::Agent`) for JavaScript hosts: the
//! JS `AgentLoop` class takes JSON in and gives effects back as JSON text
//! (`[{effect: "call_model", …}, …]`), which `lib/llm.js` carries out —
//! fetching the model, invoking tools, posting — so the loop itself stays
//! in the core, the same for every host.

use crate::errors::{coded, js_error, millis, moment, parse_json};
use agentnet_core::agent::approve::{ApprovalOutcome, outcome_of_answer};
use agentnet_core::agent::chat::ToolDef;
use agentnet_core::agent::{
    Agent, AgentConfig, AgentEffect, DelegationUpdate, ModelResponse, Place, RequestId,
};
use agentnet_core::{Address, Event};
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// One LLM agent's loop.
#[wasm_bindgen(js_name = AgentLoop)]
pub struct JsAgentLoop {
    inner: Agent,
}

fn effects_json(effects: Vec<AgentEffect>) -> String {
    // Effects are plain data (strings, numbers, JSON values): they always serialize.
    serde_json::to_string(&effects).unwrap_or_else(|_| "[]".to_owned())
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, JsValue> {
    serde_json::from_value(parse_json(text, what)?)
        .map_err(|e| js_error("invalid_request", &format!("{what} is not valid: {e}")))
}

#[wasm_bindgen(js_class = AgentLoop)]
impl JsAgentLoop {
    /// A loop for the configuration `config` (JSON text; see docs/agents.md);
    /// throws `invalid_request`/`invalid_address` naming the field that is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<JsAgentLoop, JsValue> {
        let config = AgentConfig::from_json(config).map_err(coded)?;
        Ok(Self {
            inner: Agent::new(config),
        })
    }

    /// The validated configuration, as JSON text.
    #[wasm_bindgen(getter)]
    pub fn config(&self) -> String {
        serde_json::to_string(self.inner.config()).unwrap_or_default()
    }

    /// The network's tools: JSON `[{name, description, parameters}]`.
    #[wasm_bindgen(js_name = setTools)]
    pub fn set_tools(&mut self, tools: &str) -> Result<(), JsValue> {
        let tools: Vec<ToolDef> = from_json(tools, "tools")?;
        self.inner.set_tools(tools);
        Ok(())
    }

    /// An event the agent received (JSON text); effects.
    #[wasm_bindgen(js_name = handleEvent)]
    pub fn handle_event(&mut self, event: &str, now: f64) -> Result<String, JsValue> {
        let event: Event = from_json(event, "event")?;
        Ok(effects_json(self.inner.handle_event(&event, moment(now))))
    }

    /// What came of the model call `request`: `{status, retry_after_secs?, body: {kind, text?}}`.
    #[wasm_bindgen(js_name = handleModelResponse)]
    pub fn handle_model_response(
        &mut self,
        request: f64,
        response: &str,
        now: f64,
    ) -> Result<String, JsValue> {
        let response: ModelResponse = from_json(response, "response")?;
        let request = RequestId(millis(request));
        Ok(effects_json(self.inner.handle_model_response(
            request,
            response,
            moment(now),
        )))
    }

    /// A tool's result for `call_id`: `ok` with its output (JSON text), else why it failed.
    #[wasm_bindgen(js_name = handleToolResult)]
    pub fn handle_tool_result(
        &mut self,
        call_id: &str,
        ok: bool,
        output: &str,
        now: f64,
    ) -> Result<String, JsValue> {
        let result = if ok {
            Ok(parse_json(output, "output")?)
        } else {
            Err(output.to_owned())
        };
        Ok(effects_json(self.inner.handle_tool_result(
            call_id,
            result,
            moment(now),
        )))
    }

    /// What came of the approval asked for `call_id`: `{decision, edited?, by?, reason?}` (JSON text).
    #[wasm_bindgen(js_name = handleApproval)]
    pub fn handle_approval(
        &mut self,
        call_id: &str,
        outcome: &str,
        now: f64,
    ) -> Result<String, JsValue> {
        let outcome: ApprovalOutcome = from_json(outcome, "outcome")?;
        Ok(effects_json(self.inner.handle_approval(
            call_id,
            outcome,
            moment(now),
        )))
    }

    /// A task given to the agent: its id, who asked, its message text.
    #[wasm_bindgen(js_name = handleTask)]
    pub fn handle_task(
        &mut self,
        task: &str,
        requester: &str,
        text: &str,
        now: f64,
    ) -> Result<String, JsValue> {
        let requester: Address = requester.parse().map_err(coded)?;
        Ok(effects_json(self.inner.handle_task(
            task,
            &requester,
            text,
            moment(now),
        )))
    }

    /// What became of a task an assistant handed out (its `delegate` call
    /// `call_id`): `{update: "started", task, url?}`, `{update:
    /// "input_required", question}` or `{update: "finished", state, text}`.
    #[wasm_bindgen(js_name = handleDelegation)]
    pub fn handle_delegation(
        &mut self,
        call_id: &str,
        update: &str,
        now: f64,
    ) -> Result<String, JsValue> {
        let update: DelegationUpdate = from_json(update, "update")?;
        Ok(effects_json(self.inner.handle_delegation(
            call_id,
            update,
            moment(now),
        )))
    }

    /// Stops the turn in a conversation (`{target, thread?, task?}`, JSON text).
    pub fn cancel(&mut self, conversation: &str) -> Result<String, JsValue> {
        let place: Place = from_json(conversation, "conversation")?;
        Ok(effects_json(self.inner.cancel(&place)))
    }
}

/// A person's answer to an approval asked as a task's question, read as an
/// outcome (`{decision, edited?, reason?}`, JSON text): `approve`/`yes`,
/// perhaps with edited arguments as a JSON object, else denied.
#[wasm_bindgen(js_name = approvalFromAnswer)]
pub fn approval_from_answer(answer: &str) -> String {
    serde_json::to_string(&outcome_of_answer(answer)).unwrap_or_default()
}

/// The agent's configuration read and checked without starting it: the
/// normalized JSON text, or a coded error.
#[wasm_bindgen(js_name = checkAgentConfig)]
pub fn check_agent_config(config: &str) -> Result<String, JsValue> {
    let config = AgentConfig::from_json(config).map_err(coded)?;
    let value: Value = serde_json::to_value(&config).unwrap_or_default();
    Ok(value.to_string())
}
