//! The routes of a network's own HTTP API (`/networks/{id}/v1/…`, ONM §11):
//! the table [`super::network`] reads the tail of a path with.

use crate::bindings::message::Method;

/// How long [`TestHook::RefuseGatewayRequests`] refuses: longer than a
/// gateway tries a request again (about 12 s), so it gives one up.
pub const GATEWAY_REFUSAL_MS: u64 = 15_000;

/// How long [`TestHook::LoseGatewayAnswers`] loses answers: shorter than the
/// network object tries a request again (about 12 s), so it gets through.
pub const GATEWAY_ANSWERS_LOST_MS: u64 = 2_000;

/// A route that only exists with test hooks on (the edge's `test-hooks`
/// feature, switched on with `AGENTNET_TEST_HOOKS=1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestHook {
    /// `POST v1/__test/fail-next-batch`: the next log batch fails (it is then written row by row).
    FailNextBatch,
    /// `POST v1/__test/panic`: the object panics (it must not stay bricked).
    Panic,
    /// `POST v1/__test/restart-sequencer`: the network object behaves as a
    /// new instance towards its gateways (a new epoch; they close their sockets).
    RestartSequencer,
    /// `POST v1/__test/restart-gateways`: every gateway loses its sockets and
    /// starts afresh, as after a crash.
    RestartGateways,
    /// `POST v1/__test/reset-gateways`: every gateway loses its sockets and
    /// its memory without telling the network, as when the platform resets it.
    ResetGateways,
    /// `POST v1/__test/refuse-gateway-requests`: for the next
    /// [`GATEWAY_REFUSAL_MS`], the object answers its gateways' requests with
    /// 503, as one starting again on a busy machine.
    RefuseGatewayRequests,
    /// `POST v1/__test/lose-gateway-answers`: for the next
    /// [`GATEWAY_ANSWERS_LOST_MS`], each gateway takes the object's requests
    /// and answers 503, as when the answer is lost on the way.
    LoseGatewayAnswers,
    /// `GET v1/__test/counters`: what the object has sent (WebSocket
    /// messages, requests to gateways), for benchmarks.
    Counters,
}

/// What a request to a network's HTTP API asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiRoute {
    /// `GET v1/profile` or the root.
    Profile,
    /// `GET v1/discover`.
    Discover,
    /// `POST v1/join`.
    Join,
    /// `POST v1/leave`.
    Leave,
    /// `POST v1/ticket`.
    Ticket,
    /// `POST v1/events`.
    Send,
    /// `GET v1/events`.
    Poll,
    /// `POST v1/heartbeat`.
    Heartbeat,
    /// `GET v1/sse`.
    Sse,
    /// `v1/ws`, any method.
    WebSocket,
    /// `v1/admin/{action}`, any method ([`crate::bindings::http::admin`]).
    Admin(String),
    /// `POST v1/invitations/reject` `{code}`: the code's holder declines it, unjoined.
    RejectInvitation,
    /// `POST v1/invitations/show` `{code}`: what the code's holder is invited to, unjoined.
    ShowInvitation,
    /// `GET v1/analytics`.
    Analytics,
    /// A test-only route (`not_found` unless the host has test hooks on).
    Test(TestHook),
    /// A known path with another method: `method_not_allowed` (the path's tail).
    WrongMethod(String),
    /// No such route: `not_found`.
    Unknown,
}

/// Reads `tail`, the path after `/networks/{id}/` without its trailing slashes.
pub fn parse(method: &Method, tail: &str) -> ApiRoute {
    match (method, tail) {
        (_, "v1/ws") => ApiRoute::WebSocket,
        (Method::Get, "v1/profile" | "") => ApiRoute::Profile,
        (Method::Get, "v1/discover") => ApiRoute::Discover,
        (Method::Post, "v1/join") => ApiRoute::Join,
        (Method::Post, "v1/__test/fail-next-batch") => ApiRoute::Test(TestHook::FailNextBatch),
        (Method::Post, "v1/__test/panic") => ApiRoute::Test(TestHook::Panic),
        (Method::Post, "v1/__test/restart-sequencer") => ApiRoute::Test(TestHook::RestartSequencer),
        (Method::Get, "v1/__test/counters") => ApiRoute::Test(TestHook::Counters),
        (Method::Post, "v1/__test/restart-gateways") => ApiRoute::Test(TestHook::RestartGateways),
        (Method::Post, "v1/__test/reset-gateways") => ApiRoute::Test(TestHook::ResetGateways),
        (Method::Post, "v1/__test/refuse-gateway-requests") => {
            ApiRoute::Test(TestHook::RefuseGatewayRequests)
        }
        (Method::Post, "v1/__test/lose-gateway-answers") => {
            ApiRoute::Test(TestHook::LoseGatewayAnswers)
        }
        (Method::Get, "v1/sse") => ApiRoute::Sse,
        (Method::Post, "v1/leave") => ApiRoute::Leave,
        (Method::Post, "v1/ticket") => ApiRoute::Ticket,
        (Method::Post, "v1/events") => ApiRoute::Send,
        (Method::Get, "v1/events") => ApiRoute::Poll,
        (Method::Post, "v1/heartbeat") => ApiRoute::Heartbeat,
        (Method::Get, "v1/analytics") => ApiRoute::Analytics,
        (Method::Post, "v1/invitations/reject") => ApiRoute::RejectInvitation,
        (Method::Post, "v1/invitations/show") => ApiRoute::ShowInvitation,
        (_, admin) if admin.starts_with("v1/admin/") => {
            ApiRoute::Admin(admin["v1/admin/".len()..].to_owned())
        }
        (
            _,
            "v1/profile" | "v1/discover" | "v1/join" | "v1/leave" | "v1/ticket" | "v1/events"
            | "v1/heartbeat" | "v1/analytics",
        ) => ApiRoute::WrongMethod(tail.to_owned()),
        _ => ApiRoute::Unknown,
    }
}
