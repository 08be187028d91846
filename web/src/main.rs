//! Mounts the agentnet workspace into the page body.

fn main() {
    leptos::mount::mount_to_body(agentnet_web::App);
}
