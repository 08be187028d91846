use super::*;
use serde_json::json;

const AIC: &str = "10001000011K912345E789ABCDEF2353";

/// A complete, valid ACS document (every field of ACPs ACS v01.00).
pub(crate) fn sample() -> Value {
    json!({
        "active": true, "lastModifiedTime": "2025-06-01T08:00:00+08:00", "protocolVersion": "01.00",
        "name": "Translator", "description": "Translates documents", "version": "1.2.0",
        "iconUrl": "https://example.com/icon.png", "documentationUrl": "https://example.com/docs",
        "provider": {"countryCode": "CN", "organization": "Example", "department": "AI",
            "url": "https://example.com", "license": "MIT"},
        "securitySchemes": {
            "mtls": {"type": "mutualTLS", "x-caChallengeBaseUrl": "https://ca.example.com/acme"},
            "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://id.example.com/.well-known/openid-configuration"}},
        "endPoints": [{"url": "https://example.com/rpc", "transport": "JSONRPC", "security": [{"mtls": []}, {"oidc": ["agent"]}]}],
        "capabilities": {"streaming": true, "notification": false, "messageQueue": ["mqtt:5.0"]},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "translate", "name": "Translate", "description": "Translate text between languages",
            "version": "1.0", "tags": ["translation", "language"], "examples": ["translate this to French"],
            "inputModes": ["text/plain"], "outputModes": ["text/plain"]}]
    })
}

fn reason_after(edit: impl FnOnce(&mut Value)) -> Option<(&'static str, String)> {
    let mut acs = sample();
    edit(&mut acs);
    validate(&acs, AIC)
        .err()
        .map(|e| (e.reason(), e.to_string()))
}

#[test]
fn a_complete_document_passes_and_gets_the_agents_aic() {
    let checked = validate(&sample(), AIC).ok();
    assert_eq!(checked.as_ref().and_then(|v| v["aic"].as_str()), Some(AIC));
    let mut with_aic = sample();
    with_aic["aic"] = json!(AIC);
    assert!(validate(&with_aic, AIC).is_ok());
}

#[test]
fn each_kind_of_problem_has_its_stable_reason() {
    type Edit = Box<dyn FnOnce(&mut Value)>;
    let cases: Vec<(Edit, &str, &str)> = vec![
        (
            Box::new(|a| {
                a.as_object_mut().map(|o| o.remove("name"));
            }),
            "acs_missing_field",
            "name",
        ),
        (
            Box::new(|a| {
                a["provider"].as_object_mut().map(|o| o.remove("license"));
            }),
            "acs_missing_field",
            "provider.license",
        ),
        (
            Box::new(|a| a["active"] = json!("yes")),
            "acs_wrong_type",
            "active",
        ),
        (
            Box::new(|a| a["skills"][0]["tags"] = json!("translation")),
            "acs_wrong_type",
            "skills[0].tags",
        ),
        (
            Box::new(|a| a["protocolVersion"] = json!("02.00")),
            "acs_invalid_value",
            "protocolVersion",
        ),
        (
            Box::new(|a| a["lastModifiedTime"] = json!("2025-06-01 08:00")),
            "acs_invalid_value",
            "lastModifiedTime",
        ),
        (
            Box::new(|a| a["endPoints"][0]["transport"] = json!("GRPC")),
            "acs_invalid_value",
            "transport",
        ),
        (
            Box::new(|a| a["securitySchemes"]["mtls"]["type"] = json!("apiKey")),
            "acs_invalid_value",
            "mtls.type",
        ),
        (
            Box::new(|a| a["provider"]["countryCode"] = json!("cn")),
            "acs_invalid_value",
            "countryCode",
        ),
        (
            Box::new(|a| a["iconUrl"] = json!("icon.png")),
            "acs_invalid_value",
            "iconUrl",
        ),
        (
            Box::new(|a| a["endPoints"][0]["security"] = json!([{"apikey": []}])),
            "acs_unknown_scheme",
            "apikey",
        ),
        (
            Box::new(|a| {
                let s = a["skills"][0].clone();
                if let Some(v) = a["skills"].as_array_mut() {
                    v.push(s);
                }
            }),
            "acs_duplicate_skill",
            "translate",
        ),
        (
            Box::new(|a| a["aic"] = json!("10001000011K920251018D8888JQKA91")),
            "acs_wrong_aic",
            "10001000011K920251018D8888JQKA91",
        ),
    ];
    for (edit, reason, mentions) in cases {
        let (got, message) = reason_after(edit).unwrap_or(("passed", String::new()));
        assert_eq!(got, reason, "{message}");
        assert!(message.contains(mentions), "{message} names {mentions}");
    }
}

#[test]
fn optional_fields_may_be_absent_and_non_objects_are_refused() {
    let mut acs = sample();
    for k in ["iconUrl", "documentationUrl", "webAppUrl"] {
        acs.as_object_mut().map(|o| o.remove(k));
    }
    acs["provider"]
        .as_object_mut()
        .map(|o| o.remove("countryCode"));
    acs["endPoints"][0]
        .as_object_mut()
        .map(|o| o.remove("security"));
    assert!(validate(&acs, AIC).is_ok());
    assert_eq!(
        validate(&json!([1]), AIC).err().map(|e| e.reason()),
        Some("acs_wrong_type")
    );
}

proptest::proptest! {
    #[test]
    fn arbitrary_json_never_panics(text in "\\PC{0,200}") {
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            let _ = validate(&value, AIC);
        }
    }
}
