//! The discovery routes driven as HTTP requests against a registry with real key proofs.

use super::*;
use crate::discovery::feed::Op;
use crate::identity::aic::AicIssuer;
use crate::identity::registry::AgentRecord;
use crate::identity::registry::{Action, RegistryConfig, acs_digest, sign_proof};

const NOW: u64 = 1_764_000_000_000;
const ORIGIN: &str = "http://localhost:8787";
const SECRET: [u8; 32] = [9; 32];

fn world() -> (Registry, Catalog) {
    let config = RegistryConfig {
        issuer: ORIGIN.into(),
        host: "localhost:8787".into(),
        aic: AicIssuer::new("0001", "00AGN").unwrap_or_default(),
        token_ttl_secs: 300,
    };
    (Registry::new(config, [7; 32]), Catalog::new(100))
}

fn request(method: Method, path: &str, body: &Value) -> Request {
    Request::new(method, format!("{ORIGIN}{path}")).with_body(body.to_string())
}

/// A route's response and the change it records, if any.
type Reply = (Response, Option<(Change, Vec<u64>)>);

fn reply(answer: Answer) -> Reply {
    match answer {
        Answer::Reply(reply) => (reply.response, reply.change),
        Answer::Fetch { url } => (Response::text(url).with_status(0), None),
    }
}

fn get(r: &mut Registry, c: &mut Catalog, path: &str) -> Response {
    reply(handle(
        r,
        c,
        &request(Method::Get, path, &Value::Null),
        || "id".into(),
        Timestamp::from(NOW),
    ))
    .0
}

/// The `field` of the JSON body `path` answers with.
fn field_of(r: &mut Registry, c: &mut Catalog, path: &str, field: &str) -> Option<Value> {
    get(r, c, path).json_body().map(|b| b[field].clone())
}

/// Posts `body` to `path`; new ids are `id`.
fn post(r: &mut Registry, c: &mut Catalog, path: &str, body: &Value, id: &str) -> Reply {
    reply(handle(
        r,
        c,
        &request(Method::Post, path, body),
        || id.into(),
        Timestamp::from(NOW),
    ))
}

/// Publishes `document` as `tr`'s ACS, proven with `key` over a fresh challenge `nonce`.
fn publish(
    r: &mut Registry,
    c: &mut Catalog,
    key: &[u8; 32],
    nonce: &str,
    document: &Value,
) -> Reply {
    r.challenge("tr", nonce.into(), Timestamp::from(NOW)).ok();
    let proof = sign_proof(key, Action::PublishAcs, "tr", nonce, &acs_digest(document));
    let body = json!({"acs": document, "nonce": nonce, "signature": proof});
    post(r, c, "/registry/v1/agents/tr/acs", &body, "i")
}

/// Registers `name` through the registry's routes, as the object does (recording its change).
fn register(r: &mut Registry, c: &mut Catalog, name: &str, acs: Option<Value>) -> AgentRecord {
    let public = hex(&crate::verification::public_key_of(&SECRET));
    r.challenge(name, format!("n-{name}"), Timestamp::from(NOW))
        .ok();
    let signature = sign_proof(
        &SECRET,
        Action::Register,
        name,
        &format!("n-{name}"),
        &public,
    );
    let mut body = json!({"name": name, "public_key": public, "nonce": format!("n-{name}"), "signature": signature});
    if let Some(acs) = acs {
        body["acs"] = acs;
    }
    let req = request(Method::Post, "/registry/v1/agents", &body);
    let (response, record) =
        super::super::registry::handle(r, &req, || "x".into(), Timestamp::from(NOW));
    assert_eq!(response.status, 201, "{:?}", response.body);
    let record = record.unwrap_or_else(|| AgentRecord {
        name: String::new(),
        aic: String::new(),
        serial: 0,
        keys: vec![],
        acs: None,
        registered_at: Timestamp::EPOCH,
        revoked_at: None,
    });
    c.agent_changed(record.to_json(r.config()), true, Timestamp::from(NOW));
    record
}

fn hex(bytes: &[u8]) -> String {
    crate::crypto::to_hex(bytes)
}

