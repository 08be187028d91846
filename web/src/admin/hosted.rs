//! The Admin view's Agents card: the LLM agents this network runs on its
//! edge (no agent process needed), each with its model and whose key it
//! uses; a form to add one (name, persona, provider, base URL, model, key,
//! tools, when it answers); a key replaced, never shown; an agent removed.
//! The calls are HTTP (`web/js/agents.js`), so the key never travels in an
//! event.

use crate::session::Session;
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/agents.js")]
extern "C" {
    #[wasm_bindgen(js_name = listAgents, catch)]
    async fn list_agents(network: &str, me: &str, secret: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = hostAgent, catch)]
    async fn host_agent(
        network: &str,
        me: &str,
        secret: &str,
        body: &str,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = removeAgent, catch)]
    async fn remove_agent(
        network: &str,
        me: &str,
        secret: &str,
        address: &str,
    ) -> Result<JsValue, JsValue>;
}

/// What the form holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AgentForm {
    /// The name people read.
    pub name: String,
    /// The system prompt.
    pub persona: String,
    /// `openai_chat` or `anthropic_messages`.
    pub provider: String,
    /// The provider's base URL.
    pub base_url: String,
    /// The model.
    pub model: String,
    /// The key (empty: keep the one it has, or use the deployment's).
    pub key: String,
    /// May it call the network's tools?
    pub tools: bool,
    /// Does it answer every message in its channels (or only when addressed)?
    pub every_message: bool,
}

/// The base URL a provider usually has.
pub fn default_base_url(provider: &str) -> &'static str {
    match provider {
        "anthropic_messages" => "https://api.anthropic.com",
        _ => "https://api.openai.com/v1",
    }
}

/// The request body of `POST v1/admin/agents` for `form`.
pub fn body_of(form: &AgentForm) -> Value {
    let mut body = json!({
        "name": form.name.trim(),
        "persona": form.persona.trim(),
        "provider": form.provider,
        "base_url": form.base_url.trim(),
        "model": form.model.trim(),
        "tools": if form.tools { json!("all") } else { json!([]) },
        "answers": if form.every_message { "every_message" } else { "addressed" },
    });
    if !form.key.trim().is_empty() {
        body["key"] = json!(form.key.trim());
    }
    body
}

/// Whose key an agent uses, in words.
pub fn key_words(source: &str) -> &'static str {
    match source {
        "own" => "its own key",
        "deployment" => "the deployment's key",
        _ => "no key yet: add one",
    }
}

fn message_of(error: &JsValue) -> String {
    crate::error::js_message(error, "the edge did not answer")
}

/// Where the calls go, as whom.
#[derive(Clone)]
struct Caller {
    network: String,
    me: String,
    secret: String,
}

impl Caller {
    fn of(session: &Session) -> Self {
        let (network, me) = (session.network_name(), session.me_text());
        let secret =
            crate::storage::recall(&crate::storage::secret_key(&network, &me)).unwrap_or_default();
        Self {
            network,
            me,
            secret,
        }
    }
}

