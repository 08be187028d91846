//! Tests of address parsing, display round trips and the parts' validators.

use super::*;
use crate::ids::network_id::NetworkIdError;
use proptest::prelude::*;

fn parse(s: &str) -> Address {
    s.parse().unwrap()
}

#[test]
fn every_entity_form_of_appendix_a() {
    let cases = [
        ("agent:charlie", "agent:charlie"),
        ("openagents:charlie123", "openagents:charlie123"),
        ("human:raphael@example.com", "human:raphael@example.com"),
        ("channel/general", "channel/general"),
        ("mod/persistence", "mod/persistence"),
        ("group/team-alpha", "group/team-alpha"),
        ("resource/tool/search_web", "resource/tool/search_web"),
        (
            "resource/file/docs/requirements.md",
            "resource/file/docs/requirements.md",
        ),
        (
            "resource/context/project-brief",
            "resource/context/project-brief",
        ),
        ("core", "core"),
        ("agent:broadcast", "agent:broadcast"),
        ("acme:agent-name", "acme:agent-name"),
    ];
    for (input, shown) in cases {
        assert_eq!(parse(input).to_string(), shown, "{input}");
        assert!(parse(input).is_local());
    }
    assert_eq!(*parse("core").entity(), Entity::Core);
    assert_eq!(*parse("agent:broadcast").entity(), Entity::Broadcast);
}

#[test]
fn bare_string_is_an_agent() {
    assert_eq!(parse("charlie"), parse("agent:charlie"));
    assert_eq!(parse("charlie").to_string(), "agent:charlie");
    assert_eq!(parse("broadcast"), Address::broadcast());
}

#[test]
fn scoping_splits_on_first_double_colon() {
    let a = parse("network123::agent:charlie");
    assert_eq!(a.scope(), &Scope::Network("network123".parse().unwrap()));
    assert_eq!(a.to_string(), "network123::agent:charlie");
    assert_eq!(a.to_local(), parse("agent:charlie"));
    assert_eq!(parse("local::channel/general"), parse("channel/general"));
    assert_eq!(
        "a::b::agent:c".parse::<Address>(),
        Err(AddressError::NameCharacter {
            kind: "agent",
            found: ':'
        })
    );
}

#[test]
fn precise_errors() {
    let err = |s: &str| s.parse::<Address>().unwrap_err();
    assert_eq!(err(""), AddressError::EmptyEntity);
    assert_eq!(err("net::"), AddressError::EmptyEntity);
    assert_eq!(err("agent:"), AddressError::EmptyName { kind: "agent" });
    assert_eq!(err("channel/"), AddressError::EmptyName { kind: "channel" });
    assert_eq!(err("bogus/x"), AddressError::UnknownKind("bogus".into()));
    assert_eq!(
        err("resource/disk/x"),
        AddressError::UnknownResourceType("disk".into())
    );
    assert_eq!(
        err("resource/file/a//b"),
        AddressError::PathSegment(String::new())
    );
    assert_eq!(
        err("resource/file/../x"),
        AddressError::PathSegment("..".into())
    );
    assert_eq!(
        err("Bad Net::core"),
        AddressError::Network(NetworkIdError::Character('B'))
    );
    assert_eq!(err("UPPER:x"), AddressError::Registrar("UPPER".into()));
    assert_eq!(
        err("agent:a b"),
        AddressError::NameCharacter {
            kind: "agent",
            found: ' '
        }
    );
    assert_eq!(
        err("did:openagents:x"),
        AddressError::Registrar("did".into())
    );
}

#[test]
fn uri_form() {
    assert_eq!(
        parse("agent:charlie").to_uri(),
        "openagents://local/agent:charlie"
    );
    let remote = parse("network123::resource/tool/search_web");
    assert_eq!(
        remote.to_uri(),
        "openagents://network123/resource/tool/search_web"
    );
    assert_eq!(Address::from_uri(&remote.to_uri()).unwrap(), remote);
    assert_eq!(
        Address::from_uri("openagents://network123/mod/persistence").unwrap(),
        parse("network123::mod/persistence")
    );
    assert_eq!(Address::from_uri("http://x/core"), Err(AddressError::Uri));
}