fn acs(name: &str, skill: &str, description: &str) -> Value {
    let mut acs = crate::discovery::acs::tests_sample();
    acs["name"] = json!(name);
    acs["description"] = json!(description);
    acs["skills"][0]["id"] = json!(skill);
    acs["skills"][0]["name"] = json!(skill);
    acs["skills"][0]["description"] = json!(format!("does {skill}"));
    acs["skills"][0]["tags"] = json!([skill]);
    acs
}

#[test]
fn registration_checks_the_acs_and_it_is_served_and_searchable() {
    let (mut r, mut c) = world();
    let mut bad = acs("Bad", "x", "y");
    bad["endPoints"][0]["transport"] = json!("GRPC");
    let req = request(
        Method::Post,
        "/registry/v1/agents",
        &json!({"name": "bad", "public_key": "00", "nonce": "n", "signature": "s", "acs": bad}),
    );
    let (refused, _) =
        super::super::registry::handle(&mut r, &req, || "x".into(), Timestamp::from(NOW));
    assert_eq!(refused.status_and_code(), (400, "invalid_request"));
    assert_eq!(
        refused.json_body().map(|b| b["reason"].clone()),
        Some(json!("acs_invalid_value"))
    );

    let helper = register(
        &mut r,
        &mut c,
        "helper",
        Some(acs("Helper", "chat", "can do translation sometimes")),
    );
    let polyglot = register(
        &mut r,
        &mut c,
        "polyglot",
        Some(acs("Polyglot", "translation", "languages")),
    );
    register(&mut r, &mut c, "plain", None);
    let acs_path = format!("/registry/v1/agents/{}/acs", polyglot.aic);
    let served = field_of(&mut r, &mut c, &acs_path, "aic");
    assert_eq!(served, Some(json!(polyglot.aic)));
    let found = get(
        &mut r,
        &mut c,
        "/registry/v1/discover?q=translation&limit=5",
    );
    let agents = found
        .json_body()
        .map(|b| b["agents"].clone())
        .unwrap_or_default();
    let order: Vec<&str> = agents
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["aic"].as_str())
        .collect();
    assert_eq!(order, [polyglot.aic.as_str(), helper.aic.as_str()]);
    assert_eq!(agents[0]["endpoints"][0]["transport"], "JSONRPC");
    assert_eq!(
        get(&mut r, &mut c, "/registry/v1/discover?limit=x").status,
        400
    );
}

#[test]
fn publishing_a_new_acs_needs_the_key_and_records_a_change() {
    let (mut r, mut c) = world();
    let record = register(&mut r, &mut c, "tr", None);
    let document = acs("Translator", "translate", "words");
    let (refused, change) = publish(&mut r, &mut c, &[1; 32], "p1", &document);
    assert_eq!((refused.status, change.is_none()), (403, true));
    let (done, change) = publish(&mut r, &mut c, &SECRET, "p2", &document);
    assert_eq!(done.status, 200);
    let change = change.map(|(c, _)| (c.op, c.version, c.id));
    assert_eq!(change, Some((Op::Upsert, 2, record.aic.clone())));
    let ad_path = format!("/registry/v1/agents/{}/ad.json", record.aic);
    let name = field_of(&mut r, &mut c, &ad_path, "name");
    assert_eq!(name, Some(json!("Translator")));
}

#[test]
fn the_feed_answers_ndjson_204_and_410() {
    let (mut r, _) = world();
    let mut c = Catalog::new(2);
    for name in ["a1", "a2", "a3"] {
        register(&mut r, &mut c, name, None);
    }
    let snapshot = get(&mut r, &mut c, "/registry/v1/snapshot?types=acs&limit=2");
    assert_eq!(snapshot.header("X-Snapshot-Seq"), Some("3"));
    assert_eq!(snapshot.header("Content-Type"), Some(NDJSON));
    let next = snapshot.header("X-Snapshot-Next").unwrap_or_default();
    let rest = get(
        &mut r,
        &mut c,
        &format!("/{}", next.trim_start_matches('/')),
    );
    assert!(matches!(&rest.body, super::super::message::Body::Text(t) if t.lines().count() == 1));
    assert_eq!(
        get(&mut r, &mut c, "/registry/v1/snapshot?types=other").status,
        400
    );
    let nothing = get(&mut r, &mut c, "/registry/v1/changes?seq=3");
    assert_eq!(
        (nothing.status, nothing.header("X-Next-Seq")),
        (204, Some("3"))
    );
    let some = get(&mut r, &mut c, "/registry/v1/changes?seq=1");
    assert_eq!((some.status, some.header("X-Next-Seq")), (200, Some("3")));
    let gone = get(&mut r, &mut c, "/registry/v1/changes?seq=0");
    assert_eq!(gone.status, 410);
    assert_eq!(
        gone.json_body().map(|b| b["reason"].clone()),
        Some(json!("behind_retention"))
    );
}

