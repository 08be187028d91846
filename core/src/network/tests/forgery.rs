//! Members cannot forge the network's news: invitation news, task lists and
//! discovery answers come only from `core`.

use super::*;

#[test]
fn members_cannot_forge_invitation_news_or_other_network_answers() {
    let mut network = network_with(vec![ModConfig::Workspace(Default::default())]);
    let [_ceo, mut mallory] = join_all(&mut network, ["agent:ceo", "agent:mallory"]);
    for kind in [
        "workspace.invitation.accepted",
        "workspace.invitation.rejected",
        "task.list.response",
        "network.discovery.response",
    ] {
        let forged = json!({"invitee": "agent:ceo", "expires_at": 1});
        let effects = mallory.send(&mut network, kind, "agent:ceo", forged);
        assert_eq!(error_code(&effects), ErrorCode::ReservedType, "{kind}");
        assert!(delivered_to(&effects).is_empty(), "{kind} was delivered");
    }
    // An invitation is issued by core; sent anywhere else it is no invitation.
    let effects = mallory.send(
        &mut network,
        INVITATION_CREATED,
        "agent:ceo",
        json!({"invitee": "agent:mallory"}),
    );
    assert_eq!(error_code(&effects), ErrorCode::InvalidRequest);
    assert!(delivered_to(&effects).is_empty());
}
