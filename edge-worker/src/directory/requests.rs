//! What the Worker asks of the directory around a network's life: whether
//! its creator may create one more ([`admit_creation`]), the creation itself
//! (in the network's own object, then its listing when public), and the list
//! of public networks behind `GET /v1/networks`.

use crate::handover::directory_object;
use crate::host::stubs::post;
use crate::host::{NETWORKS_BINDING, random_seed, respond};
use agentnet_core::bindings;
use agentnet_core::bindings::directory as listings;
use agentnet_core::bindings::directory::create;
use agentnet_core::bindings::directory::networks;
use serde_json::Value;
use worker::{Env, Response, Result};

/// Asks the directory whether `creator` may create one more network: `None`
/// when it may, else the refusal to send back.
async fn admit_creation(creator: &str, env: &Env) -> Result<Option<Response>> {
    let answer = post(
        &directory_object(env).await?,
        listings::DIRECTORY_ADMIT,
        listings::admission(creator),
    )
    .await?;
    Ok((answer.status_code() != 204).then_some(answer))
}

pub(crate) async fn create_network(request: &bindings::Request, env: &Env) -> Result<Response> {
    let creator = listings::creator_of(request);
    let id = create::new_network_id(&random_seed());
    let creation = match networks::creation(&request.body, id, &creator) {
        Ok(creation) => creation,
        Err(response) => return respond(response),
    };
    if let Some(refused) = admit_creation(&creator, env).await? {
        return Ok(refused);
    }
    let url = format!("{}{}", request.origin(), bindings::http::CREATE_PATH);
    let stub = env
        .durable_object(NETWORKS_BINDING)?
        .id_from_name(&creation.id)?
        .get_stub()?;
    let response = post(&stub, &url, creation.body).await?;
    if response.status_code() == networks::CREATED && creation.public {
        post(
            &directory_object(env).await?,
            listings::DIRECTORY_REGISTER,
            creation.listing,
        )
        .await?;
    }
    Ok(response)
}

pub(crate) async fn list_networks(request: &bindings::Request, env: &Env) -> Result<Response> {
    let query = match listings::list_query(request) {
        Ok(query) => query,
        Err(response) => return respond(response),
    };
    let mut listed = directory_object(env)
        .await?
        .fetch_with_str(&listings::list_url(&query))
        .await?;
    let rows: Vec<Value> = listed.json().await?;
    respond(listings::listing(&rows, query.limit, request.origin()))
}
