//! The invitation page (`/invite/{network}#{code}`, ONM §12): the
//! holder of an invitation link sees the network and who invited them
//! (`POST v1/invitations/show`), and accepts it — joins the network with
//! the code (`credentials.invite`) and opens its workspace — or declines it
//! (`POST v1/invitations/reject`: the inviter gets
//! `workspace.invitation.rejected`). It asks the name the person wants to be
//! known by there (the name last used on this browser, offered), which the
//! workspace sets once joined ([`crate::people::me`]). The code stays in the fragment, so it
//! never reaches a server's request log.

use crate::networks::Networks;
use crate::people::me::{LAST_NAME_KEY, pending_name_key, profile_payload};
use crate::storage;
use agentnet_core::bindings::route::paths;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_params_map};
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    #[wasm_bindgen(js_name = postJson, catch)]
    async fn post_json(url: &str, body: String) -> Result<JsValue, JsValue>;
}

/// The link that opens the invitation `code` to `network`.
pub fn invitation_link(origin: &str, network: &str, code: &str) -> String {
    format!("{origin}/invite/{network}#{code}")
}

/// What an invitation says, read from `v1/invitations/show`'s answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// The network's name.
    pub name: String,
    /// What the network says about itself.
    pub description: Option<String>,
    /// Who invited: the name they go by, else their address.
    pub inviter: String,
    /// The only address that may use it, when it names one.
    pub invitee: Option<String>,
}

impl Invitation {
    /// Reads the answer's JSON; `None` when it is not one.
    pub fn from_answer(answer: &Value) -> Option<Self> {
        let text = |v: &Value| v.as_str().map(str::to_owned);
        Some(Self {
            name: text(answer.get("network")?.get("name")?)?,
            description: answer
                .get("network")
                .and_then(|n| n.get("description"))
                .and_then(text),
            inviter: answer
                .get("inviter_name")
                .and_then(text)
                .or_else(|| text(answer.get("inviter")?))?,
            invitee: answer.get("invitee").and_then(text),
        })
    }
}

/// What the page shows.
#[derive(Clone, Debug, PartialEq, Eq)]
enum View {
    Loading,
    Open(Invitation),
    Declined(String),
    Failed(String),
}

/// POSTs `{code}` to `v1/invitations/{action}` of `network`; the answer's body, or why not.
async fn call(network: &str, action: &str, code: &str) -> Result<Value, String> {
    let url = paths::network_path(network, &format!("/v1/invitations/{action}"));
    let answer = post_json(&url, json!({"code": code}).to_string())
        .await
        .map_err(|_| "the network cannot be reached right now".to_owned())?;
    let answer: Value = answer
        .as_string()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    match answer.get("status").and_then(Value::as_u64) {
        Some(200) => Ok(answer.get("body").cloned().unwrap_or(Value::Null)),
        Some(404) => Err("This invitation is used, revoked or expired.".to_owned()),
        _ => Err(answer
            .pointer("/body/message")
            .and_then(Value::as_str)
            .map_or_else(|| "The network refused it.".to_owned(), str::to_owned)),
    }
}

