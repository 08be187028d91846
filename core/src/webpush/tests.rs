//! Web Push: the RFC 8291 example, round trips, VAPID tokens, subscriptions
//! and the notification rule.

use super::ece::{MAX_PLAINTEXT, decrypt, encrypt};
use super::keys::{Receiver, b64url, from_b64url, public_point, secret_key};
use super::recipients::{Facts, Reason, notices};
use super::request::{Delivery, Fresh, build, delivery_of};
use super::subscription::Subscription;
use super::vapid::VapidKey;
use crate::Timestamp;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
use crate::outbound::OutboundPolicy;
use p256::ecdsa::signature::Verifier;
use proptest::prelude::*;
use serde_json::{Value, json};

// RFC 8291 §5 and Appendix A.
const PLAINTEXT: &str = "When I grow up, I want to be a watermelon";
const AS_PRIVATE: &str = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
const AS_PUBLIC: &str =
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
const UA_PRIVATE: &str = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
const UA_PUBLIC: &str =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const SALT: &str = "DGv6ra1nlYgDCS1FRnbzlw";
const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";
const BODY: &str = concat!(
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml",
    "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT",
    "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
);

fn bytes<const N: usize>(text: &str) -> [u8; N] {
    from_b64url(text, "test").unwrap()
}

#[test]
fn encryption_gives_the_rfc_8291_example_byte_for_byte() {
    let receiver = Receiver::parse(UA_PUBLIC, AUTH).unwrap();
    let body = encrypt(
        PLAINTEXT.as_bytes(),
        &receiver,
        &bytes(AS_PRIVATE),
        &bytes(SALT),
    )
    .unwrap();
    assert_eq!(b64url(&body), BODY);
    // The sender's public key in the header is the RFC's.
    assert_eq!(b64url(&body[21..86]), AS_PUBLIC);
}

#[test]
fn the_rfc_8291_example_decrypts_with_the_receivers_key() {
    let body = super::keys::from_b64url::<144>(BODY, "body").unwrap();
    let plain = decrypt(&body, &bytes(UA_PRIVATE), &bytes(AUTH)).unwrap();
    assert_eq!(plain, PLAINTEXT.as_bytes());
    // Another auth secret, or a changed byte, does not decrypt.
    assert!(decrypt(&body, &bytes(UA_PRIVATE), &[0; 16]).is_err());
    let mut bent = body;
    bent[100] ^= 1;
    assert!(decrypt(&bent, &bytes(UA_PRIVATE), &bytes(AUTH)).is_err());
    assert!(decrypt(&bent[..40], &bytes(UA_PRIVATE), &bytes(AUTH)).is_err());
}

#[test]
fn too_large_a_notice_is_refused_and_the_largest_fits_4096_bytes() {
    let receiver = Receiver::parse(UA_PUBLIC, AUTH).unwrap();
    let most = vec![b'x'; MAX_PLAINTEXT];
    let body = encrypt(&most, &receiver, &bytes(AS_PRIVATE), &bytes(SALT)).unwrap();
    assert_eq!(body.len(), 4096);
    let over = vec![b'x'; MAX_PLAINTEXT + 1];
    assert!(encrypt(&over, &receiver, &bytes(AS_PRIVATE), &bytes(SALT)).is_err());
}

#[test]
fn bad_receiving_keys_are_refused() {
    assert!(Receiver::parse("not base64!", AUTH).is_err());
    assert!(
        Receiver::parse(&b64url(&[4; 65]), AUTH).is_err(),
        "not on the curve"
    );
    assert!(Receiver::parse(UA_PUBLIC, &b64url(&[1; 15])).is_err());
    assert!(format!("{:?}", Receiver::parse(UA_PUBLIC, AUTH).unwrap()).contains(UA_PUBLIC));
    assert!(!format!("{:?}", Receiver::parse(UA_PUBLIC, AUTH).unwrap()).contains(AUTH));
}

proptest! {
    #[test]
    fn what_is_encrypted_decrypts(
        plain in proptest::collection::vec(any::<u8>(), 0..MAX_PLAINTEXT),
        ua in any::<[u8; 32]>(),
        eph in any::<[u8; 32]>(),
        salt in any::<[u8; 16]>(),
        auth in any::<[u8; 16]>(),
    ) {
        // Almost every 32 bytes are a scalar; skip the rest.
        let (Ok(ua_secret), Ok(_)) = (secret_key(&ua, "ua"), secret_key(&eph, "eph")) else {
            return Ok(());
        };
        let receiver = Receiver::parse(&b64url(&public_point(&ua_secret.public_key())), &b64url(&auth)).unwrap();
        let body = encrypt(&plain, &receiver, &eph, &salt).unwrap();
        prop_assert_eq!(decrypt(&body, &ua, &auth).unwrap(), plain);
    }
}

