//! What a join at level 2 or 3 needs fetched before the core sees it
//! ([`agentnet_core::network::members::identity`]): issuers' JWKS and DID documents.
//!
//! This deployment's own registry answers locally (its Durable Object, no
//! outbound request): the JWKS of an issuer equal to this origin,
//! `did:openagents:…`, and `did:wba` documents of this host. Anything else
//! is an outbound `fetch` of the issuer's `/.well-known/jwks.json` or the
//! did:wba document URL, through the outbound policy
//! (`crate::host::outbound`). The core keeps each answer for a short time.
//!
//! A DIDWba header's nonce is then claimed at the registry object, so that
//! it is single use across the deployment (`agentnet_core::bindings::access::nonce_claims`).

use crate::host::outbound::send;
use crate::network::object::NetworkHost;
use agentnet_core::bindings::access::nonce_claims;
use agentnet_core::identity::did::Did;
use agentnet_core::identity::error::IdentityError;
use agentnet_core::network::members::identity::Lookup;
use serde_json::Value;
use worker::{Method, Request, RequestInit, Result};

/// A fetched JSON answer: the body, `Revoked` for 410, else why not.
async fn json_of(
    mut response: worker::Response,
    what: &str,
) -> std::result::Result<Value, IdentityError> {
    match response.status_code() {
        200 => response
            .json::<Value>()
            .await
            .map_err(|_| IdentityError::Unresolvable(format!("{what}: not JSON"))),
        410 => Err(IdentityError::Revoked(what.to_owned())),
        status => Err(IdentityError::Unresolvable(format!(
            "{what}: HTTP {status}"
        ))),
    }
}

impl NetworkHost {
    /// Remembers the origin requests reach this object at (for local answers).
    pub(crate) fn note_origin(&self, origin: &str) {
        if self.origin.borrow().as_deref() != Some(origin) {
            *self.origin.borrow_mut() = Some(origin.to_owned());
            // Kept for discovery after a wake (`crate::network::discovery`).
            if let Err(err) = self.store_origin(origin) {
                worker::console_warn!("the origin could not be kept: {err}");
            }
        }
    }

    fn is_local(&self, url: &str) -> bool {
        self.origin.borrow().as_deref().is_some_and(|origin| {
            url.strip_prefix(origin)
                .is_some_and(|rest| rest.starts_with('/'))
        })
    }

    /// GET `url`, from the registry object when it is this deployment's.
    async fn get(&self, url: &str, what: &str) -> std::result::Result<Value, IdentityError> {
        let mut init = RequestInit::new();
        init.with_method(Method::Get);
        let response = if self.is_local(url) {
            let local = async {
                let request = Request::new_with_init(url, &init)?;
                crate::handover::registry_object(&self.env)
                    .await?
                    .fetch_with_request(request)
                    .await
            };
            local
                .await
                .map_err(|e| IdentityError::Unresolvable(format!("{what}: {e}")))?
        } else {
            // Outside: through the outbound policy, and no word on how a fetch failed.
            send(&self.outbound_policy, url, &mut init)
                .await
                .map_err(|e| IdentityError::Unresolvable(format!("{what}: {}", e.described())))?
        };
        json_of(response, what).await
    }

    async fn resolve(&self, lookup: Lookup) -> Result<()> {
        let now = crate::host::now();
        match lookup {
            Lookup::Jwks { issuer } => {
                let fetched = self
                    .get(&Lookup::jwks_url(&issuer), &issuer)
                    .await
                    .map_err(|e| e.to_string());
                if let Some(network) = self.network.borrow_mut().as_mut() {
                    network.provide_jwks(&issuer, fetched, now);
                }
            }
            Lookup::Document { did } => {
                let url = match &did {
                    Did::OpenAgents(_) => {
                        let origin = self
                            .origin
                            .borrow()
                            .clone()
                            .unwrap_or_else(|| "https://registry.invalid".into());
                        format!("{origin}/registry/v1/did/{did}")
                    }
                    Did::Wba { .. } => did.document_url().unwrap_or_default(),
                };
                let fetched = if matches!(did, Did::OpenAgents(_)) && !self.is_local(&url) {
                    // No origin known yet (a socket frame after a wake): ask the registry object directly.
                    self.registry_document(&did).await
                } else {
                    self.get(&url, &did.to_string()).await
                };
                if let Some(network) = self.network.borrow_mut().as_mut() {
                    network.provide_document(&did, fetched, now);
                }
            }
        }
        Ok(())
    }

