//! The People panel: a filter box, then humans and agents apart, each online
//! first and in natural order of their names; one's own entry marked; each
//! member's face, display name and address, an Agent badge for agents, a
//! verified badge for a verified member (the level in its tooltip), its DID, what
//! it says about itself and the skills it shares laid out under its name.

use super::face::Avatar;
use super::order::{Kind, group, kind_of, presence_words, verification_words};
use super::person::Person;
use super::state::People;
use crate::routes::Place;
use crate::session::{Session, Status};
use leptos::prelude::*;

/// The panel.
#[component]
pub fn Roster() -> impl IntoView {
    let people = People::get().people;
    let (filter, set_filter) = signal(String::new());
    let online = move || people.with(|p| p.iter().filter(|p| p.status == "online").count());
    let status = Session::get().status;
    let count = move || presence_words(status.get() == Status::Online, online());
    let nobody = move || {
        let typed = filter.get();
        people.with(|p| {
            !typed.trim().is_empty()
                && group(p, Kind::Human, &typed).is_empty()
                && group(p, Kind::Agent, &typed).is_empty()
        })
    };
    view! {
        <aside class="roster" aria-label="People">
            <h2>"People" <span class="count">{count}</span></h2>
            <input class="filter" type="search" placeholder="Filter by name, skill…" aria-label="Filter people"
                prop:value=filter on:input=move |ev| set_filter.set(event_target_value(&ev)) />
            <Group kind=Kind::Human title="Humans" people filter />
            <Group kind=Kind::Agent title="Agents" people filter />
            <Show when=nobody>
                <p class="nobody">{move || format!("Nobody matches “{}”.", crate::bidi::isolate(filter.get().trim()))}</p>
            </Show>
        </aside>
    }
}

/// One group of the panel, hidden while it has nobody to show.
#[component]
fn Group(
    kind: Kind,
    title: &'static str,
    people: RwSignal<Vec<Person>>,
    filter: ReadSignal<String>,
) -> impl IntoView {
    let members = Memo::new(move |_| people.with(|p| group(p, kind, &filter.get())));
    view! {
        <Show when=move || members.with(|m| !m.is_empty())>
            <section class="group" aria-label=title>
                <h3>{title} <span class="count">{move || members.with(Vec::len)}</span></h3>
                <ul>
                    <For each=move || members.get() key=|p| p.clone() let:person>
                        <Entry person />
                    </For>
                </ul>
            </section>
        </Show>
    }
}

/// One member's entry.
#[component]
fn Entry(person: Person) -> impl IntoView {
    let session = Session::get();
    let me = session.me_text() == person.address;
    let level = person.verification;
    let master = person.role == "master";
    let agent = kind_of(&person.address) == Kind::Agent;
    view! {
        <li class="person" data-address=person.address.clone() data-status=person.status.clone()
            data-verification=level.to_string() data-me=me.to_string()>
            <div class="who">
                <span class="face">
                    <Avatar address=person.address.clone() />
                    <span class="presence" role="img" aria-label=person.status.clone()></span>
                </span>
                <a class="name" title=format!("{} — open a direct conversation", person.address)
                    href=session.path(&Place::Conversation(person.address.clone()))>
                    {person.shown_name().to_owned()}
                </a>
                {agent.then(|| view! { <span class="badge agent-badge">"Agent"</span> })}
                {me.then(|| view! { <span class="badge you">"you"</span> })}
                {master.then(|| view! { <span class="badge" title="May administer the network">"admin"</span> })}
                {(level > 0).then(|| view! {
                    <span class="badge verified" title=format!("{} (verification level {level})", verification_words(level))>
                        "✓ verified"
                    </span>
                })}
            </div>
            <p class="details">
                <span class="address">{person.address.clone()}</span>
                {(person.role == "observer").then_some(" · observer")}
            </p>
            {person.did.clone().map(|did| view! { <p class="did" title="Verified DID">{did}</p> })}
            {person.description.clone().map(|text| view! { <p class="description">{text}</p> })}
            {(!person.skills.is_empty()).then(|| view! {
                <ul class="skills" aria-label=format!("Skills of {}", person.address)>
                    {person.skills.iter().map(|(skill, address)| view! {
                        <li><a class="skill" title="Its SKILL.md"
                            href=session.path(&Place::Document(address.clone()))>{skill.clone()}</a></li>
                    }).collect_view()}
                </ul>
            })}
        </li>
    }
}
