//! The directory's decisions: routes, creation limits, listing caps and pages.

use super::*;
use proptest::prelude::*;

fn at(method: Method, path: &str) -> Request {
    Request::new(method, format!("https://directory{path}"))
}

#[test]
fn the_directory_routes_admit_register_and_list() {
    for (method, path, route) in [
        (Method::Post, "/admit", DirectoryRoute::Admit),
        (Method::Post, "/register", DirectoryRoute::Register),
        (Method::Post, "/unregister", DirectoryRoute::Unregister),
        (Method::Get, "/list?limit=2", DirectoryRoute::List),
    ] {
        assert_eq!(directory_route(&at(method, path)), Ok(route), "{path}");
    }
    assert_eq!(
        directory_route(&at(Method::Get, "/x"))
            .unwrap_err()
            .status_and_code(),
        (404, "not_found")
    );
}

#[test]
fn a_settings_change_registers_a_public_network_and_unregisters_a_private_one() {
    let (url, body) = settings_update("n1", "Team", Some("We plan launches"), true);
    assert_eq!(url, DIRECTORY_REGISTER);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        body,
        json!({"id": "n1", "name": "Team", "description": "We plan launches", "creator": "admin:n1"})
    );
    let (_, body) = settings_update("n1", "Team", Some(&"é".repeat(400)), true);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        body["description"].as_str().unwrap().chars().count(),
        MAX_LISTED_DESCRIPTION,
        "a long description is cut at a character boundary"
    );
    let (url, body) = settings_update("n1", "Team", None, false);
    assert_eq!(
        (url, body.as_str()),
        (DIRECTORY_UNREGISTER, r#"{"id":"n1"}"#)
    );
}

#[test]
fn a_creator_past_the_hourly_limit_is_told_when_to_retry() {
    let limits = CreationLimits {
        per_hour: 3,
        listed_per_creator: 2,
    };
    let now = 10_000_000;
    let recent = |count, oldest_at: Option<u64>| RecentCreations {
        count,
        oldest_at: oldest_at.map(Timestamp::from_millis),
    };
    assert!(admit(recent(0, None), limits, Timestamp::from(now)).is_ok());
    assert!(admit(recent(2, Some(now - 1000)), limits, Timestamp::from(now)).is_ok());
    let refused = admit(
        recent(3, Some(now - CREATION_WINDOW_MS + 90_500)),
        limits,
        Timestamp::from(now),
    )
    .unwrap_err();
    assert_eq!(refused.status_and_code(), (429, "rate_limited"));
    // The oldest creation leaves the window in 90.5 s: retry in 91.
    assert!(
        refused
            .headers
            .contains(&("retry-after".into(), "91".into()))
    );
    // A creator is never told to retry in 0 seconds.
    let edge = admit(
        recent(3, Some(now - CREATION_WINDOW_MS)),
        limits,
        Timestamp::from(now),
    )
    .unwrap_err();
    assert!(edge.headers.contains(&("retry-after".into(), "1".into())));

    assert!(may_list(1, limits));
    assert!(!may_list(2, limits));
}

#[test]
fn limits_come_from_the_deployment_or_keep_their_defaults() {
    let defaults = CreationLimits::default();
    assert_eq!(CreationLimits::from_vars(None, None), defaults);
    assert_eq!(
        CreationLimits::from_vars(Some(" 5 "), Some("0")),
        CreationLimits {
            per_hour: 5,
            listed_per_creator: defaults.listed_per_creator
        }
    );
    assert_eq!(CreationLimits::from_vars(Some("lots"), None), defaults);
}

#[test]
fn creators_are_keyed_by_a_hash_of_their_address() {
    let from = |ip: &str| {
        creator_of(&at(Method::Post, "/v1/networks").with_header("cf-connecting-ip", ip))
    };
    assert_eq!(from("192.0.2.1"), from("192.0.2.1"));
    assert_ne!(from("192.0.2.1"), from("192.0.2.2"));
    assert!(!from("192.0.2.1").contains("192.0.2.1"));
    assert_eq!(creator_of(&at(Method::Post, "/v1/networks")).len(), 64);
}

#[test]
fn the_listing_pages_with_a_cursor() {
    let row = |id: &str, created: i64| json!({"id": id, "name": id, "created": created});
    let page = listing(
        &[row("c", 30), row("b", 20), row("a", 20)],
        2,
        "https://edge.test",
    );
    let body = page.json_body().unwrap();
    assert_eq!(body["networks"].as_array().unwrap().len(), 2);
    assert_eq!(body["networks"][0]["description"], "", "none stored: empty");
    let described = listing(
        &[json!({"id": "d", "name": "D", "description": "a team", "created": 1})],
        2,
        "https://edge.test",
    );
    assert_eq!(
        described.json_body().unwrap()["networks"][0]["description"],
        "a team"
    );
    assert_eq!(
        body["networks"][1]["profile"],
        "https://edge.test/networks/b/v1/profile"
    );
    assert_eq!(body["next"], "20.b");

    let last = listing(&[row("a", 20)], 2, "https://edge.test");
    assert_eq!(last.json_body().unwrap()["next"], Value::Null);

    let query = list_query(&at(Method::Get, "/v1/networks?limit=2&before=20.b")).unwrap();
    assert_eq!(
        query,
        ListQuery {
            limit: 2,
            before: Some(Cursor {
                created: 20,
                id: "b".into()
            })
        }
    );
    assert_eq!(
        list_url(&query),
        "https://directory/list?limit=2&before=20.b"
    );
    assert_eq!(
        list_query(&at(Method::Get, "/v1/networks")).unwrap(),
        ListQuery {
            limit: DEFAULT_PAGE,
            before: None
        }
    );
    for bad in [
        "limit=0",
        "limit=501",
        "limit=x",
        "before=nope",
        "before=x.a",
    ] {
        let refused = list_query(&at(Method::Get, &format!("/v1/networks?{bad}"))).unwrap_err();
        assert_eq!(refused.status_and_code(), (400, "invalid_request"), "{bad}");
    }
}

proptest! {
    /// Any cursor a page gives back reads as the same cursor.
    #[test]
    fn a_cursor_survives_its_round_trip(created in any::<i64>(), id in "[a-z0-9_-]{1,64}") {
        let cursor = Cursor { created, id };
        prop_assert_eq!(Cursor::parse(&cursor.render()), Some(cursor));
    }

    /// The query reader never panics on any text.
    #[test]
    fn list_queries_never_panic(text in ".{0,80}") {
        let _ = list_query(&at(Method::Get, &format!("/v1/networks?{text}")));
    }
}
