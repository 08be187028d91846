//! A request forwarded by the Worker to an object, its body read first.

use agentnet_core::bindings::step::Step;
use worker::{Method, Request, RequestInit, Result};

/// The request with its body read here, bounded, before anything answers
/// it or it goes to an object: any method, any route. Streamed through, or
/// left unread by an answer that does not need it (a 405, a 404, a refused
/// upgrade), a body faults the Worker's side of the stream ("Can't read from
/// request stream after response has been sent"), and workerd restarts the
/// Worker, failing every request in flight (503). A `GET` or `HEAD` goes on
/// without the body it should not have had. Its redirects are the client's
/// to follow (the consent form's 303 to a redirect URI), never the stub's.
pub(crate) async fn buffered(mut req: Request) -> Result<Step<Request>> {
    if req.inner().body().is_none() {
        return Ok(Step::Go(req));
    }
    let body = match super::read_body(&mut req).await {
        Ok(body) => body,
        Err(refused) => return Ok(Step::Answer(refused)),
    };
    let method = req.method();
    let mut init = RequestInit::new();
    init.with_method(method.clone())
        .with_headers(req.headers().clone())
        .with_redirect(worker::RequestRedirect::Manual);
    if !matches!(method, Method::Get | Method::Head) {
        init.with_body(Some(body.into()));
    }
    Request::new_with_init(req.url()?.as_str(), &init).map(Step::Go)
}