fn claims_of(token: &str, key: &VapidKey) -> Value {
    let parts: Vec<&str> = token.split('.').collect();
    assert_eq!(parts.len(), 3);
    let public = from_b64url::<65>(&key.public_b64url(), "k").unwrap();
    let verifying = p256::ecdsa::VerifyingKey::from_sec1_bytes(&public).unwrap();
    let signature = p256::ecdsa::Signature::from_slice(
        &super::keys::from_b64url::<64>(parts[2], "sig").unwrap(),
    )
    .unwrap();
    verifying
        .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
        .expect("the token verifies with the public key");
    let header: Value = serde_json::from_slice(&base64_decode(parts[0])).unwrap();
    assert_eq!(header, json!({"typ": "JWT", "alg": "ES256"}));
    serde_json::from_slice(&base64_decode(parts[1])).unwrap()
}

fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .unwrap()
}

#[test]
fn a_vapid_token_is_es256_signed_for_the_audience_and_expires_within_a_day() {
    let key = VapidKey::from_secret_b64url(AS_PRIVATE).unwrap();
    assert_eq!(key.public_b64url(), AS_PUBLIC);
    let now = 1_700_000_000_000;
    let header = key.authorization(
        "https://push.example",
        Timestamp::from(now),
        Some("mailto:ops@example.com"),
    );
    let (token, k) = header
        .strip_prefix("vapid t=")
        .and_then(|rest| rest.split_once(", k="))
        .unwrap();
    assert_eq!(k, AS_PUBLIC);
    let claims = claims_of(token, &key);
    assert_eq!(claims["aud"], "https://push.example");
    assert_eq!(claims["sub"], "mailto:ops@example.com");
    let exp = claims["exp"].as_u64().unwrap();
    assert!(exp > now / 1000 && exp <= now / 1000 + 24 * 3600);
    // No secret in its debug form; a new key from a seed is a valid one.
    assert!(!format!("{key:?}").contains(AS_PRIVATE));
    let made = VapidKey::from_seed(&[7; 32]);
    let again = VapidKey::from_secret_b64url(&made.secret_b64url()).unwrap();
    assert_eq!(made.public_b64url(), again.public_b64url());
    assert!(VapidKey::from_secret_b64url(&b64url(&[0; 32])).is_err());
}

fn allow_local() -> OutboundPolicy {
    OutboundPolicy::allowing(["127.0.0.1"])
}

fn subscription(endpoint: &str) -> Value {
    json!({"endpoint": endpoint, "keys": {"p256dh": UA_PUBLIC, "auth": AUTH}})
}

#[test]
fn subscriptions_are_checked_by_the_outbound_policy_and_their_keys() {
    let strict = OutboundPolicy::strict();
    let good =
        Subscription::parse(&subscription("https://push.example/send/abc"), &strict).unwrap();
    assert_eq!(good.audience(), "https://push.example");
    let stored = good.to_json().to_string();
    assert_eq!(Subscription::restore(&stored, &strict), Some(good));
    let local = subscription("http://127.0.0.1:9/p");
    assert!(Subscription::parse(&local, &strict).is_err());
    assert_eq!(
        Subscription::parse(&local, &allow_local())
            .unwrap()
            .audience(),
        "http://127.0.0.1:9"
    );
    assert!(Subscription::parse(&json!({"endpoint": "https://push.example/x"}), &strict).is_err());
    assert!(Subscription::parse(&json!({"keys": {}}), &strict).is_err());
}