#[test]
fn did_mapping() {
    let a = parse("openagents:charlie123");
    assert_eq!(a.to_did().as_deref(), Some("did:openagents:charlie123"));
    assert_eq!(Address::from_did("did:openagents:charlie123").unwrap(), a);
    assert_eq!(parse("agent:charlie").to_did(), None);
    assert_eq!(parse("human:raphael").to_did(), None);
    assert_eq!(Address::from_did("did:agent:x"), Err(AddressError::Did));
    assert_eq!(Address::from_did("openagents:x"), Err(AddressError::Did));
}

#[test]
fn serde_uses_the_string_form() {
    let a = parse("net1::human:ann");
    assert_eq!(serde_json::to_string(&a).unwrap(), "\"net1::human:ann\"");
    assert_eq!(
        serde_json::from_str::<Address>("\"net1::human:ann\"").unwrap(),
        a
    );
    assert!(serde_json::from_str::<Address>("\"channel/\"").is_err());
}

fn name() -> impl Strategy<Value = String> {
    "[A-Za-z0-9_@+-][A-Za-z0-9._@+-]{0,20}"
}

fn entity_string() -> impl Strategy<Value = String> {
    prop_oneof![
        name().prop_map(|n| format!("agent:{n}")),
        name().prop_map(|n| format!("openagents:{n}")),
        name().prop_map(|n| format!("human:{n}")),
        name().prop_map(|n| format!("channel/{n}")),
        name().prop_map(|n| format!("mod/{n}")),
        name().prop_map(|n| format!("group/{n}")),
        name().prop_map(|n| format!("resource/tool/{n}")),
        (name(), name()).prop_map(|(a, b)| format!("resource/file/{a}/{b}")),
        name().prop_map(|n| format!("resource/context/{n}")),
        Just("core".to_owned()),
    ]
}

#[test]
fn addresses_longer_than_the_stack_buffer_serialize_as_written() {
    let segment = "s".repeat(100);
    let text = format!("some-network::resource/file/{segment}/{segment}/{segment}");
    let address: Address = text.parse().unwrap();
    assert_eq!(
        serde_json::to_string(&address).unwrap(),
        format!("\"{text}\"")
    );
}

proptest! {
    #[test]
    fn display_round_trips(entity in entity_string(), net in proptest::option::of("[a-z0-9][a-z0-9-]{0,10}")) {
        let input = match &net {
            Some(n) if n != "local" => format!("{n}::{entity}"),
            _ => entity.clone(),
        };
        let address: Address = input.parse().unwrap();
        prop_assert_eq!(address.to_string().parse::<Address>().unwrap(), address.clone());
        let mut pushed = String::from(">");
        address.push_to(&mut pushed);
        prop_assert_eq!(pushed, format!(">{address}"));
        prop_assert_eq!(Address::from_uri(&address.to_uri()).unwrap(), address.clone());
        prop_assert_eq!(
            serde_json::to_string(&address).unwrap(),
            serde_json::to_string(&address.to_string()).unwrap()
        );
    }

    #[test]
    fn names_order_and_compare_as_their_text(a in "[A-Za-z0-9._@+-]{1,12}", b in "[A-Za-z0-9._@+-]{1,12}") {
        if let (Ok(x), Ok(y)) = (Name::parse("name", &a), Name::parse("name", &b)) {
            prop_assert_eq!(x.cmp(&y), a.cmp(&b));
            prop_assert_eq!(x == y, a == b);
            prop_assert_eq!(x.cmp(&x.clone()), std::cmp::Ordering::Equal);
        }
    }

    #[test]
    fn parse_never_panics(s in "\\PC{0,60}") {
        if let Ok(address) = s.parse::<Address>() {
            prop_assert_eq!(address.to_string().parse::<Address>().unwrap(), address);
        }
    }
}
