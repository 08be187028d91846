//! Resources: every `resource/file/*` and `resource/context/*` the caller may
//! read, as `openagents://{network}/resource/file/{path}` (or
//! `…/resource/context/{name}`).
//!
//! `resources/read` sends `network.resource.read` from the member and
//! answers the content's current text: a shared (Automerge) document's text,
//! or structured content as JSON text. Subscriptions (`resources/subscribe`
//! in the legacy revisions, `subscriptions/listen` in 2026-07-28) get
//! `notifications/resources/updated` when the document changes
//! ([`super::notices`]). A URI of another network, or of no file or context
//! here, is "resource not found" in the revision's code.

use super::caller::{Caller, MethodCall};
use super::results::{cacheable, complete, text_of};
use super::waiting::{Reply, or_reply};
use crate::answers::read_payload;
use crate::bindings::exchange::BindingHost;
use crate::bindings::jsonrpc::{RpcError, string_param};
use crate::bindings::member::{refusal, submit_core};
use crate::ids::address::Entity;
use crate::ids::event_type::core_types;
use crate::model::payloads::ResourceContent;
use crate::{Address, ErrorCode, Network, NetworkId};
use serde_json::{Map, Value, json};

/// The URI of a resource of `network`.
pub fn uri_of(network: &NetworkId, address: &Address) -> String {
    format!("openagents://{network}/{}", address.to_local())
}

/// Whether `address` is a file or a context (what MCP lists as resources).
pub fn is_document(address: &Address) -> bool {
    matches!(address.entity(), Entity::File(_) | Entity::Context(_))
}

/// The file or context of this network a URI names.
pub fn address_of_uri(network: &NetworkId, uri: &str) -> Option<Address> {
    let address = Address::from_uri(uri).ok()?;
    let here = match address.scope() {
        crate::ids::address::Scope::Local => true,
        crate::ids::address::Scope::Network(id) => id == network,
    };
    (here && is_document(&address)).then(|| address.to_local())
}

fn not_found(caller: &Caller<'_>, uri: &str) -> RpcError {
    RpcError {
        code: caller.revision.resource_not_found(),
        message: format!("Resource not found: {uri}"),
        data: Some(json!({"uri": uri})),
    }
}

/// `resources/list`.
pub fn list<H: BindingHost>(call: MethodCall<'_, H>) -> Result<Reply, H::Error> {
    call.list(None, "resources", |network, caller, found| {
        found
            .iter()
            .filter_map(|r| {
                let address: Address = r["address"].as_str()?.parse().ok()?;
                is_document(&address).then_some(())?;
                let full = address.to_string();
                let name = full.splitn(3, '/').nth(2).unwrap_or(&full).to_owned();
                let mut resource = json!({"uri": uri_of(network.id(), &address), "name": name});
                if caller.revision.has_titles_and_structure() {
                    resource["title"] = json!(full);
                }
                if let Some(description) = r["description"].as_str().filter(|d| !d.is_empty()) {
                    resource["description"] = json!(description);
                }
                if let Some(mime) = r["content_type"].as_str() {
                    resource["mimeType"] = json!(mime);
                }
                Some(resource)
            })
            .collect()
    })
}

/// `resources/templates/list`: none.
pub fn templates(caller: &Caller<'_>) -> Reply {
    Reply::Result(cacheable(caller.revision, json!({"resourceTemplates": []})))
}

/// A file's or context's text as a member read it (empty when the answer
/// says none).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Text {
    /// The text (structured content as JSON text).
    pub text: String,
    /// Its content type.
    pub mime: Option<String>,
    /// The resource's description.
    pub description: String,
}

/// Reads the text of the resource at `address` as the member, or the network's refusal.
pub fn read_text<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    address: &Address,
) -> Result<Result<Text, crate::Rejection>, H::Error> {
    let submitted = submit_core(
        host,
        network,
        member,
        core_types::RESOURCE_READ,
        Some(address.clone()),
        json!({}),
    )?;
    Ok(submitted.answer.map(|answer| {
        let read = answer.and_then(|a| read_payload::<ResourceContent>(&a.payload).ok());
        let Some(resource) = read else {
            return Text::default();
        };
        Text {
            text: resource.content.as_ref().map(text_of).unwrap_or_default(),
            mime: resource.content_type,
            description: resource.description,
        }
    }))
}

/// `resources/read`.
pub fn read<H: BindingHost>(
    call: MethodCall<'_, H>,
    params: &Map<String, Value>,
) -> Result<Reply, H::Error> {
    let uri = or_reply!(string_param(params, "uri"));
    let Some(address) = address_of_uri(call.network.id(), uri) else {
        return Ok(Reply::Error(not_found(call.caller, uri)));
    };
    Ok(
        match read_text(call.host, call.network, call.caller.member, &address)? {
            Ok(Text { text, mime, .. }) => {
                let mut contents = json!({"uri": uri, "text": text});
                if let Some(mime) = mime {
                    contents["mimeType"] = json!(mime);
                }
                Reply::Result(cacheable(
                    call.caller.revision,
                    json!({"contents": [contents]}),
                ))
            }
            Err(rejection)
                if matches!(
                    rejection.code,
                    ErrorCode::UnknownTarget | ErrorCode::NotFound
                ) =>
            {
                Reply::Error(not_found(call.caller, uri))
            }
            Err(rejection) => Reply::Error(refusal(&rejection)),
        },
    )
}

/// `resources/subscribe` and `resources/unsubscribe`: the session's
/// subscriptions after the change, or why not.
pub fn subscription(
    network: &Network,
    caller: &Caller<'_>,
    params: &Map<String, Value>,
) -> Result<(String, Value), RpcError> {
    let uri = string_param(params, "uri")?;
    if address_of_uri(network.id(), uri).is_none_or(|a| !network.state().resources.contains_key(&a))
    {
        return Err(not_found(caller, uri));
    }
    Ok((uri.to_owned(), complete(caller.revision, json!({}))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_name_this_networks_files_and_contexts() {
        let demo: NetworkId = "demo".parse().unwrap();
        let file: Address = "resource/file/docs/a.md".parse().unwrap();
        let uri = uri_of(&demo, &file);
        assert_eq!(uri, "openagents://demo/resource/file/docs/a.md");
        assert_eq!(address_of_uri(&demo, &uri), Some(file));
        assert!(address_of_uri(&demo, "openagents://local/resource/context/brief").is_some());
        assert_eq!(
            address_of_uri(&demo, "openagents://other/resource/file/a.md"),
            None
        );
        assert_eq!(
            address_of_uri(&demo, "openagents://demo/resource/tool/add"),
            None
        );
        assert_eq!(address_of_uri(&demo, "file:///etc/passwd"), None);
    }
}
