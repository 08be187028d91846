//! Web Push subscriptions over HTTP, under `/networks/{id}/v1/push/`:
//!
//! * `GET key` → `{key}`: the application server's public key (VAPID), the
//!   `applicationServerKey` a page subscribes with. Public.
//! * `POST subscriptions` `{endpoint, keys: {p256dh, auth}}` (a
//!   `PushSubscription`'s JSON) with `Authorization: Bearer <session>`: the
//!   member's browser is notified ([`crate::webpush::recipients`]). `201 {endpoint}`.
//! * `DELETE subscriptions` `{endpoint}` with the session: forgotten. `200 {removed}`.
//!
//! A subscription is the member's own: kept apart from the log, never in
//! an event, an export or another member's answer, and its keys are never
//! answered back. The host keeps them ([`PushStore`]).

use crate::bindings::access::session::{QueryTokens, authenticate};
use crate::bindings::exchange::{BindingHost, json_body};
use crate::bindings::message::{Request, Response};
use crate::bindings::step::go_on;
use crate::error::ErrorCode;
use crate::ids::address::Address;
use crate::network::Network;
use crate::outbound::OutboundPolicy;
use crate::webpush::Subscription;
use serde_json::{Value, json};

/// What a request under `v1/push/` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushRoute {
    /// `GET v1/push/key`.
    Key,
    /// `POST v1/push/subscriptions`.
    Subscribe,
    /// `DELETE v1/push/subscriptions`.
    Unsubscribe,
    /// Another method on one of them.
    WrongMethod,
}

/// Where a host keeps the members' subscriptions and its key.
pub trait PushStore {
    /// The host's error.
    type Error;
    /// The application server's public key (base64url), made and kept on first use.
    fn push_public_key(&mut self) -> Result<String, Self::Error>;
    /// Keeps `subscription` for `member` (replacing one with its endpoint).
    fn add_subscription(
        &mut self,
        member: &Address,
        subscription: &Subscription,
    ) -> Result<(), Self::Error>;
    /// Forgets `member`'s subscription at `endpoint`; whether there was one.
    fn remove_subscription(
        &mut self,
        member: &Address,
        endpoint: &str,
    ) -> Result<bool, Self::Error>;
}

/// Answers a request [`target`] matched.
pub fn handle<H>(
    host: &mut H,
    network: &Network,
    req: &Request,
    route: PushRoute,
    policy: &OutboundPolicy,
) -> Result<Response, <H as BindingHost>::Error>
where
    H: BindingHost + PushStore<Error = <H as BindingHost>::Error>,
{
    match route {
        PushRoute::WrongMethod => {
            return Ok(Response::error(
                ErrorCode::MethodNotAllowed,
                format!("{} is not allowed on {}", req.method, req.path()),
            ));
        }
        PushRoute::Key => return Ok(Response::json(json!({"key": host.push_public_key()?}))),
        PushRoute::Subscribe | PushRoute::Unsubscribe => {}
    }
    let member = go_on!(authenticate(host, req, QueryTokens::Refused));
    if network.member(&member).is_none() {
        return Ok(Response::error(
            ErrorCode::NotJoined,
            format!("{member} is not a member"),
        ));
    }
    let body = match json_body(&req.body, &network.config().limits) {
        Ok(body) => body,
        Err(response) => return Ok(response),
    };
    if route == PushRoute::Unsubscribe {
        let Some(endpoint) = body.get("endpoint").and_then(Value::as_str) else {
            return Ok(Response::error(
                ErrorCode::InvalidRequest,
                "endpoint must name the subscription to forget",
            ));
        };
        let removed = host.remove_subscription(&member, endpoint)?;
        return Ok(Response::json(json!({"removed": removed})));
    }
    let subscription = match Subscription::parse(&body, policy) {
        Ok(subscription) => subscription,
        Err(refused) => return Ok(Response::error(refused.code, refused.message)),
    };
    host.add_subscription(&member, &subscription)?;
    Ok(Response::json(json!({"endpoint": subscription.endpoint()})).with_status(201))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(method: &str, path: &str) -> Request {
        use crate::bindings::message::Method;
        Request::new(Method::parse(method), format!("https://edge.example{path}"))
    }

    #[test]
    fn the_push_routes_are_found_with_their_network() {
        use crate::bindings::route::{self, NetworkRoute, Route};
        let found = |m, p| match route::parse(&req(m, p)) {
            Ok(Route::Network(id, NetworkRoute::Push(r))) => Some((id.to_string(), r)),
            _ => None,
        };
        for (method, path, expected) in [
            ("GET", "/networks/net/v1/push/key", PushRoute::Key),
            (
                "POST",
                "/networks/net/v1/push/subscriptions/",
                PushRoute::Subscribe,
            ),
            (
                "DELETE",
                "/networks/net/v1/push/subscriptions",
                PushRoute::Unsubscribe,
            ),
            ("PUT", "/networks/net/v1/push/key", PushRoute::WrongMethod),
        ] {
            assert_eq!(
                found(method, path),
                Some(("net".into(), expected)),
                "{method} {path}"
            );
        }
        assert_eq!(found("GET", "/networks/net/v1/push/other"), None);
        assert_eq!(found("GET", "/networks/net/v1/events"), None);
        assert_eq!(found("GET", "/networks/Not An Id/v1/push/key"), None);
    }
}
