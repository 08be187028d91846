//! The people of one workspace: [`People`] (the roster signal and its
//! discover request, kept current from `network.agent.discover` answers and
//! `workspace.presence.changed` events); [`Person`] is in [`super::person`].

use super::person::{Members, Person};
use crate::chat::Chat;
use crate::chat::conversations::channels_from;
use crate::session::Session;
use agentnet_core::EventId;
use agentnet_core::bindings::mcp::prompts::skill_of;
use agentnet_core::ids::event_type::core_types;
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::sorting::sort_by;
use agentnet_core::vocabulary::event_types::{MEMBER_UPDATED, PRESENCE_CHANGED};
use agentnet_core::vocabulary::presence::PresenceChanged;
use leptos::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The people of one workspace: cheap to copy, from context with [`People::get`].
#[derive(Clone, Copy)]
pub struct People {
    session: Session,
    /// Where the channels of a roster answer go.
    chat: Chat,
    pub(super) people: RwSignal<Vec<Person>>,
    /// The roster request in flight, so its answer is recognised.
    discovering: StoredValue<Option<EventId>>,
}

impl People {
    /// The people of `session`'s network, provided to the components below.
    pub fn provide(session: Session, chat: Chat) -> Self {
        let people = Self {
            session,
            chat,
            people: RwSignal::new(Vec::new()),
            discovering: StoredValue::new(None),
        };
        provide_context(people);
        provide_context(Members(people.people.read_only()));
        people
    }

    /// The people of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// The members, as last discovered.
    pub fn members(&self) -> ReadSignal<Vec<Person>> {
        self.people.read_only()
    }

    /// Asks the network for the roster.
    pub fn refresh(&self) {
        self.session
            .read_later(core_types::AGENT_DISCOVER, self.discovering);
    }

    /// What the replica reports that concerns the people.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        match effect {
            ReplicaEffect::Online => self.refresh(),
            ReplicaEffect::Received(event)
                if event.event_type.as_str() == PRESENCE_CHANGED
                    && trusts_presence(&event.source.to_string(), &event.payload) =>
            {
                self.people.update(|p| apply_presence(p, &event.payload));
                // Someone came or went: ask again, for roles and channels too.
                self.refresh();
            }
            ReplicaEffect::Received(event)
                if event.event_type.as_str() == MEMBER_UPDATED
                    && is_the_network(&event.source.to_string()) =>
            {
                self.people.update(|p| apply_profile(p, &event.payload));
            }
            ReplicaEffect::Replied { request, reply }
                if self.discovering.get_value() == Some(*request) =>
            {
                let people = people_from(&reply.payload);
                self.chat.set_masters(
                    people
                        .iter()
                        .filter(|p| p.role == "master")
                        .map(|p| p.address.clone())
                        .collect(),
                );
                self.people.set(people);
                self.chat.set_channels(channels_from(&reply.payload));
                self.chat
                    .set_channel_titles(crate::chat::conversations::titles_from(&reply.payload));
            }
            _ => {}
        }
    }
}

/// The members in a discover answer's payload (`{agents: [...]}`), sorted by
/// address: read as the core's typed roster (nobody when it does not read).
pub fn people_from(payload: &Value) -> Vec<Person> {
    let roster: agentnet_core::model::payloads::Roster =
        agentnet_core::answers::read_payload(payload).unwrap_or_default();
    let mut people: Vec<Person> = roster
        .agents
        .iter()
        .map(|member| Person {
            address: member.address.to_string(),
            name: member.profile.name.clone(),
            picture: member.profile.picture.clone(),
            role: member.role.as_str().to_owned(),
            status: member.status.as_str().to_owned(),
            verification: u64::from(member.verification.level()),
            did: member.did.clone(),
            description: member.profile.description.clone(),
            tasks: member.profile.tasks,
            skills: roster
                .resources
                .iter()
                .filter(|r| r.owner == member.address)
                .filter_map(|r| Some((skill_of(&r.address)?.to_owned(), r.address.to_string())))
                .collect(),
        })
        .collect();
    for person in &mut people {
        sort_by(&mut person.skills, Ord::cmp);
    }
    sort_by(&mut people, |a, b| a.address.cmp(&b.address));
    people
}

/// True when `source` is the network itself (`core`, a mod).
fn is_the_network(source: &str) -> bool {
    source == "core" || source.starts_with("mod/")
}

/// Applies a `workspace.member.updated` payload (`{address, profile}`): the
/// member's new name and picture (checked again, as the core reads them).
pub fn apply_profile(people: &mut [Person], payload: &Value) {
    let (Some(address), Some(profile)) = (
        payload.get("address").and_then(Value::as_str),
        payload.get("profile"),
    ) else {
        return;
    };
    // Read within the profile's limits, as the network stores it.
    let Ok(profile) = agentnet_core::model::profile::Profile::from_value(profile) else {
        return;
    };
    if let Some(person) = people.iter_mut().find(|p| p.address == address) {
        person.name = profile.name;
        person.picture = profile.picture;
        person.description = profile.description;
    }
}

