//! Listed network members in the registry's discovery service: the
//! network objects' internal `POST /internal/network-members` (a network's
//! listing, [`crate::discovery::members::network_listing`], replacing the
//! one before) and each listed member's ANP description at
//! `GET /registry/v1/networks/{id}/members/{address}/ad.json`, with an
//! OpenRPC interface for the member's tools ([`crate::bindings::anp::openrpc`]).
//!
//! The internal path is not a registry path, so the Worker never forwards an
//! outside request to it: only a network object reaches it, through the
//! registry object's stub.

use crate::ErrorCode;
use crate::bindings::message::{Request, Response};
use crate::discovery::Catalog;
use crate::discovery::catalog::member_ad_url;
use crate::discovery::members::member_description;
use serde_json::{Value, json};

/// Where network objects send their listing.
pub const MEMBERS_PATH: &str = "/internal/network-members";

/// A network's listing `{network, public, members}` from its object: the
/// catalog now lists exactly those members of that network. Answers the
/// network id and the records to store, or a refusal.
pub fn network_members(catalog: &mut Catalog, body: &str) -> Result<(String, Value), Response> {
    let listing: Value = serde_json::from_str(body)
        .map_err(|_| Response::error(ErrorCode::InvalidRequest, "the listing is a JSON object"))?;
    let network = listing
        .get("network")
        .and_then(Value::as_str)
        .filter(|n| n.parse::<crate::ids::network_id::NetworkId>().is_ok())
        .ok_or_else(|| Response::error(ErrorCode::InvalidRequest, "network is a network id"))?
        .to_owned();
    let records = match listing.get("members") {
        Some(Value::Array(records)) => records.clone(),
        _ => {
            return Err(Response::error(
                ErrorCode::InvalidRequest,
                "members is an array",
            ));
        }
    };
    catalog.set_network_members(&network, records.clone());
    Ok((network, Value::Array(records)))
}

/// `GET …/networks/{network}/members/{address}/ad.json`: the member's description.
pub fn member_ad(catalog: &Catalog, req: &Request, network: &str, address: &str) -> Response {
    let origin = req.origin();
    match catalog.member(network, address) {
        Some(record) => {
            let url = member_ad_url(origin, network, address);
            let mut description = member_description(network, record, &url, origin);
            if let Some(tools) = crate::bindings::anp::openrpc::interface(network, record, origin)
                && let Some(interfaces) = description["interfaces"].as_array_mut()
            {
                interfaces.push(tools);
            }
            Response::json(description)
        }
        None => Response::error(
            ErrorCode::NotFound,
            format!("{address} is not a listed member of {network}"),
        ),
    }
}

/// The answer the network object gets: how many members are listed now.
pub fn listed_answer(network: &str, records: &Value) -> Response {
    let count = records.as_array().map_or(0, Vec::len);
    Response::json(json!({"network": network, "listed": count}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::message::Method;

    #[test]
    fn a_listing_replaces_the_networks_members_and_each_has_a_description() {
        let mut catalog = Catalog::new(10);
        let body = json!({"network": "n1", "public": true, "members": [
            {"address": "agent:m1", "name": "m1", "description": "maps", "did": null,
             "verification": 0, "skills": [], "tags": []}]});
        let (network, records) = network_members(&mut catalog, &body.to_string()).unwrap();
        assert_eq!(network, "n1");
        assert_eq!(listed_answer(&network, &records).status, 200);
        let req = Request::new(Method::Get, "https://h/x");
        let ad = member_ad(&catalog, &req, "n1", "agent:m1");
        let crate::bindings::message::Body::Json(doc) = ad.body else {
            panic!("a JSON description")
        };
        assert_eq!(doc["protocolType"], "ANP");
        assert_eq!(
            doc["url"],
            "https://h/registry/v1/networks/n1/members/agent:m1/ad.json"
        );
        assert_eq!(doc["interfaces"][0]["url"], "wss://h/networks/n1/v1/ws");
        assert_eq!(doc["securityDefinitions"]["didwba_sc"]["scheme"], "didwba");
        let empty = json!({"network": "n1", "public": false, "members": []});
        network_members(&mut catalog, &empty.to_string()).unwrap();
        assert_eq!(member_ad(&catalog, &req, "n1", "agent:m1").status, 404);
        for bad in [
            "[]",
            "{\"network\": \"bad id!\", \"members\": []}",
            "{\"network\": \"n1\"}",
        ] {
            assert!(network_members(&mut catalog, bad).is_err(), "{bad}");
        }
    }
}
