//! The bar over every page: the networks joined here, each by its name (the
//! id in its tooltip), the Directory, and the two flows that join a network
//! or create one ([`super::add`]); they close and clear once a join or a
//! creation went through.

use super::Networks;
use super::add::{CreateForm, JoinForm};
use crate::lazy::{LazyPart, split_views};
use crate::routes::network_path;
use leptos::context::Provider;
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

/// "Join or create a network": a disclosure holding two separate flows,
/// Join (an invitation link, a network's link or id, a token if it needs
/// one) and Create (a name and who may join), each with one primary
/// button ([`super::add`]); it closes and clears when one went through.
/// The forms are a part loaded when the disclosure first opens
/// ([`forms_part`]): most visits never open it. Once loaded
/// they stay in the page, hidden while it is closed, as a join or a creation
/// they started goes on after it closes.
#[component]
fn JoinOrCreate() -> impl IntoView {
    let state = Networks::get();
    let (open, set_open) = signal(false);
    let opened = RwSignal::new(false);
    let flow = AddNetworkFlow {
        creating: RwSignal::new(false),
        cleared: RwSignal::new(0u64),
    };
    Effect::new(move |previous: Option<u64>| {
        let done = state.done().get();
        if previous.is_some_and(|p| p != done) {
            set_open.set(false);
            flow.creating.set(false);
            flow.cleared.update(|n| *n += 1);
        }
        done
    });
    view! {
        <details class="add-network" prop:open=move || open.get()
            on:toggle=move |ev| {
                let now_open = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
                set_open.set(now_open);
                if now_open {
                    opened.set(true);
                }
            }>
            <summary aria-label="Join or create a network">
                <span class="wide-label">"Join or create a network"</span>
                <span class="narrow-label" aria-hidden="true">"+ Join"</span>
            </summary>
            <Show when=move || opened.get()>
                <div class="network-form">
                    <Provider value=flow>
                        <LazyPart load=forms_part what="the form" />
                    </Provider>
                </div>
            </Show>
        </details>
    }
}

/// Which flow of the open disclosure is shown, and a count of the flows
/// that went through (each clears the forms): shared by [`JoinOrCreate`]
/// and its forms' part.
#[derive(Clone, Copy)]
pub struct AddNetworkFlow {
    creating: RwSignal<bool>,
    cleared: RwSignal<u64>,
}

/// The Join and Create forms of the open disclosure's panel, with the two
/// buttons that choose between them ([`forms_part`]).
#[component]
pub fn AddNetworkForms() -> impl IntoView {
    let state = Networks::get();
    let Some(AddNetworkFlow { creating, cleared }) = use_context::<AddNetworkFlow>() else {
        return ().into_any();
    };
    let flow = move |create: bool| {
        view! {
            <button type="button" class="flow" aria-pressed=move || (creating.get() == create).to_string()
                on:click=move |_| { creating.set(create); state.problem().set(None); }>
                {if create { "Create a network" } else { "Join a network" }}
            </button>
        }
    };
    view! {
        <div class="flows" role="group" aria-label="Join or create">{flow(false)}{flow(true)}</div>
        {move || {
            cleared.track();
            if creating.get() {
                view! { <CreateForm /> }.into_any()
            } else {
                view! { <JoinForm /> }.into_any()
            }
        }}
    }
    .into_any()
}

split_views! {
    /// The Join and Create forms of the networks bar, as a part.
    forms_part in add_network_chunk => view! { <AddNetworkForms /> };
}