#[test]
fn webhooks_are_created_and_deleted() {
    let (mut r, mut c) = world();
    let loopback = json!({"url": "http://127.0.0.1:9/hook", "secret": "0123456789abcdef"});
    let (refused, _) = post(&mut r, &mut c, "/registry/v1/webhooks", &loopback, "abc");
    assert_eq!(
        refused.json_body().map(|b| b["reason"].clone()),
        Some(json!("url_private_address"))
    );
    assert!(c.webhooks.is_empty());
    c.outbound = crate::outbound::OutboundPolicy::allowing(["127.0.0.1"]);
    let body = json!({"url": "http://127.0.0.1:9/hook", "secret": "0123456789abcdef", "types": ["acs"], "events": ["upsert"]});
    let (created, _) = post(&mut r, &mut c, "/registry/v1/webhooks", &body, "abc");
    assert_eq!(
        created.json_body().cloned(),
        Some(json!({"webhook_id": "wh_abc", "status": "active"}))
    );
    assert_eq!(c.webhooks.len(), 1);
    let delete = request(
        Method::Other("DELETE".into()),
        "/registry/v1/webhooks/wh_abc",
        &Value::Null,
    );
    assert_eq!(
        reply(handle(
            &mut r,
            &mut c,
            &delete,
            || "x".into(),
            Timestamp::from(NOW)
        ))
        .0
        .status,
        200
    );
    assert!(c.webhooks.is_empty());
}

#[test]
fn the_well_known_collection_pages_and_passive_registration_lists() {
    let (mut r, mut c) = world();
    for i in 0..3 {
        register(&mut r, &mut c, &format!("ag{i}"), None);
    }
    let url = "http://127.0.0.1:9/ad.json";
    let fetch = handle(
        &mut r,
        &mut c,
        &request(
            Method::Post,
            "/registry/v1/descriptions",
            &json!({"url": url}),
        ),
        || "x".into(),
        Timestamp::from(NOW),
    );
    assert_eq!(fetch, Answer::Fetch { url: url.into() });
    let doc = json!({"protocolType": "ANP", "type": "AgentDescription", "name": "Outside", "did": "did:wba:localhost%3A9:o"});
    assert_eq!(
        did_document_url(&doc).as_deref(),
        Some("http://localhost:9/o/did.json")
    );
    assert_eq!(submitted(&mut c, url, &doc, None).status, 400);
    let wrong = json!({"id": "did:wba:elsewhere"});
    assert_eq!(submitted(&mut c, url, &doc, Some(&wrong)).status, 400);
    let did_doc = json!({"id": "did:wba:localhost%3A9:o"});
    assert_eq!(submitted(&mut c, url, &doc, Some(&did_doc)).status, 201);
    let mut seen = Vec::new();
    let mut path = "/.well-known/agent-descriptions?limit=2".to_owned();
    loop {
        let page = get(&mut r, &mut c, &path)
            .json_body()
            .cloned()
            .unwrap_or_default();
        seen.extend(
            page["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|i| i["@id"].as_str().map(str::to_owned)),
        );
        match page["next"].as_str() {
            Some(next) => path = next.trim_start_matches(ORIGIN).to_owned(),
            None => break,
        }
    }
    assert_eq!(seen.len(), 4);
    assert_eq!(seen.last().map(String::as_str), Some(url));
}
