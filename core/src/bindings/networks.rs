//! The Worker's own routes, before a request reaches a network's object.
//!
//! * `POST /v1/networks` creates a network: the body gets a fresh `id` and
//!   goes to the object of that name ([`super::create`]); a public network is
//!   then registered in the directory;
//! * `GET /v1/networks` lists the directory's public networks;
//! * `/networks/{id}/…` goes to the object named `{id}`, and so do
//!   `/.well-known/oauth-protected-resource/networks/{id}/mcp` (its MCP
//!   endpoint's protected-resource metadata) and
//!   `/.well-known/oauth-authorization-server/networks/{id}` (its
//!   authorization server's metadata);
//! * a path under none of the Worker's own prefixes ([`WORKER_PREFIXES`]) is
//!   a static file of the workspace, served from the assets after the
//!   Worker checked the request's host and read its body;
//! * anything else is `not_found`.
//!
//! The directory and creation limits are [`super::directory`]'s.

use super::message::{Method, Request, Response};
use crate::event::Limits;
use crate::{ErrorCode, NetworkId};
use serde_json::{Value, json};

/// Where the Worker sends a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerRoute {
    /// `POST /v1/networks`.
    Create,
    /// `GET /v1/networks`.
    List,
    /// Forward the request as it is to the object of this network.
    Network(NetworkId),
    /// A static file of the workspace (`www/`), or its page for an app route.
    Asset,
}

/// The first path segments the Worker answers itself; every other path is a
/// static file (the registry's `/registry`, `/agents` and `/.well-known`
/// routes go to its object before this table is read).
pub const WORKER_PREFIXES: [&str; 5] = ["networks", "v1", "registry", "agents", ".well-known"];

/// The Worker's routing table.
pub fn route(req: &Request) -> Result<WorkerRoute, Response> {
    let path = req.path();
    if path == "/v1/networks" {
        return match req.method {
            Method::Post => Ok(WorkerRoute::Create),
            Method::Get => Ok(WorkerRoute::List),
            Method::Other(_) => Err(Response::error(
                ErrorCode::MethodNotAllowed,
                "use GET or POST",
            )),
        };
    }
    // The MCP endpoint's protected-resource metadata and the authorization
    // server's metadata belong to their network.
    let path = [
        super::mcp::access::METADATA_PREFIX,
        super::oauth::metadata::METADATA_PREFIX,
    ]
    .into_iter()
    .find_map(|prefix| path.strip_prefix(prefix))
    .filter(|rest| rest.starts_with("/networks/"))
    .unwrap_or(path);
    let mut segments = path.trim_start_matches('/').split('/');
    match (segments.next(), segments.next()) {
        (Some("networks"), Some(id)) => id.parse().map(WorkerRoute::Network).map_err(
            |err: crate::ids::network_id::NetworkIdError| {
                Response::error(ErrorCode::InvalidNetworkId, err.to_string())
            },
        ),
        (Some(first), _) if !WORKER_PREFIXES.contains(&first) => Ok(WorkerRoute::Asset),
        _ => Err(Response::error(
            ErrorCode::NotFound,
            format!("no route for {path}"),
        )),
    }
}

/// A creation to forward to the object named `id`.
#[derive(Debug, Clone, PartialEq)]
pub struct Creation {
    /// The new network's id (the object's name).
    pub id: String,
    /// The body for the object's [`super::http::CREATE_PATH`], with the id set.
    pub body: String,
    /// Whether to list the network once it exists.
    pub public: bool,
    /// The body that registers the network in the directory ([`super::directory::DIRECTORY_REGISTER`]).
    pub listing: String,
}