#[test]
fn a_push_request_carries_the_encrypted_notice_and_the_vapid_header() {
    let sub = Subscription::parse(&subscription("http://127.0.0.1:9/p"), &allow_local()).unwrap();
    let notice = super::Notice {
        to: "human:ann".parse().unwrap(),
        reason: Reason::Answer,
        title: "agent:bot answered you".into(),
        body: "42".into(),
        tag: "t".into(),
        path: "/n/net/with/agent:bot".into(),
    };
    let key = VapidKey::from_seed(&[9; 32]);
    let fresh = Fresh::from_bytes(&[5; 48]);
    let request = build(&notice, &sub, &key, None, Timestamp::from(1_000), &fresh).unwrap();
    assert_eq!(request.url, "http://127.0.0.1:9/p");
    let header = |name: &str| {
        request
            .headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(header("Content-Encoding"), Some("aes128gcm"));
    let token = header("Authorization")
        .unwrap()
        .strip_prefix("vapid t=")
        .unwrap();
    let token = token.split_once(", k=").unwrap().0;
    assert_eq!(claims_of(token, &key)["aud"], "http://127.0.0.1:9");
    let plain = decrypt(&request.body, &bytes(UA_PRIVATE), &bytes(AUTH)).unwrap();
    let sent: Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(sent["title"], "agent:bot answered you");
    assert_eq!(sent["url"], "/n/net/with/agent:bot");
    assert!(!format!("{request:?}").contains("vapid"));
    assert_eq!(delivery_of(201), Delivery::Sent);
    assert_eq!(delivery_of(410), Delivery::Gone);
    assert_eq!(delivery_of(404), Delivery::Gone);
    assert_eq!(delivery_of(500), Delivery::Failed);
}

struct World {
    masters: Vec<&'static str>,
    tasks: Vec<(&'static str, &'static str)>,
    authors: Vec<(EventId, &'static str)>,
}

impl Facts for World {
    fn network(&self) -> String {
        "net".into()
    }
    fn masters(&self) -> Vec<Address> {
        self.masters.iter().map(|m| m.parse().unwrap()).collect()
    }
    fn task_requester(&self, id: &str) -> Option<Address> {
        self.tasks
            .iter()
            .find(|(t, _)| *t == id)
            .map(|(_, r)| r.parse().unwrap())
    }
    fn author_of(&self, id: &EventId) -> Option<Address> {
        self.authors
            .iter()
            .find(|(e, _)| e == id)
            .map(|(_, a)| a.parse().unwrap())
    }
}

fn world() -> World {
    World {
        masters: vec!["human:boss", "human:ann"],
        tasks: vec![("t1", "human:ann")],
        authors: vec![(id(1), "human:ann"), (id(2), "agent:other")],
    }
}

fn id(n: u128) -> EventId {
    EventId::from_parts(1_700_000_000_000 + n as u64, n)
}

fn event(kind: &str, source: &str, target: &str, payload: Value, metadata: Value) -> Event {
    serde_json::from_value(json!({
        "id": id(99).to_string(), "type": kind, "source": source, "target": target,
        "payload": payload, "metadata": metadata, "timestamp": 5, "network": "net",
    }))
    .unwrap()
}

fn to_of(list: &[super::Notice]) -> Vec<String> {
    list.iter().map(|n| n.to.to_string()).collect()
}

#[test]
fn an_approval_notifies_its_approvers_or_else_the_masters() {
    let w = world();
    let asks = |target: &str, payload: Value| {
        let requested = event(
            "workspace.approval.requested",
            "agent:bot",
            target,
            payload,
            json!({}),
        );
        notices(&w, &requested)
    };
    let got = asks(
        "human:cy",
        json!({"approvers": ["human:cy", "human:dee", "human:cy", "agent:bot"], "action": {"summary": "Send the invoice?"}}),
    );
    assert_eq!(
        to_of(&got),
        ["human:cy", "human:dee"],
        "once each, never the asker"
    );
    assert_eq!(got[0].reason, Reason::Approval);
    assert_eq!(got[0].title, "agent:bot asks for your approval");
    assert_eq!(got[0].body, "Send the invoice?");
    assert_eq!(got[0].tag, format!("approval:{}", id(99)));
    assert_eq!(
        got[0].path,
        format!("/n/net/with/agent:bot?message={}", id(99))
    );
    let got = asks("channel/ops", json!({"approvers": []}));
    assert_eq!(to_of(&got), ["human:boss", "human:ann"]);
    assert!(got[0].path.starts_with("/n/net/channel/ops?message="));
    let direct = asks("human:dee", json!({"action": {"summary": "Pay?"}}));
    assert_eq!(to_of(&direct), ["human:dee"], "a direct request's person");
}

#[test]
fn a_task_notifies_its_requester_when_it_needs_input_or_ends() {
    let w = world();
    let update = |state: &str, source: &str| {
        event(
            "task.update",
            source,
            "human:ann",
            json!({"task": "t1", "state": state, "parts": [{"kind": "text", "text": "Which date?"}]}),
            json!({}),
        )
    };
    let asked = notices(&w, &update("awaiting-input", "agent:booker"));
    assert_eq!(to_of(&asked), ["human:ann"]);
    assert_eq!(asked[0].reason, Reason::TaskInput);
    assert_eq!(asked[0].title, "agent:booker needs your input on a task");
    assert_eq!(asked[0].body, "Which date?");
    assert_eq!(asked[0].path, "/n/net/tasks/t1");
    let done = notices(&w, &update("completed", "agent:booker"));
    assert_eq!(done[0].reason, Reason::TaskDone);
    assert_eq!(done[0].title, "agent:booker finished your task");
    assert!(notices(&w, &update("working", "agent:booker")).is_empty());
    // The requester's own update, and an unknown task, notify nobody.
    assert!(notices(&w, &update("completed", "human:ann")).is_empty());
    let unknown = event(
        "task.update",
        "agent:b",
        "human:ann",
        json!({"task": "t9", "state": "completed"}),
        json!({}),
    );
    assert!(notices(&w, &unknown).is_empty());
}

#[test]
fn an_agents_message_notifies_the_people_it_is_for() {
    let w = world();
    let posted = |source: &str, target: &str, payload: Value, metadata: Value| {
        notices(
            &w,
            &event(
                "workspace.message.posted",
                source,
                target,
                payload,
                metadata,
            ),
        )
    };
    // A direct message.
    let dm = posted(
        "agent:bot",
        "human:ann",
        json!({"content": "hello"}),
        json!({}),
    );
    assert_eq!(to_of(&dm), ["human:ann"]);
    assert_eq!(dm[0].title, "agent:bot wrote to you");
    assert_eq!(
        dm[0].tag,
        id(99).to_string(),
        "the page's own notification has the event id as tag"
    );
    assert_eq!(
        dm[0].path,
        format!("/n/net/with/agent:bot?message={}", id(99))
    );
    // An answer to a person's question, in a channel.
    let answer = posted(
        "agent:bot",
        "channel/general",
        json!({"content": "42", "answers": id(1).to_string()}),
        json!({}),
    );
    assert_eq!(to_of(&answer), ["human:ann"]);
    assert_eq!(answer[0].title, "agent:bot answered you");
    assert!(
        answer[0]
            .path
            .starts_with("/n/net/channel/general?message=")
    );
    // Mentions, in the metadata or the text; agents are not notified.
    let mention = posted(
        "agent:bot",
        "agent:broadcast",
        json!({"content": "@human:dee and @agent:other look"}),
        json!({"mentions": ["human:cy"]}),
    );
    assert_eq!(to_of(&mention), ["human:cy", "human:dee"]);
    assert_eq!(mention[0].title, "agent:bot mentioned you");
    // An answer to an agent's message, a person's message, plain talk: nobody.
    assert!(
        posted(
            "agent:bot",
            "channel/general",
            json!({"content": "ok", "answers": id(2).to_string()}),
            json!({})
        )
        .is_empty()
    );
    assert!(posted("human:cy", "human:ann", json!({"content": "hi"}), json!({})).is_empty());
    assert!(
        posted(
            "agent:bot",
            "channel/general",
            json!({"content": "news"}),
            json!({})
        )
        .is_empty()
    );
    // Other event types notify nobody.
    assert!(super::recipients::may_notify("workspace.message.posted"));
    assert!(!super::recipients::may_notify("workspace.reaction.added"));
    assert!(
        notices(
            &w,
            &event(
                "workspace.reaction.added",
                "agent:bot",
                "human:ann",
                json!({}),
                json!({})
            )
        )
        .is_empty()
    );
}

#[test]
fn a_long_text_is_cut_to_one_short_line() {
    let w = world();
    let long = "word ".repeat(100);
    let dm = notices(
        &w,
        &event(
            "workspace.message.posted",
            "agent:bot",
            "human:ann",
            json!({"content": long}),
            json!({}),
        ),
    );
    assert_eq!(dm[0].body.chars().count(), super::recipients::MAX_BODY);
    assert!(dm[0].body.ends_with('…') && !dm[0].body.contains('\n'));
}
