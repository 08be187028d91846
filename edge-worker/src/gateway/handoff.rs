//! An upgrade handed by the Worker to the gateway its network named.

use crate::network::gateway_link;
use worker::{Env, Method, Request, RequestInit, Response, Result};

/// Takes an upgrade to the gateway its network named, with the socket id the
/// gateway expects (set here, whatever the client sent).
pub(crate) async fn to_gateway(
    env: &Env,
    gateway: &str,
    url: worker::Url,
    headers: Vec<(String, String)>,
    socket: String,
) -> Result<Response> {
    let forwarded = worker::Headers::new();
    for (name, value) in headers {
        forwarded.set(&name, &value)?;
    }
    forwarded.set(gateway_link::SOCKET_HEADER, &socket)?;
    let mut init = RequestInit::new();
    init.with_method(Method::Get).with_headers(forwarded);
    let request = Request::new_with_init(url.as_str(), &init)?;
    env.durable_object(gateway_link::GATEWAYS_BINDING)?
        .id_from_name(gateway)?
        .get_stub()?
        .fetch_with_request(request)
        .await
}