/// Reads a `POST /v1/networks` body and gives it the id `id`; `creator` is
/// [`super::directory::creator_of`] the request, for the directory's listing cap.
pub fn creation(text: &str, id: String, creator: &str) -> Result<Creation, Response> {
    // Unauthenticated: bounded like any frame before it is parsed (413), and
    // serde_json refuses nesting deeper than 128 levels.
    if text.len() > Limits::default().max_frame_bytes {
        return Err(Response::error(
            ErrorCode::TooLarge,
            "the body exceeds the frame limit",
        ));
    }
    let mut body: Value = serde_json::from_str(text)
        .map_err(|_| Response::error(ErrorCode::MalformedEvent, "the body is not JSON"))?;
    let Value::Object(object) = &mut body else {
        return Err(Response::error(
            ErrorCode::InvalidRequest,
            "the body is a JSON object",
        ));
    };
    object.insert("id".into(), json!(id));
    let public = object
        .get("public")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let name = object.get("name").cloned().unwrap_or(Value::Null);
    let description = object
        .get("description")
        .and_then(Value::as_str)
        .map(|d| super::directory::listed_description(d).to_owned());
    let listing =
        json!({"id": id, "name": name, "description": description, "creator": creator}).to_string();
    Ok(Creation {
        id,
        body: body.to_string(),
        public,
        listing,
    })
}

/// The status of the object's answer to a creation that succeeded.
pub const CREATED: u16 = 201;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_routes_creates_and_lists() {
        let at = |method, path: &str| Request::new(method, format!("https://edge.test{path}"));
        assert_eq!(
            route(&at(Method::Post, "/v1/networks")),
            Ok(WorkerRoute::Create)
        );
        assert_eq!(
            route(&at(Method::Get, "/v1/networks")),
            Ok(WorkerRoute::List)
        );
        let put = at(Method::Other("PUT".into()), "/v1/networks");
        assert_eq!(
            route(&put).unwrap_err().status_and_code(),
            (405, "method_not_allowed")
        );
        let ok = route(&at(Method::Get, "/networks/demo/v1/ws"));
        assert_eq!(ok, Ok(WorkerRoute::Network("demo".parse().unwrap())));
        for metadata in [
            "/.well-known/oauth-protected-resource/networks/demo/mcp",
            "/.well-known/oauth-authorization-server/networks/demo",
        ] {
            let ok = route(&at(Method::Get, metadata));
            assert_eq!(ok, Ok(WorkerRoute::Network("demo".parse().unwrap())));
        }
        let bad = route(&at(Method::Get, "/networks/Bad!/v1/ws"));
        assert_eq!(
            bad.unwrap_err().status_and_code(),
            (400, "invalid_network_id")
        );
        // Outside the Worker's own prefixes, a path is a static file.
        for asset in ["/", "/x", "/n/demo", "/pkg/agentnet-web.js", "/__create"] {
            assert_eq!(
                route(&at(Method::Get, asset)),
                Ok(WorkerRoute::Asset),
                "{asset}"
            );
        }
        for unknown in ["/v1/x", "/agents", "/registry/v9"] {
            let refused = route(&at(Method::Get, unknown)).unwrap_err();
            assert_eq!(refused.status_and_code(), (404, "not_found"), "{unknown}");
        }

        let made = creation(
            "{\"name\": \"n\", \"public\": true}",
            "abcd1234".into(),
            "c1",
        )
        .unwrap();
        assert!(made.public);
        let body: Value = serde_json::from_str(&made.body).unwrap();
        assert_eq!(body["id"], "abcd1234");
        let listed: Value = serde_json::from_str(&made.listing).unwrap();
        assert_eq!(
            listed,
            json!({"id": "abcd1234", "name": "n", "description": null, "creator": "c1"})
        );
        let described = creation(
            r#"{"name": "n", "description": "we plan"}"#,
            "a".into(),
            "c1",
        );
        let listed: Value = serde_json::from_str(&described.unwrap().listing).unwrap();
        assert_eq!(
            listed["description"], "we plan",
            "the listing shows the description"
        );
        assert_eq!(
            creation("[1]", "a".into(), "c1")
                .unwrap_err()
                .status_and_code(),
            (400, "invalid_request")
        );
        assert_eq!(
            creation("{", "a".into(), "c1")
                .unwrap_err()
                .status_and_code(),
            (400, "malformed_event")
        );
        // An unauthenticated body is bounded before it is parsed, and deep nesting is refused.
        let huge = format!("{{\"name\": \"{}\"}}", "x".repeat(2 * 1024 * 1024));
        assert_eq!(
            creation(&huge, "a".into(), "c1")
                .unwrap_err()
                .status_and_code(),
            (413, "too_large")
        );
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(
            creation(&deep, "a".into(), "c1")
                .unwrap_err()
                .status_and_code(),
            (400, "malformed_event")
        );
    }
}
