//! Files of real size over HTTP (`bindings::http::files`), with the test host as
//! the storage: an upload that loses a part goes on from what is missing,
//! completes into a resource, and only members who may read it get the bytes.

use super::world::World;
use super::{get, post, with_token};
use crate::NetworkConfig;
use crate::bindings::http::files::{self, FilePlan, FileRoute};
use crate::bindings::route::{NetworkRoute, network_route};
use crate::bindings::step::Step;
use crate::bindings::{Method, Request, Response};
use crate::files::{FileState, PART_BYTES};
use crate::model::config::{ModConfig, WorkspaceSettings};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Bytes kept by part, as object storage keeps them until completion.
#[derive(Default)]
struct Storage {
    parts: BTreeMap<(String, u16), Vec<u8>>,
    objects: BTreeMap<String, Vec<u8>>,
}

fn world() -> World {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.mods = vec![ModConfig::Workspace(WorkspaceSettings::default())];
    World::with_config(config)
}

fn route_of(req: &Request) -> FileRoute {
    match network_route(req) {
        Some(NetworkRoute::Files(route)) => route,
        other => panic!("not a files route: {other:?}"),
    }
}

/// Plays the edge: decides with the binding, does the storage work, answers.
fn call(w: &mut World, storage: &mut Storage, req: &Request, body: &[u8]) -> Response {
    w.host.now += 1;
    let route = route_of(req);
    let Ok(step) = files::plan(&mut w.host, &w.network, req, &route, body.len() as u64);
    let plan = match step {
        Step::Answer(answer) => return answer,
        Step::Go(plan) => plan,
    };
    let answer = match plan {
        FilePlan::Begin(mut file) => {
            if let FileState::Uploading { upload_id, .. } = &mut file.state {
                *upload_id = "u1".into();
            }
            files::begun(&mut w.host, &file)
        }
        FilePlan::Part { file, number } => {
            storage
                .parts
                .insert((file.id.to_string(), number), body.to_vec());
            let etag = format!("etag-{number}-{}", body.len());
            files::part_stored(&mut w.host, &file.id, number, etag, body.len() as u64)
        }
        FilePlan::Complete { file, parts } => {
            let mut whole = Vec::new();
            for (number, _) in &parts {
                whole.extend(
                    storage
                        .parts
                        .remove(&(file.id.to_string(), *number))
                        .unwrap(),
                );
            }
            storage.objects.insert(file.id.to_string(), whole);
            files::completed(&mut w.host, &mut w.network, file)
        }
        FilePlan::Content { file, headers } => {
            let bytes = storage
                .objects
                .get(file.id.as_str())
                .cloned()
                .unwrap_or_default();
            let mut answer = Response::json(json!({"bytes": bytes.len(), "first": bytes.first()}));
            for (name, value) in headers {
                answer = answer.with_header(&name, &value);
            }
            Ok(answer)
        }
    };
    let Ok(answer) = answer;
    answer
}

fn body(response: &Response) -> Value {
    response.json_body().cloned().unwrap_or(Value::Null)
}

fn put(rest: &str) -> Request {
    Request::new(
        Method::Other("PUT".into()),
        format!("{}{rest}", super::BASE),
    )
}

