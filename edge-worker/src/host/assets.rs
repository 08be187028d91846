//! The workspace's static files (`www/`), served by the Worker from the
//! platform's assets binding (`ASSETS` in `wrangler.toml`) once the request
//! passed the checks every request passes: a host of the deployment's own
//! and a body read to its end. The assets layer adds the headers of
//! `www/_headers` and answers app routes with the page
//! (`not_found_handling = "single-page-application"`).

use worker::{Env, Request, Response, Result};

/// The assets binding declared in `wrangler.toml`.
pub const ASSETS_BINDING: &str = "ASSETS";

/// The static file (or the app's page) `req` asks for.
pub async fn serve(env: &Env, req: Request) -> Result<Response> {
    env.assets(ASSETS_BINDING)?.fetch_request(req).await
}
