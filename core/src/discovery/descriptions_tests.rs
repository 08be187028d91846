use super::*;
use serde_json::json;

fn listed(n: usize) -> Vec<Listed> {
    (0..n)
        .map(|i| Listed {
            key: format!("a:{i:03}"),
            name: format!("agent {i}"),
            url: format!("https://h/ad/{i}"),
        })
        .collect()
}

#[test]
fn following_next_reaches_every_agent_exactly_once() {
    let all = listed(7);
    let mut seen = Vec::new();
    let mut after: Option<String> = None;
    for _ in 0..10 {
        let page = collection_page(&all, after.as_deref(), 3, "https://h/p", |k| {
            format!("after={k}")
        });
        assert_eq!(page["@type"], "CollectionPage");
        assert_eq!(
            page["@context"]["ad"],
            "https://agent-network-protocol.com/ad#"
        );
        for item in page["items"].as_array().into_iter().flatten() {
            assert_eq!(item["@type"], "ad:AgentDescription");
            seen.push(item["@id"].as_str().unwrap_or("").to_owned());
        }
        match page.get("next").and_then(Value::as_str) {
            Some(next) => after = next.strip_prefix("after=").map(str::to_owned),
            None => break,
        }
    }
    let expected: Vec<String> = all.iter().map(|l| l.url.clone()).collect();
    assert_eq!(seen, expected);
    let exact = collection_page(&listed(3), None, 3, "u", |k| k.to_owned());
    assert!(exact.get("next").is_none(), "a full last page has no next");
}

#[test]
fn a_registered_agents_description_lists_its_real_endpoints() {
    let record = json!({"name": "tr", "aic": "AIC1", "did_wba": "did:wba:h:agents:tr", "registered_at": 1_700_000_000_000u64,
        "acs": {"name": "Translator", "description": "Translates", "provider": {"organization": "Org", "url": "https://org"},
            "endPoints": [{"url": "https://h/networks/net1/a2a/agent:tr", "transport": "JSONRPC"}]}});
    let ad = agent_description(
        &record,
        "https://h/registry/v1/agents/AIC1/ad.json",
        "https://h",
    );
    assert_eq!(ad["protocolType"], "ANP");
    assert_eq!(ad["did"], "did:wba:h:agents:tr");
    assert_eq!(ad["owner"]["name"], "Org");
    assert_eq!(ad["securityDefinitions"]["didwba_sc"]["scheme"], "didwba");
    assert_eq!(ad["created"], "2023-11-14T22:13:20Z");
    let urls: Vec<&str> = ad["interfaces"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["url"].as_str())
        .collect();
    for expected in [
        "https://h/networks/net1/a2a/agent:tr",
        "wss://h/networks/net1/v1/ws",
        "https://h/networks/net1/mcp",
        "https://h/networks/net1/a2a/.well-known/agent-card.json",
        "https://h/registry/v1/agents/AIC1/acs",
    ] {
        assert!(urls.contains(&expected), "{expected} in {urls:?}");
    }
}

#[test]
fn submitted_descriptions_are_checked() {
    let good = json!({"protocolType": "ANP", "type": "AgentDescription", "name": "Outside",
        "did": "did:wba:localhost%3A9:agents:o", "url": "http://127.0.0.1:9/ad.json", "interfaces": []});
    assert!(check_submitted(&good, "http://127.0.0.1:9/ad.json").is_ok());
    let mut cases = Vec::new();
    for (k, v) in [
        ("protocolType", json!("X")),
        ("name", json!("")),
        ("did", json!("did:openagents:x")),
        ("did", json!("nope")),
        ("url", json!("http://elsewhere/ad.json")),
        ("interfaces", json!("x")),
    ] {
        let mut bad = good.clone();
        bad[k] = v;
        cases.push(
            check_submitted(&bad, "http://127.0.0.1:9/ad.json")
                .err()
                .map(|e| e.reason()),
        );
    }
    assert!(
        cases.iter().all(|c| *c == Some("invalid_description")),
        "{cases:?}"
    );
}
