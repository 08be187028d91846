//! The network's guard against agents answering each other without end,
//! through the whole pipeline: two agents posting to each other in a
//! channel are refused with `rate_limited` past the bound, a person's
//! message lets them go on, and the refused agent's connection survives.

use super::*;
use crate::mods::workspace::agent_runs::MAX_AGENT_RUN;

const POSTED: &str = "workspace.message.posted";

#[test]
fn agents_are_stopped_after_a_run_without_a_person_until_one_posts() {
    let mut network = network_with(vec![ModConfig::Workspace(WorkspaceSettings::default())]);
    let [mut ann, mut ping, mut pong] =
        join_all(&mut network, ["human:ann", "agent:ping", "agent:pong"]);
    let content = |n: u32| json!({ "content": format!("@pong {n}") });
    for n in 0..MAX_AGENT_RUN {
        let agent = if n % 2 == 0 { &mut ping } else { &mut pong };
        let sent = agent.broadcast(&mut network, POSTED, content(n));
        assert!(!delivered_to(&sent).is_empty(), "message {n}: {sent:#?}");
    }
    let refused = ping.broadcast(&mut network, POSTED, content(99));
    assert_eq!(error_code(&refused), ErrorCode::RateLimited);

    let person = ann.broadcast(&mut network, POSTED, json!({"content": "go on"}));
    assert!(!delivered_to(&person).is_empty());
    let again = ping.broadcast(&mut network, POSTED, content(100));
    assert!(!delivered_to(&again).is_empty(), "{again:#?}");
}