/// True when a `workspace.presence.changed` from `source` may be believed:
/// the network says it (`core`, a mod), or a member says it of itself.
pub fn trusts_presence(source: &str, payload: &Value) -> bool {
    is_the_network(source) || payload.get("address").and_then(Value::as_str) == Some(source)
}

/// Applies a `workspace.presence.changed` payload (`{address, status}`).
pub fn apply_presence(people: &mut Vec<Person>, payload: &Value) {
    let Ok(PresenceChanged { address, status }) = PresenceChanged::deserialize(payload) else {
        return;
    };
    let (address, status) = (address.to_string(), status.as_str());
    match people.iter_mut().find(|p| p.address == address) {
        Some(person) => person.status = status.to_owned(),
        None => {
            people.push(Person {
                address: address.to_owned(),
                name: None,
                picture: None,
                role: "member".into(),
                status: status.to_owned(),
                verification: 0,
                did: None,
                description: None,
                skills: Vec::new(),
                tasks: None,
            });
            sort_by(people, |a, b| a.address.cmp(&b.address));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_member_shows_its_description_and_the_skills_it_shares() {
        let people = people_from(&json!({
            "agents": [
                {"address": "agent:rev", "role": "member", "status": "online", "verification": 0,
                 "profile": {"description": "reviews changes", "tasks": false}},
                {"address": "agent:other", "role": "member", "status": "online", "verification": 0}
            ],
            "resources": [
                {"address": "resource/context/review.SKILL.md", "owner": "agent:rev", "type": "context"},
                {"address": "resource/context/audit.skill.md", "owner": "agent:rev", "type": "context"},
                {"address": "resource/context/notes", "owner": "agent:rev", "type": "context"},
                {"address": "resource/context/plan.SKILL.md", "owner": "agent:other", "type": "context"}
            ]
        }));
        let rev = &people[1];
        assert_eq!(rev.description.as_deref(), Some("reviews changes"));
        assert_eq!((rev.tasks, people[0].tasks), (Some(false), None));
        assert_eq!(
            rev.skills,
            vec![
                (
                    "audit".to_owned(),
                    "resource/context/audit.skill.md".to_owned()
                ),
                (
                    "review".to_owned(),
                    "resource/context/review.SKILL.md".to_owned()
                ),
            ]
        );
        assert_eq!(people[0].skills.len(), 1);
        assert_eq!(people[0].description, None);
    }

    #[test]
    fn discover_answers_and_presence_changes_update_the_people() {
        let mut people = people_from(&json!({"agents": [
            {"address": "human:zoe", "role": "member", "status": "online", "verification": 0},
            {"address": "agent:echo", "role": "master", "status": "online", "verification": 3,
             "did": "did:wba:example.com:agents:echo"},
            {"role": "member"}
        ]}));
        assert_eq!(people.len(), 2);
        assert_eq!(people[0].address, "agent:echo");
        assert_eq!(people[0].verification, 3);
        assert_eq!(
            people[0].did.as_deref(),
            Some("did:wba:example.com:agents:echo")
        );
        assert_eq!(people[1].did, None);
        apply_presence(
            &mut people,
            &json!({"address": "agent:echo", "status": "offline"}),
        );
        assert_eq!(people[0].status, "offline");
        apply_presence(
            &mut people,
            &json!({"address": "agent:new", "status": "online"}),
        );
        assert_eq!(
            people
                .iter()
                .map(|p| p.address.as_str())
                .collect::<Vec<_>>(),
            ["agent:echo", "agent:new", "human:zoe"]
        );
        apply_presence(&mut people, &json!({"nonsense": true}));
        assert_eq!(people.len(), 3);
    }

    #[test]
    fn a_new_name_from_the_network_renames_the_member() {
        let mut people = people_from(&json!({"agents": [
            {"address": "human:guest-1", "role": "member", "status": "online", "verification": 0,
             "profile": {"name": "Ada"}}
        ]}));
        assert_eq!(people[0].shown_name(), "Ada");
        apply_profile(
            &mut people,
            &json!({"address": "human:guest-1", "profile": {"name": "Ada L.", "picture": "data:image/png;base64,AAAA"}}),
        );
        assert_eq!(people[0].shown_name(), "Ada L.");
        assert_eq!(
            people[0].picture.as_deref(),
            Some("data:image/png;base64,AAAA")
        );
        // A name the core would refuse is not shown.
        apply_profile(
            &mut people,
            &json!({"address": "human:guest-1", "profile": {"name": "a\u{202e}b"}}),
        );
        assert_eq!(people[0].shown_name(), "Ada L.");
        apply_profile(
            &mut people,
            &json!({"address": "human:guest-1", "profile": {}}),
        );
        assert_eq!(people[0].shown_name(), "guest-1");
    }

    #[test]
    fn presence_is_believed_from_the_network_or_the_member_itself() {
        let about_echo = json!({"address": "agent:echo", "status": "offline"});
        assert!(trusts_presence("mod/workspace", &about_echo));
        assert!(trusts_presence("core", &about_echo));
        assert!(trusts_presence("agent:echo", &about_echo));
        assert!(!trusts_presence("agent:eve", &about_echo));
    }
}