/// The Agents card.
#[component]
pub fn HostedAgents() -> impl IntoView {
    let caller = Caller::of(&Session::get());
    let agents = RwSignal::new(None::<Result<Vec<Value>, String>>);
    let notice = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let form = RwSignal::new(AgentForm {
        provider: "openai_chat".into(),
        base_url: default_base_url("openai_chat").into(),
        ..AgentForm::default()
    });
    let reload = {
        let caller = caller.clone();
        move || {
            let caller = caller.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let read = list_agents(&caller.network, &caller.me, &caller.secret).await;
                let listed = match read {
                    Ok(text) => {
                        serde_json::from_str::<Value>(&text.as_string().unwrap_or_default())
                            .ok()
                            .and_then(|v| v.get("agents").and_then(Value::as_array).cloned())
                            .ok_or_else(|| "the list could not be read".to_owned())
                    }
                    Err(e) => Err(message_of(&e)),
                };
                let _ = agents.try_set(Some(listed));
            });
        }
    };
    reload();
    let submit = {
        let (caller, reload) = (caller.clone(), reload.clone());
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let body = body_of(&form.get_untracked()).to_string();
            let (caller, reload) = (caller.clone(), reload.clone());
            busy.set(true);
            wasm_bindgen_futures::spawn_local(async move {
                let done = host_agent(&caller.network, &caller.me, &caller.secret, &body).await;
                let said = match done {
                    Ok(text) => {
                        let answer: Value =
                            serde_json::from_str(&text.as_string().unwrap_or_default())
                                .unwrap_or(Value::Null);
                        let address = answer["address"].as_str().unwrap_or("the agent").to_owned();
                        form.update(|f| f.key.clear());
                        format!(
                            "{address} is hosted here, with {}. Mention it to talk to it.",
                            key_words(answer["key"].as_str().unwrap_or(""))
                        )
                    }
                    Err(e) => format!("Not added: {}", message_of(&e)),
                };
                let _ = notice.try_set(Some(said));
                let _ = busy.try_set(false);
                reload();
            });
        }
    };
    let remove = {
        let (caller, reload) = (caller.clone(), reload.clone());
        move |address: String| {
            let (caller, reload) = (caller.clone(), reload.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let done =
                    remove_agent(&caller.network, &caller.me, &caller.secret, &address).await;
                let said = match done {
                    Ok(_) => format!("{address} was removed, with its key."),
                    Err(e) => format!("Not removed: {}", message_of(&e)),
                };
                let _ = notice.try_set(Some(said));
                reload();
            });
        }
    };
    let field = move |get: fn(&AgentForm) -> String, set: fn(&mut AgentForm, String)| {
        (
            move || form.with(get),
            move |e: leptos::ev::Event| form.update(|f| set(f, event_target_value(&e))),
        )
    };
    let (name, set_name) = field(|f| f.name.clone(), |f, v| f.name = v);
    let (persona, set_persona) = field(|f| f.persona.clone(), |f, v| f.persona = v);
    let (base_url, set_base_url) = field(|f| f.base_url.clone(), |f, v| f.base_url = v);
    let (model, set_model) = field(|f| f.model.clone(), |f, v| f.model = v);
    let (key, set_key) = field(|f| f.key.clone(), |f, v| f.key = v);
    let set_provider = move |e: leptos::ev::Event| {
        let provider = event_target_value(&e);
        form.update(|f| {
            f.base_url = default_base_url(&provider).into();
            f.provider = provider;
        });
    };
    view! {
        <section class="admin-card" aria-labelledby="admin-agents">
            <h3 id="admin-agents">"Agents"</h3>
            <p class="admin-hint">"LLM agents this network runs itself: they answer while no agent program runs anywhere. Their keys are kept as secrets of the agent: replaced here, never shown."</p>
            <p class="notice" role="status">{move || notice.get()}</p>
            {move || match agents.get() {
                None => view! { <p class="admin-hint">"Reading the agents…"</p> }.into_any(),
                Some(Err(why)) => view! { <p class="admin-hint">{format!("The agents could not be read: {why}")}</p> }.into_any(),
                Some(Ok(list)) if list.is_empty() => view! { <p class="admin-hint">"No hosted agents yet."</p> }.into_any(),
                Some(Ok(list)) => view! {
                    <ul class="admin-list hosted-agents" aria-label="Hosted agents">
                        {list.into_iter().map(|a| {
                            let address = a["address"].as_str().unwrap_or("").to_owned();
                            let name = a["name"].as_str().filter(|n| !n.is_empty()).unwrap_or(&address).to_owned();
                            let model = format!("{} · {}", a["config"]["model"].as_str().unwrap_or("?"), key_words(a["key"].as_str().unwrap_or("")));
                            let (gone, remove) = (address.clone(), remove.clone());
                            view! {
                                <li class="hosted-agent" data-address=address.clone()>
                                    <span class="name">{name}</span>
                                    <span class="admin-hint">{model}</span>
                                    <button type="button" class="admin-button small danger" aria-label=format!("Remove {address}")
                                        on:click=move |_| remove(gone.clone())>"Remove"</button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any(),
            }}
            <form class="admin-form hosted-form" on:submit=submit aria-label="Add an agent">
                <label class="admin-field">"Name"
                    <input name="name" required placeholder="Support Bot" prop:value=name on:input=set_name />
                </label>
                <label class="admin-field">"Persona"
                    <textarea name="persona" rows="3" placeholder="You answer questions about our product, briefly." prop:value=persona on:input=set_persona></textarea>
                </label>
                <label class="admin-field">"Provider"
                    <select name="provider" on:change=set_provider>
                        <option value="openai_chat" selected=true>"OpenAI Chat Completions (and compatible)"</option>
                        <option value="anthropic_messages">"Anthropic Messages"</option>
                    </select>
                </label>
                <label class="admin-field">"Provider URL"
                    <input name="base_url" required prop:value=base_url on:input=set_base_url />
                </label>
                <label class="admin-field">"Model"
                    <input name="model" required placeholder="gpt-4o-mini" prop:value=model on:input=set_model />
                </label>
                <label class="admin-field">"Key"
                    <input name="key" type="password" autocomplete="off" placeholder="empty: the agent's key stays, or the deployment's is used"
                        prop:value=key on:input=set_key />
                </label>
                <label class="admin-check">
                    <input name="tools" type="checkbox" prop:checked=move || form.with(|f| f.tools)
                        on:change=move |e| form.update(|f| f.tools = event_target_checked(&e)) />
                    " May use the network's tools"
                </label>
                <label class="admin-check">
                    <input name="every_message" type="checkbox" prop:checked=move || form.with(|f| f.every_message)
                        on:change=move |e| form.update(|f| f.every_message = event_target_checked(&e)) />
                    " Answers every message in its channels (not only when mentioned)"
                </label>
                <button type="submit" class="admin-button primary" prop:disabled=move || busy.get()>"Add the agent"</button>
            </form>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_becomes_the_request_and_an_empty_key_is_left_out() {
        let mut form = AgentForm {
            name: " Support Bot ".into(),
            persona: "Be brief.".into(),
            provider: "anthropic_messages".into(),
            base_url: default_base_url("anthropic_messages").into(),
            model: "claude-x".into(),
            key: "  ".into(),
            tools: true,
            every_message: false,
        };
        let body = body_of(&form);
        assert_eq!(body["name"], "Support Bot");
        assert_eq!(body["base_url"], "https://api.anthropic.com");
        assert_eq!(body["tools"], "all");
        assert_eq!(body["answers"], "addressed");
        assert!(body.get("key").is_none());
        form.key = "sk-1".into();
        assert_eq!(body_of(&form)["key"], "sk-1");
        assert_eq!(key_words("deployment"), "the deployment's key");
    }
}
