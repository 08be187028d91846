//! Reading requests: what each field kept, payloads that are no object,
//! nested objects, and the choices the task requests make.

use super::field::{AsSent, read};
use super::members::{Credentials, Join};
use super::tasks::{TaskArtifactAdd, TaskCreate, TaskParts};
use serde_json::{Value, json};

#[test]
fn a_field_keeps_what_was_sent() {
    let create: TaskCreate = read(&json!({"context": "c", "skill": 7, "confirm": null}));
    assert_eq!(create.context, AsSent::Given("c".to_owned()));
    assert_eq!(create.skill, AsSent::Wrong(json!(7)));
    assert_eq!(create.confirm, AsSent::Null);
    assert!(create.on_behalf_of.is_absent());
    assert_eq!(create.skill.clone().given(), None);
    assert_eq!(create.skill.checked(|| "wrong"), Err("wrong"));
    assert_eq!(create.confirm.checked(|| "wrong"), Ok(None));
}

#[test]
fn a_payload_or_a_nested_object_that_is_no_object_reads_as_empty() {
    for payload in [json!(["observer"]), json!("x"), Value::Null] {
        assert_eq!(read::<Join>(&payload), Join::default());
    }
    let listed = json!({"credentials": ["secret", "s"], "role": "observer"});
    assert_eq!(Credentials::of(&listed), Credentials::default());
    let given = json!({"credentials": {"invite": "abc", "token": 1}});
    let credentials = Credentials::of(&given);
    assert_eq!(credentials.invite.given().as_deref(), Some("abc"));
    assert_eq!(credentials.token, AsSent::Wrong(json!(1)));
}

#[test]
fn a_message_s_parts_come_before_an_artifact_s_and_the_payload_s() {
    let parts = |payload: Value| read::<TaskParts>(&payload).chosen();
    let text = json!({"text": "hi"});
    let listed = AsSent::Given(vec![text.as_object().cloned().unwrap_or_default()]);
    assert_eq!(
        parts(json!({"message": {"parts": [text]}, "parts": []})),
        listed
    );
    assert_eq!(
        parts(json!({"message": {"parts": null}, "parts": [text]})),
        AsSent::Null
    );
    assert_eq!(
        parts(json!({"message": [1], "artifact": {"parts": [text]}})),
        listed
    );
    assert_eq!(parts(json!({"message": {}, "parts": [text]})), listed);
    assert_eq!(parts(json!({"parts": [1]})), AsSent::Wrong(json!([1])));
}

#[test]
fn an_artifact_s_names_are_its_own_when_it_has_an_artifact() {
    let names = |payload: Value| read::<TaskArtifactAdd>(&payload).names();
    let own = names(json!({"artifact": {"name": "a.md"}, "name": "b", "id": "x"}));
    assert_eq!(
        (own.name.given(), own.id.given()),
        (Some("a.md".into()), None)
    );
    let flat = names(json!({"name": "b", "id": "x"}));
    assert_eq!(
        (flat.name.given(), flat.id.given()),
        (Some("b".into()), Some("x".into()))
    );
    let odd = names(json!({"artifact": "text", "name": "b"}));
    assert_eq!(odd.name.given(), None);
}

#[test]
fn a_field_tells_sent_from_given_and_quotes_serde_s_reason() {
    let create: TaskCreate = read(&json!({"context": "c", "skill": 7, "confirm": null}));
    assert_eq!(create.context.clone().sent(), Some(Some("c".to_owned())));
    assert_eq!(create.skill.clone().sent(), Some(None));
    assert_eq!(create.confirm.clone().sent(), Some(None));
    assert_eq!(create.confirm.clone().non_null().sent(), None);
    assert_eq!(create.on_behalf_of.clone().if_sent(), None);
    let reason = |field: AsSent<String>| field.parsed().map(|r| r.map_err(|e| e.to_string()));
    assert_eq!(reason(create.context), Some(Ok("c".to_owned())));
    assert_eq!(
        reason(create.skill),
        Some(Err(
            "invalid type: integer `7`, expected a string".to_owned()
        ))
    );
    assert_eq!(create.on_behalf_of.parsed().map(|r| r.is_ok()), None);
    let join: Join = read(&json!({"profile": null}));
    assert_eq!(join.profile.value(), Some(Value::Null));
    assert_eq!(Join::default().profile.value(), None);
}