    async fn registry_document(&self, did: &Did) -> std::result::Result<Value, IdentityError> {
        let url = format!("https://registry.invalid/registry/v1/did/{did}");
        let stub = crate::handover::registry_object(&self.env)
            .await
            .map_err(|e| IdentityError::Unresolvable(e.to_string()))?;
        let response = stub
            .fetch_with_str(&url)
            .await
            .map_err(|e| IdentityError::Unresolvable(e.to_string()))?;
        json_of(response, &did.to_string()).await
    }

    /// Fetches what the frame or request body `text` needs for its identity
    /// proof, and hands it to the network.
    pub(crate) async fn resolve_identity(&self, text: &str) -> Result<()> {
        self.resolve_for(text, None).await
    }

    /// [`Self::resolve_identity`] for an HTTP request: its body, and the DID
    /// of its DID proof (a `DIDWba` header or an HTTP Message Signature).
    pub(crate) async fn resolve_request(
        &self,
        request: &agentnet_core::bindings::Request,
    ) -> Result<()> {
        let domain = agentnet_core::bindings::access::didwba::domain_of(request);
        let header = agentnet_core::bindings::access::didwba::proof_of(request);
        self.resolve_for(&request.body, header.as_deref().map(|h| (h, domain)))
            .await?;
        if let Some(header) = header.as_deref() {
            self.claim_nonce(header, domain).await;
        }
        Ok(())
    }

    /// Claims the nonce of a DIDWba header that could be accepted at the
    /// deployment's registry; a refused claim (or none made) makes the
    /// network refuse the header as a reused nonce.
    async fn claim_nonce(&self, header: &str, domain: &str) {
        let now = crate::host::now();
        let claim = match self.network.borrow().as_ref() {
            Some(network) => network.didwba_claim(header, domain, now),
            None => None,
        };
        let Some(claim) = claim else { return };
        let granted = match self.ask_registry_claim(&claim).await {
            Ok(status) => nonce_claims::granted(status),
            Err(err) => {
                worker::console_error!("a DIDWba nonce could not be claimed: {err}");
                false
            }
        };
        if !granted && let Some(network) = self.network.borrow_mut().as_mut() {
            network.didwba_claim_refused(&claim, now);
        }
    }

    async fn ask_registry_claim(&self, claim: &nonce_claims::NonceClaim) -> Result<u16> {
        let mut init = RequestInit::new();
        init.with_method(Method::Post)
            .with_body(Some(serde_json::to_string(claim)?.into()));
        let url = format!("https://registry.invalid{}", nonce_claims::CLAIM_PATH);
        let request = Request::new_with_init(&url, &init)?;
        let response = crate::handover::registry_object(&self.env)
            .await?
            .fetch_with_request(request)
            .await?;
        Ok(response.status_code())
    }

    /// Resolves what `text` and a DIDWba header (with the domain it reached) need.
    async fn resolve_for(&self, text: &str, header: Option<(&str, &str)>) -> Result<()> {
        let now = crate::host::now();
        let lookups = match self.network.borrow().as_ref() {
            Some(network) => {
                let mut lookups = network.identity_lookups_in(text, now);
                if let Some((header, domain)) = header {
                    lookups.extend(network.didwba_lookups(header, domain, now));
                }
                lookups
            }
            None => return Ok(()),
        };
        for lookup in lookups {
            self.resolve(lookup).await?;
        }
        Ok(())
    }
}
