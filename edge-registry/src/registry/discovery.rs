//! The registry object's discovery I/O: it runs [`discovery::handle`] and
//! stores what it returns, holds a `changes` long poll open, fetches a
//! submitted description and its DID document for [`discovery::submitted`]
//! (admitted by [`submit::admit`], bounded by the [`FetchPolicy`]),
//! and sends webhook deliveries from the object's alarm (signed by
//! [`webhook::sign`], retried after [`webhook::backoff_ms`]). Every fetch
//! goes through the outbound policy (`crate::host::outbound`) as it is made.

use crate::host::bounded_fetch::{self, fetch_text};
use crate::host::outbound::send;
use crate::host::{now, now_ms, random_seed, respond};
use crate::registry::discovery_store as store;
use crate::registry::object::RegistryObject;
use agentnet_core::bindings::discovery::submit::{self as submit, Unfetched};
use agentnet_core::bindings::discovery::{self, Answer};
use agentnet_core::bindings::{self, Response as Reply};
use agentnet_core::crypto::to_hex;
use agentnet_core::discovery::fetch_policy::FetchPolicy;
use agentnet_core::discovery::webhook;
use agentnet_core::outbound::OutboundPolicy;
use serde_json::Value;
use std::time::Duration;
use worker::{Delay, Headers, Method, RequestInit, Response, Result, SqlStorage};

/// How often a long poll looks for new changes.
const POLL_MS: u64 = 250;

/// A JSON document from `url` within the policy's bounds.
async fn get_json(policy: &FetchPolicy, url: &str) -> std::result::Result<Value, Unfetched> {
    let timeout = Duration::from_millis(policy.timeout_ms);
    let text = fetch_text(&policy.outbound, url, policy.max_bytes, timeout)
        .await
        .map_err(|why| match why {
            bounded_fetch::Unfetched::TooLarge => Unfetched::TooLarge,
            bounded_fetch::Unfetched::Outbound(error) => Unfetched::Outbound(error),
            bounded_fetch::Unfetched::Status(_) | bounded_fetch::Unfetched::NotText => {
                Unfetched::Failed
            }
        })?;
    serde_json::from_str(&text).map_err(|_| Unfetched::Failed)
}

