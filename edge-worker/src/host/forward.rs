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
/// A file's part (`file_part`) is bytes of up to a part's size; every
/// other body is text within the bindings' bound.
pub(crate) async fn buffered(mut req: Request, file_part: bool) -> Result<Step<Request>> {
    if req.inner().body().is_none() {
        return Ok(Step::Go(req));
    }
    let read = if file_part {
        super::read_bytes(&mut req, agentnet_core::files::PART_BYTES as usize).await
    } else {
        super::read_body(&mut req).await.map(String::into_bytes)
    };
    let body = match read {
        Ok(body) => body,
        Err(refused) => return Ok(Step::Answer(refused)),
    };
    let method = req.method();
    let mut init = RequestInit::new();
    init.with_method(method.clone())
        .with_headers(req.headers().clone())
        .with_redirect(worker::RequestRedirect::Manual);
    if !matches!(method, Method::Get | Method::Head) {
        init.with_body(Some(
            worker::js_sys::Uint8Array::from(body.as_slice()).into(),
        ));
    }
    Request::new_with_init(req.url()?.as_str(), &init).map(Step::Go)
}