/// `/invite/{network}#{code}`.
#[component]
pub fn InvitePage() -> impl IntoView {
    let params = use_params_map();
    let network = params.with_untracked(|p| p.get("network").unwrap_or_default());
    // The code is the fragment; a link to another invitation changes only it. Accepting
    // opens the network, which changes the fragment as this page goes: the code is then
    // none, so nothing here is redrawn on a page being taken down (a redraw already queued
    // would read this page's state after it was dropped: a panic).
    let location = use_location();
    let code = Memo::new(move |_| {
        let here = location.pathname.get().starts_with("/invite/");
        here.then(|| location.hash.get().trim_start_matches('#').to_owned())
    });
    let view_state = RwSignal::new(View::Loading);
    {
        let network = network.clone();
        Effect::new(move |_| {
            let Some(Some(code)) = code.try_get() else {
                return;
            };
            if code.is_empty() {
                view_state.set(View::Failed(
                    "This link has no invitation code: ask for the whole link again.".into(),
                ));
                return;
            }
            let network = network.clone();
            view_state.set(View::Loading);
            // Ended when the code changes again or the page goes.
            leptos::task::spawn_local_scoped_with_cancellation(async move {
                let shown = match call(&network, "show", &code).await {
                    Ok(answer) => Invitation::from_answer(&answer).map_or_else(
                        || {
                            View::Failed(
                                "The network gave an answer this page does not understand.".into(),
                            )
                        },
                        View::Open,
                    ),
                    Err(why) => View::Failed(why),
                };
                view_state.set(shown);
            });
        });
    }
    let networks = Networks::get();
    let display_name = RwSignal::new(storage::recall(LAST_NAME_KEY).unwrap_or_default());
    let problem = RwSignal::new(None::<String>);
    let accept = {
        let network = network.clone();
        move |invitation: &Invitation| {
            let name = display_name.get_untracked();
            if let Err(why) = profile_payload(&name, None) {
                problem.set(Some(why));
                return;
            }
            if !name.trim().is_empty() {
                storage::keep(LAST_NAME_KEY, name.trim());
                storage::keep(&pending_name_key(&network), name.trim());
            }
            // An invitation for someone joins as them.
            if let Some(invitee) = &invitation.invitee {
                storage::keep(&format!("name:{network}"), invitee);
            }
            networks.accept_invitation(
                network.clone(),
                invitation.name.clone(),
                code.get_untracked().unwrap_or_default(),
            );
        }
    };
    let decline = {
        let network = network.clone();
        move |invitation: Invitation| {
            let (network, code) = (network.clone(), code.get_untracked().unwrap_or_default());
            wasm_bindgen_futures::spawn_local(async move {
                // The person may have left the page while the network answered.
                view_state.try_set(match call(&network, "reject", &code).await {
                    Ok(_) => View::Declined(format!(
                        "You declined the invitation to {}. {} will be told.",
                        crate::bidi::isolate(&invitation.name),
                        crate::bidi::isolate(&invitation.inviter)
                    )),
                    Err(why) => View::Failed(why),
                });
            });
        }
    };
    view! {
        <main class="invitation" aria-labelledby="invitation-title">
            <h2 id="invitation-title">"Invitation"</h2>
            {move || match view_state.get() {
                View::Loading => view! { <p role="status">"Reading the invitation…"</p> }.into_any(),
                View::Failed(why) => view! { <p role="alert">{why}</p> <a href="/">"Open the workspace"</a> }.into_any(),
                View::Declined(what) => view! { <p role="status">{what}</p> <a href="/">"Open the workspace"</a> }.into_any(),
                View::Open(invitation) => {
                    let (accept, decline) = (accept.clone(), decline.clone());
                    let (for_accept, for_decline) = (invitation.clone(), invitation.clone());
                    view! {
                        <p class="network-name">"You are invited to " <strong>{crate::bidi::isolate(&invitation.name)}</strong></p>
                        {invitation.description.clone().map(|d| view! { <p class="description">{d}</p> })}
                        <p class="inviter">"Invited by " <strong>{invitation.inviter.clone()}</strong></p>
                        {invitation.invitee.clone().map(|i| view! { <p class="invitee">"For " <strong>{i}</strong></p> })}
                        <label class="field">
                            <span>"Your name there"</span>
                            <input type="text" name="display-name" maxlength="64" autocomplete="name"
                                placeholder="How people will see you"
                                prop:value=display_name on:input=move |ev| display_name.set(event_target_value(&ev)) />
                        </label>
                        {move || problem.get().map(|p| view! { <p class="problem" role="alert">{p}</p> })}
                        <div class="actions">
                            <button type="button" class="primary" on:click=move |_| accept(&for_accept)>"Accept"</button>
                            <button type="button" class="secondary" on:click=move |_| decline(for_decline.clone())>"Decline"</button>
                        </div>
                    }.into_any()
                }
            }}
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_reads_as_the_invitation_and_a_link_carries_its_code_in_the_fragment() {
        let answer = json!({"network": {"id": "lab", "name": "Lab", "description": null, "policy": "invite"},
            "inviter": "human:ann", "invitee": null, "expires_at": 5});
        assert_eq!(
            Invitation::from_answer(&answer),
            Some(Invitation {
                name: "Lab".into(),
                description: None,
                inviter: "human:ann".into(),
                invitee: None,
            })
        );
        // The inviter goes by the name they gave themselves.
        let named =
            json!({"network": {"name": "Lab"}, "inviter": "human:ann", "inviter_name": "Ann B."});
        assert_eq!(Invitation::from_answer(&named).unwrap().inviter, "Ann B.");
        assert_eq!(Invitation::from_answer(&json!({"code": "not_found"})), None);
        assert_eq!(
            invitation_link("https://x.test", "lab", "c0de"),
            "https://x.test/invite/lab#c0de"
        );
    }
}
