use super::*;
use crate::discovery::feed::Op;
use serde_json::json;

fn record(aic: &str, name: &str, skill: &str) -> Value {
    json!({"aic": aic, "name": name, "address": format!("openagents:{name}"), "did_wba": format!("did:wba:h:agents:{name}"),
        "acs": {"name": name, "description": "", "skills": [{"id": skill, "name": skill, "description": "", "tags": []}],
            "endPoints": [{"url": "https://h/networks/n1/a2a", "transport": "JSONRPC"}]}})
}

#[test]
fn a_revoked_agent_leaves_search_and_the_listing_with_a_delete() {
    let mut catalog = Catalog::new(10);
    catalog.agent_changed(record("A1", "alice", "maps"), true, Timestamp::from(1));
    catalog.agent_changed(record("B2", "bob", "maps"), true, Timestamp::from(2));
    assert_eq!(
        catalog.search(&Query::text("maps", 10), "https://h").len(),
        2
    );
    let (change, _) =
        catalog.agent_changed(record("A1", "alice", "maps"), false, Timestamp::from(3));
    assert_eq!(
        (change.op, change.version, change.payload),
        (Op::Delete, 2, Value::Null)
    );
    let hits = catalog.search(&Query::text("maps", 10), "https://h");
    assert_eq!(
        hits.iter().map(|h| h["aic"].clone()).collect::<Vec<_>>(),
        [json!("B2")]
    );
    assert_eq!(
        hits.first().map(|h| h["networks"].clone()),
        Some(json!(["n1"]))
    );
    assert_eq!(catalog.listed(None, "https://h").len(), 1);
}

#[test]
fn submitted_descriptions_are_listed_after_registered_agents_and_searchable() {
    let mut catalog = Catalog::new(10);
    catalog.agent_changed(record("A1", "alice", "maps"), true, Timestamp::from(1));
    catalog.add_submitted(
        "http://x/ad.json",
        json!({"name": "Outside maps", "description": "a weather agent", "did": "did:wba:x"}),
    );
    let keys: Vec<String> = catalog
        .listed(None, "https://h")
        .into_iter()
        .map(|l| l.key)
        .collect();
    assert_eq!(keys, ["a:A1", "s:http://x/ad.json"]);
    catalog.agent_changed(record("C3", "carol", "maps"), true, Timestamp::from(2));
    if let Some(carol) = catalog.agents.get_mut("C3") {
        carol["acs"]["endPoints"][0]["url"] = json!("https://h/networks/n2/mcp");
    }
    let again = catalog.agents.get("C3").cloned().unwrap_or_default();
    catalog.load_agent(again, true);
    let in_n1: Vec<String> = catalog
        .listed(Some("n1"), "https://h")
        .into_iter()
        .map(|l| l.key)
        .collect();
    assert_eq!(
        in_n1,
        ["a:A1"],
        "only the agents with an endpoint in the network, no submitted ones"
    );
    let hits = catalog.search(&Query::text("weather", 10), "https://h");
    assert_eq!(
        hits.first()
            .map(|h| (h["kind"].clone(), h["verification"].clone())),
        Some((json!("submitted"), json!(1)))
    );
}

#[test]
fn listed_members_of_public_networks_are_listed_searchable_and_replaced() {
    let mut catalog = Catalog::new(10);
    catalog.agent_changed(record("A1", "alice", "maps"), true, Timestamp::from(1));
    let member = |address: &str, skill: &str| {
        json!({"address": address, "name": address, "description": "", "verification": 0,
            "skills": [{"id": skill, "name": skill, "tags": []}], "tags": []})
    };
    catalog.set_network_members(
        "n1",
        vec![member("agent:m1", "maps"), member("agent:m2", "cooking")],
    );
    catalog.set_network_members("n2", vec![member("agent:m3", "maps")]);
    fn keys(catalog: &Catalog, network: Option<&str>) -> Vec<String> {
        catalog
            .listed(network, "https://h")
            .into_iter()
            .map(|l| l.key)
            .collect()
    }
    assert_eq!(
        keys(&catalog, None),
        ["a:A1", "m:n1/agent:m1", "m:n1/agent:m2", "m:n2/agent:m3"]
    );
    assert_eq!(keys(&catalog, Some("n2")), ["m:n2/agent:m3"]);
    assert_eq!(
        catalog.listed(Some("n2"), "https://h")[0].url,
        "https://h/registry/v1/networks/n2/members/agent:m3/ad.json"
    );
    let hits = catalog.search(&Query::text("maps", 10), "https://h");
    let kinds: Vec<(Value, Value)> = hits
        .iter()
        .map(|h| (h["kind"].clone(), h["id"].clone()))
        .collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(kinds.contains(&(json!("member"), json!("member:n1/agent:m1"))));
    // A network that is no longer public (or whose members opted out) sends an empty list.
    catalog.set_network_members("n1", Vec::new());
    assert_eq!(keys(&catalog, None), ["a:A1", "m:n2/agent:m3"]);
    assert_eq!(
        catalog
            .search(&Query::text("cooking", 10), "https://h")
            .len(),
        0
    );
    assert!(catalog.member("n2", "agent:m3").is_some());
}
