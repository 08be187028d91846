//! Structured request logs for Workers Logs (`[observability]` in
//! `wrangler.toml`): one JSON line per request that is traced (W3C
//! `traceparent`) or failed on the server's side, with its trace id so a
//! log search finds every hop of a trace.

use super::message::{Method, Request};
use crate::ids::time::Timestamp;
use serde_json::json;

/// What a request's log line needs, taken before the request is served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestLog {
    method: String,
    path: String,
    trace_id: Option<String>,
    started: Timestamp,
}

impl RequestLog {
    /// Notes `req` as it starts, at `now`.
    pub fn start(req: &Request, now: Timestamp) -> Self {
        Self {
            method: match &req.method {
                Method::Get => "GET".to_owned(),
                Method::Post => "POST".to_owned(),
                Method::Other(name) => name.clone(),
            },
            path: req.path().to_owned(),
            trace_id: req.trace_context().map(|t| t.parent.trace_hex()),
            started: now,
        }
    }

    /// The JSON line for the finished request, when it is one to log: traced,
    /// or answered with a 5xx.
    pub fn finish(&self, status: u16, now: Timestamp) -> Option<String> {
        if self.trace_id.is_none() && status < 500 {
            return None;
        }
        let level = if status >= 500 { "error" } else { "info" };
        Some(
            json!({
                "level": level,
                "message": "request",
                "method": self.method,
                "path": self.path,
                "status": status,
                "duration_ms": now.millis_since(self.started),
                "trace_id": self.trace_id,
            })
            .to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn traced_and_failed_requests_are_logged_with_their_trace() {
        let traced = Request::new(Method::Post, "http://h/networks/n/v1/events")
            .with_header("traceparent", PARENT);
        let line = RequestLog::start(&traced, Timestamp::from(1_000))
            .finish(200, Timestamp::from(1_012))
            .unwrap();
        let line: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(line["trace_id"], "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(line["path"], "/networks/n/v1/events");
        assert_eq!(line["method"], "POST");
        assert_eq!(line["duration_ms"], 12);
        assert_eq!(line["level"], "info");
        let plain = Request::new(Method::Get, "http://h/v1/networks");
        assert_eq!(
            RequestLog::start(&plain, Timestamp::from(0)).finish(200, Timestamp::from(1)),
            None
        );
        let failed: Value = serde_json::from_str(
            &RequestLog::start(&plain, Timestamp::from(0))
                .finish(500, Timestamp::from(1))
                .unwrap(),
        )
        .unwrap();
        assert_eq!(failed["level"], "error");
        assert_eq!(failed["trace_id"], Value::Null);
    }
}