/// A webhook delivery, through the outbound policy (checked again at every delivery).
async fn post(
    policy: &OutboundPolicy,
    url: &str,
    headers: &[(String, String)],
    body: &str,
) -> bool {
    let set = Headers::new();
    for (name, value) in headers {
        if set.set(name, value).is_err() {
            return false;
        }
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(set)
        .with_body(Some(body.into()));
    matches!(send(policy, url, &mut init).await, Ok(r) if (200..300).contains(&r.status_code()))
}

impl RegistryObject {
    /// Serves a discovery route (the registry and catalog are loaded).
    pub(crate) async fn serve_discovery(&self, request: bindings::Request) -> Result<Response> {
        let sql = self.state.storage().sql();
        let answer = self.with_both(|registry, catalog| {
            let fresh = || to_hex(&random_seed()[..12]);
            discovery::handle(registry, catalog, &request, fresh, now())
        })?;
        match answer {
            Answer::Reply(reply) => {
                let discovery::Reply {
                    response,
                    record,
                    change,
                    webhook,
                } = *reply;
                if let Some(record) = record {
                    self.store_record(&sql, &record)?;
                }
                if let Some((change, pruned)) = change {
                    self.store_change(&sql, &change, &pruned).await?;
                }
                if let Some((id, hook)) = webhook {
                    store::store_webhook(&sql, &id, hook.as_ref())?;
                }
                if response.status == 204 {
                    return respond(self.long_poll(&request, response).await?);
                }
                respond(response)
            }
            Answer::Fetch { url } => {
                let admitted = {
                    let mut submissions = self.submissions.borrow_mut();
                    submit::admit(&self.policy, &mut submissions, &request, &url, now())
                };
                match admitted {
                    Ok(()) => respond(self.submit(&sql, &url).await?),
                    Err(refused) => respond(refused),
                }
            }
        }
    }

    /// Waits up to the request's `wait` for a change after its `seq`.
    async fn long_poll(&self, request: &bindings::Request, empty: Reply) -> Result<Reply> {
        let deadline = now_ms().saturating_add(discovery::wait_of(request) * 1000);
        while now_ms() < deadline {
            Delay::from(Duration::from_millis(POLL_MS)).await;
            let answer = self.with_both(|_, catalog| discovery::changes(catalog, request))?;
            match answer {
                Ok(response) if response.status == 204 => continue,
                Ok(response) => return Ok(response),
                Err(e) => return Ok(discovery::refusal(&e)),
            }
        }
        Ok(empty)
    }

    /// Passive registration (admitted): fetch, check, resolve the DID, list.
    async fn submit(&self, sql: &SqlStorage, url: &str) -> Result<Reply> {
        let doc = match get_json(&self.policy, url).await {
            Ok(doc) => doc,
            Err(why) => return Ok(submit::unfetched(&self.policy, url, &why)),
        };
        let did_doc = match discovery::did_document_url(&doc) {
            Some(did_url) => match self.policy.check_url(&did_url) {
                Err(refused) => return Ok(discovery::refusal(&refused)),
                Ok(checked) => get_json(&self.policy, checked.as_str()).await.ok(),
            },
            None => None,
        };
        let response = self
            .with_both(|_, catalog| discovery::submitted(catalog, url, &doc, did_doc.as_ref()))?;
        if response.status == 201 {
            store::store_submitted(sql, url, &doc)?;
        }
        Ok(response)
    }

    /// Stores a change and wakes the alarm when a delivery is queued.
    pub(crate) async fn store_change(
        &self,
        sql: &SqlStorage,
        change: &agentnet_core::discovery::feed::Change,
        pruned: &[u64],
    ) -> Result<()> {
        let queued = self.with_both(|_, catalog| {
            store::store_change(sql, catalog, change, pruned, now_ms())
        })??;
        if queued {
            self.wake_at(now_ms()).await?;
        }
        Ok(())
    }

    /// Sets the alarm for `at`, unless it is set for earlier.
    pub(crate) async fn wake_at(&self, at: u64) -> Result<()> {
        let storage = self.state.storage();
        let current = storage
            .get_alarm()
            .await?
            .and_then(|c| u64::try_from(c).ok());
        if current.is_none_or(|c| c > at) {
            storage
                .set_alarm(worker::ScheduledTime::new(worker::js_sys::Date::new(
                    &(at as f64).into(),
                )))
                .await?;
        }
        Ok(())
    }

    /// Sends the deliveries due now and sets the alarm for the next.
    pub(crate) async fn deliver_due(&self) -> Result<()> {
        let sql = self.state.storage().sql();
        sql.exec(store::SCHEMA, None)?;
        let now = now_ms();
        for delivery in store::due(&sql, now)? {
            let hook = self.with_both(|_, c| c.webhooks.get(&delivery.webhook_id).cloned())?;
            let Some(hook) = hook else {
                store::settle(&sql, &delivery, None)?;
                continue;
            };
            let line = &delivery.body;
            let headers = vec![
                ("Content-Type".to_owned(), "application/json".to_owned()),
                (
                    webhook::SIGNATURE_HEADER.to_owned(),
                    webhook::sign(&hook.secret, now / 1000, line),
                ),
                ("X-DRC-Webhook-Id".to_owned(), hook.webhook_id.clone()),
                ("X-DRC-Seq".to_owned(), delivery.seq.to_string()),
            ];
            let attempt = u32::try_from(delivery.attempt)
                .unwrap_or(u32::MAX)
                .saturating_add(1);
            let retry = if post(&self.policy.outbound, &hook.url, &headers, line).await {
                None
            } else {
                webhook::backoff_ms(attempt).map(|wait| (now_ms().saturating_add(wait), attempt))
            };
            store::settle(&sql, &delivery, retry)?;
        }
        if let Some(next) = store::next_due(&sql)? {
            self.wake_at(next.max(now_ms())).await?;
        }
        Ok(())
    }
}
