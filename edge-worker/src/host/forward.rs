//! A request forwarded by the Worker to an object, its body read first.

use agentnet_core::bindings;
use worker::{Method, Request, RequestInit, Result};

/// The request with its body read here, bounded, before it goes to an object.
/// Streamed through, a body the object refuses unread (too large, or no such
/// network) faults the Worker's side of the stream ("Can't read from request
/// stream after response has been sent"), and workerd restarts the Worker,
/// failing every request in flight (503). Its redirects are the client's to
/// follow (the consent form's 303 to a redirect URI), never the stub's.
pub(crate) async fn buffered(
    mut req: Request,
) -> Result<std::result::Result<Request, bindings::Response>> {
    if req.method() != Method::Post {
        return Ok(Ok(req));
    }
    let body = match super::read_body(&mut req).await {
        Ok(body) => body,
        Err(refused) => return Ok(Err(refused)),
    };
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(req.headers().clone())
        .with_redirect(worker::RequestRedirect::Manual)
        .with_body(Some(body.into()));
    Request::new_with_init(req.url()?.as_str(), &init).map(Ok)
}
