//! Futures kept apart from the one that awaits them: [`apart`] boxes a future behind a
//! pointer (`Pin<Box<dyn Future>>`), so its polling code stays a function of its own.
//!
//! An `async fn` that awaits many others is compiled into one state machine with every awaited
//! future's body inlined into it: the network object's request router became a function of
//! 84 KB that V8 compiled, whole, at the first request, with 4 MB of scratch memory that
//! workerd keeps (BENCHMARKS.md, "Memory at the peer's"). Behind a pointer, a route's body is
//! compiled when that route is first taken (V8 compiles lazily, per function), and it costs one
//! allocation per request.

use std::future::Future;
use std::pin::Pin;

/// `future`, polled through a pointer.
pub fn apart<'a, T>(future: impl Future<Output = T> + 'a) -> Pin<Box<dyn Future<Output = T> + 'a>> {
    Box::pin(future)
}

#[cfg(test)]
mod tests {
    use super::apart;
    use std::task::{Context, Poll, Waker};

    #[test]
    fn a_future_kept_apart_gives_what_it_would_have() {
        let mut future = apart(async { 40 + 2 });
        let mut context = Context::from_waker(Waker::noop());
        assert_eq!(future.as_mut().poll(&mut context), Poll::Ready(42));
    }
}