#[test]
fn an_upload_survives_a_lost_part_and_only_readers_fetch_the_file() {
    let mut w = world();
    let mut storage = Storage::default();
    let ann = w.join("human:ann");
    let bob = w.join("human:bob");
    let size = 2 * PART_BYTES + 10;
    let begin =
        json!({"name": "cut.mp4", "mime": "video/mp4", "size": size, "conversation": "human:bob"});
    // No session, no upload.
    let anonymous = call(
        &mut w,
        &mut storage,
        &post("v1/files", &begin.to_string()),
        &[],
    );
    assert_eq!(anonymous.status, 401);
    let begun = call(
        &mut w,
        &mut storage,
        &with_token(post("v1/files", &begin.to_string()), &ann),
        &[],
    );
    assert_eq!(begun.status, 201, "{begun:?}");
    let file = body(&begun)["file"].as_str().unwrap().to_owned();
    assert_eq!(body(&begun)["missing"], json!([1, 2, 3]));
    let part = |n: u64| vec![n as u8; if n == 3 { 10 } else { PART_BYTES as usize }];
    // Parts 1 and 3 arrive; part 2's connection drops before it is stored.
    for n in [1, 3] {
        let sent = call(
            &mut w,
            &mut storage,
            &with_token(put(&format!("v1/files/{file}/parts/{n}")), &ann),
            &part(n),
        );
        assert_eq!(sent.status, 200, "{sent:?}");
    }
    let early = call(
        &mut w,
        &mut storage,
        &with_token(post(&format!("v1/files/{file}/complete"), ""), &ann),
        &[],
    );
    assert_eq!(
        (early.status, body(&early)["code"].as_str()),
        (400, Some("invalid_request"))
    );
    // The client asks what is missing, and sends only that.
    let status = call(
        &mut w,
        &mut storage,
        &with_token(get(&format!("v1/files/{file}")), &ann),
        &[],
    );
    assert_eq!(body(&status)["missing"], json!([2]));
    // Someone else cannot see or add to the upload.
    let meddling = call(
        &mut w,
        &mut storage,
        &with_token(put(&format!("v1/files/{file}/parts/2")), &bob),
        &part(2),
    );
    assert_eq!(meddling.status, 404);
    let short = call(
        &mut w,
        &mut storage,
        &with_token(put(&format!("v1/files/{file}/parts/2")), &ann),
        &[1, 2, 3],
    );
    assert_eq!(short.status, 400);
    call(
        &mut w,
        &mut storage,
        &with_token(put(&format!("v1/files/{file}/parts/2")), &ann),
        &part(2),
    );
    let done = call(
        &mut w,
        &mut storage,
        &with_token(post(&format!("v1/files/{file}/complete"), ""), &ann),
        &[],
    );
    assert_eq!(done.status, 200, "{done:?}");
    let attachment = body(&done)["attachment"].clone();
    assert_eq!(attachment["size"], json!(size));
    assert_eq!(storage.objects[&file].len() as u64, size);
    // Completing again (the first answer lost) answers the same.
    let again = call(
        &mut w,
        &mut storage,
        &with_token(post(&format!("v1/files/{file}/complete"), ""), &ann),
        &[],
    );
    assert_eq!(body(&again)["attachment"], attachment);

    // Bob (the direct conversation) gets a link and the bytes; Eve does not.
    let eve = w.join("human:eve");
    let no_link = call(
        &mut w,
        &mut storage,
        &with_token(post(&format!("v1/files/{file}/link"), ""), &eve),
        &[],
    );
    assert_eq!(no_link.status, 404);
    let link = call(
        &mut w,
        &mut storage,
        &with_token(post(&format!("v1/files/{file}/link"), ""), &bob),
        &[],
    );
    let url = body(&link)["url"].as_str().unwrap().to_owned();
    assert!(
        url.starts_with(&format!(
            "/networks/demo/v1/files/{file}/content?member=human%3Abob&"
        )),
        "{url}"
    );
    let fetch = |w: &mut World, storage: &mut Storage, url: &str| {
        let req = Request::new(Method::Get, format!("https://edge.test{url}"));
        call(w, storage, &req, &[])
    };
    let fetched = fetch(&mut w, &mut storage, &url);
    assert_eq!(body(&fetched)["bytes"], json!(size));
    let disposition = fetched.header("Content-Disposition").unwrap_or_default();
    assert!(disposition.contains("cut.mp4"));
    // Without the link's signature, with it changed, or after it expired: refused.
    let bare = fetch(
        &mut w,
        &mut storage,
        &format!("/networks/demo/v1/files/{file}/content"),
    );
    assert_eq!(bare.status, 401);
    let forged = fetch(
        &mut w,
        &mut storage,
        &url.replace("human%3Abob", "human%3Aeve"),
    );
    assert_eq!(forged.status, 403);
    w.host.now += crate::files::link::LINK_TTL_MS;
    assert_eq!(fetch(&mut w, &mut storage, &url).status, 403);
}

#[test]
fn routes_under_v1_files_are_read_once() {
    let id = "0123456789abcdef0123456789abcdef";
    for (req, expected) in [
        (post("v1/files", "{}"), FileRoute::Begin),
        (
            get(&format!("v1/files/{id}")),
            FileRoute::Status(id.parse().unwrap()),
        ),
        (
            put(&format!("v1/files/{id}/parts/7")),
            FileRoute::Part(id.parse().unwrap(), 7),
        ),
        (
            post(&format!("v1/files/{id}/complete"), ""),
            FileRoute::Complete(id.parse().unwrap()),
        ),
        (
            get(&format!("v1/files/{id}/content?member=a")),
            FileRoute::Content(id.parse().unwrap()),
        ),
        (get("v1/files"), FileRoute::WrongMethod),
        (get("v1/files/../../etc"), FileRoute::Unknown),
        (get("v1/files/nothex"), FileRoute::Unknown),
    ] {
        assert_eq!(route_of(&req), expected, "{}", req.path());
    }
    assert!(!matches!(
        network_route(&get("v1/filesystem")),
        Some(NetworkRoute::Files(_))
    ));
}
