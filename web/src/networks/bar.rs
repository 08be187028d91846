//! The bar over every page: the networks joined here, each by its name (the
//! id in its tooltip), the Directory, and the form that joins a network or
//! creates one, asking who may join it; the form closes and clears once a
//! join or a creation went through.

use super::Networks;
use super::create::{Access, CHOICES};
use crate::routes::network_path;
use leptos::prelude::*;

/// The bar of joined networks with the join and create form.
#[component]
pub fn NetworkBar() -> impl IntoView {
    let state = Networks::get();
    let (networks, active) = (state.joined(), state.active());
    view! {
        <nav class="networks" aria-label="Networks">
            <a class="brand" href="/" title="agentnet: the network open last">"agentnet"</a>
            <ul class="network-list">
                <For each=move || networks.get() key=|n| (n.id.clone(), n.name.clone()) let:network>
                    <li>
                        <a href=network_path(&network.id) title=format!("Network id: {}", network.id)
                            data-id=network.id.clone()
                            aria-current={
                                let id = network.id.clone();
                                move || (active.get() == id).then_some("page")
                            }><span class="chip">{network.label().to_owned()}</span></a>
                    </li>
                </For>
            </ul>
            <a class="directory-link" href=crate::directory::PATH>"Directory"</a>
            <JoinOrCreate />
        </nav>
    }
}

/// "Join or create a network": the form, in a disclosure that closes and
/// clears when the join or creation went through.
#[component]
fn JoinOrCreate() -> impl IntoView {
    let state = Networks::get();
    let problem = state.problem();
    let (open, set_open) = signal(false);
    let (target, set_target) = signal(String::new());
    let (token, set_token) = signal(String::new());
    let (person, set_person) = signal(String::new());
    let (choice, set_choice) = signal(CHOICES[0].0.to_owned());
    Effect::new(move |previous: Option<u64>| {
        let done = state.done().get();
        if previous.is_some_and(|p| p != done) {
            set_open.set(false);
            set_target.set(String::new());
            set_token.set(String::new());
            set_person.set(String::new());
            set_choice.set(CHOICES[0].0.to_owned());
        }
        done
    });
    let submit = move |creating: bool| {
        let token = Some(token.get_untracked().trim().to_owned()).filter(|t| !t.is_empty());
        let person = Some(person.get_untracked().trim().to_owned()).filter(|p| !p.is_empty());
        let access = creating.then(|| Access::from_choice(&choice.get_untracked(), token.clone()));
        state.add(
            target.get_untracked().trim().to_owned(),
            token,
            person,
            access,
        );
    };
    let explanation = move || {
        CHOICES
            .iter()
            .find(|(value, ..)| *value == choice.get())
            .map(|(.., text)| *text)
            .unwrap_or_default()
    };
    view! {
        <details class="add-network" prop:open=move || open.get()
            on:toggle=move |ev| set_open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary aria-label="Join or create a network">
                <span class="wide-label">"Join or create a network"</span>
                <span class="narrow-label" aria-hidden="true">"+ Join"</span>
            </summary>
            <form class="network-form" on:submit=move |ev| { ev.prevent_default(); submit(false); }>
                <label>"Network (id, URL or new name)"
                    <input name="network" autocomplete="off" placeholder="e.g. demo, or UX Team to create"
                        prop:value=move || target.get()
                        on:input=move |ev| set_target.set(event_target_value(&ev)) />
                </label>
                <label>"Token (if it needs one)"
                    <input name="token" type="password" autocomplete="off"
                        prop:value=move || token.get()
                        on:input=move |ev| set_token.set(event_target_value(&ev)) />
                </label>
                <label>"Your name"
                    <input name="person" autocomplete="nickname" placeholder="e.g. ada"
                        prop:value=move || person.get()
                        on:input=move |ev| set_person.set(event_target_value(&ev)) />
                </label>
                <fieldset class="access-choice">
                    <legend>"Who may join a network you create"</legend>
                    {CHOICES.iter().map(|(value, label, _)| view! {
                        <label class="choice">
                            <input type="radio" name="access" value=*value
                                prop:checked=move || choice.get() == *value
                                on:change=move |_| set_choice.set((*value).to_owned()) />
                            {*label}
                        </label>
                    }).collect_view()}
                    <p class="explanation">{explanation}</p>
                </fieldset>
                <div class="form-actions">
                    <button type="submit">"Join"</button>
                    <button type="button" class="secondary" on:click=move |_| submit(true)>"Create"</button>
                </div>
                <Show when=move || problem.get().is_some()>
                    <p class="problem" role="alert">{move || problem.get().unwrap_or_default()}</p>
                </Show>
            </form>
        </details>
    }
}
