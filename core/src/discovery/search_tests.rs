use super::*;
use serde_json::json;

fn agent(id: &str, name: &str, description: &str, skills: Value) -> Entry {
    let acs = json!({"name": name, "description": description, "skills": skills,
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "endPoints": [{"url": format!("https://h/networks/net{id}/a2a"), "transport": "JSONRPC"}]});
    Entry::from_acs(id, name, Some(&acs), 2)
}

fn skill(id: &str, name: &str, description: &str, tags: &[&str]) -> Value {
    json!({"id": id, "name": name, "description": description, "tags": tags})
}

fn ids(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.id.as_str()).collect()
}

#[test]
fn an_exact_skill_beats_a_passing_mention_in_a_description() {
    let entries = [
        agent(
            "1",
            "Helper",
            "I can also do translation now and then",
            json!([skill("chat", "Chat", "talk", &["chat"])]),
        ),
        agent(
            "2",
            "Polyglot",
            "Languages",
            json!([skill(
                "translation",
                "Translation",
                "turns text into another language",
                &["language"]
            )]),
        ),
    ];
    let hits = rank(&entries, &Query::text("translation", 10));
    assert_eq!(ids(&hits), ["2", "1"]);
    assert_eq!(hits.first().map(|h| h.score), Some(weight::SKILL_EXACT));
    assert_eq!(hits.get(1).map(|h| h.score), Some(weight::DESCRIPTION_WORD));
}

#[test]
fn field_weights_order_results_and_ties_go_to_the_name() {
    let entries = [
        agent("a", "Weather", "", json!([])),
        agent(
            "b",
            "Bot",
            "",
            json!([skill("w", "Weather forecast", "", &[])]),
        ),
        agent(
            "c",
            "Bot2",
            "",
            json!([skill("x", "X", "the weather where you are", &[])]),
        ),
        agent("d", "Zed", "weather", json!([])),
        agent("e", "Alpha", "weather", json!([])),
        agent("f", "Nothing", "", json!([])),
    ];
    let hits = rank(&entries, &Query::text("Weather", 10));
    assert_eq!(ids(&hits), ["a", "b", "c", "e", "d"]);
    let scores: Vec<u32> = hits.iter().map(|h| h.score).collect();
    assert_eq!(
        scores,
        [
            weight::NAME_EXACT,
            weight::SKILL_NAME_WORD,
            weight::SKILL_TEXT_WORD,
            1,
            1
        ]
    );
}

#[test]
fn terms_add_up_and_filters_drop_before_scoring() {
    let entries = [
        agent(
            "1",
            "Maps",
            "",
            json!([skill("route", "Route", "plan a route", &["travel"])]),
        ),
        agent(
            "2",
            "Trips",
            "",
            json!([skill("route", "Route", "", &["travel", "booking"])]),
        ),
    ];
    let mut query = Query::text("route booking", 10);
    assert_eq!(ids(&rank(&entries, &query)), ["2", "1"]);
    query.tags = vec!["Travel".into(), "booking".into()];
    assert_eq!(ids(&rank(&entries, &query)), ["2"]);
    let mut by_network = Query::text("", 10);
    by_network.network = Some("net1".into());
    assert_eq!(ids(&rank(&entries, &by_network)), ["1"]);
    let mut strict = Query::text("route", 10);
    strict.verification = 3;
    assert!(rank(&entries, &strict).is_empty());
    strict.verification = 2;
    strict.transport = Some("HTTP_JSON".into());
    assert!(rank(&entries, &strict).is_empty());
    strict.transport = Some("JSONRPC".into());
    strict.mode = Some("text/plain".into());
    assert_eq!(rank(&entries, &strict).len(), 2);
    assert_eq!(rank(&entries, &Query::text("route", 1)).len(), 1);
}

proptest::proptest! {
    #[test]
    fn ranking_is_a_total_deterministic_order(names in proptest::collection::vec("[a-c ]{0,8}", 0..12), q in "[a-c ]{0,6}") {
        let entries: Vec<Entry> = names.iter().enumerate()
            .map(|(i, n)| agent(&i.to_string(), n, n, json!([skill(n, n, n, &[n.as_str()])])))
            .collect();
        let query = Query::text(&q, 100);
        let once = rank(&entries, &query);
        let reversed: Vec<Entry> = entries.iter().rev().cloned().collect();
        proptest::prop_assert_eq!(&once, &rank(&reversed, &query));
        for pair in once.windows(2) {
            proptest::prop_assert!(pair[0].score >= pair[1].score);
        }
    }
}
