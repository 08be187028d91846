//! Mounts the agentnet workspace into the page body, with the panic hook
//! that reports a bug in the page instead of an `unreachable` trap.

fn main() {
    agentnet_web::panic::install();
    leptos::mount::mount_to_body(agentnet_web::App);
}
