//! A `network_frames` conversation that edits a shared file: two members
//! open it, sync with the network's copy round by round (each answering the
//! network's sync message as a replica would), edit, and close it.

use super::script::Script;
use crate::Timestamp;
use crate::documents::{TextDocument, decode_sync, encode_sync, payload};
use crate::network::Effect;
use automerge::sync::State;
use serde_json::{Value, json};

/// The file the members edit.
const FILE: &str = "resource/file/notes.md";

/// One member's open copy of [`FILE`].
struct Editor {
    who: usize,
    doc: TextDocument,
    state: State,
    session: String,
}

impl Editor {
    fn new(who: usize, actor: u8) -> Self {
        Self {
            who,
            doc: TextDocument::new([actor; 16]),
            state: State::new(),
            session: format!("{actor:02x}").repeat(16),
        }
    }

    /// Sends what this copy has to say, then applies the network's answers.
    fn round(&mut self, script: &mut Script) {
        let Some(message) = self.doc.generate_sync_message(&mut self.state) else {
            return;
        };
        let body = json!({ payload::SYNC: encode_sync(message), "session": self.session });
        let effects = script.send(self.who, "network.resource.update", FILE, body);
        for answer in answers(&effects) {
            if let Ok(message) = decode_sync(&answer) {
                let _ = self.doc.receive_sync_message(&mut self.state, message);
            }
        }
    }
}

/// The sync messages in the network's answers and deliveries.
fn answers(effects: &[Effect]) -> Vec<String> {
    let mut texts: Vec<String> = effects.iter().filter_map(Effect::reply_text).collect();
    texts.extend(
        effects
            .iter()
            .flat_map(|e| e.frames().into_iter().map(|(_, f)| f)),
    );
    texts
        .iter()
        .filter_map(|text| serde_json::from_str::<Value>(text).ok())
        .filter_map(|event| {
            let sync = event.pointer("/payload/sync")?.as_str()?;
            Some(sync.to_owned())
        })
        .collect()
}

/// Alice registers the file, she and Bob open and edit it, and both close it.
pub(super) fn editing() -> Script {
    let (alice, bob) = (0, 1);
    let mut script = Script::new();
    script.join(alice);
    script.join(bob);
    script.send(
        alice,
        "network.resource.register",
        "core",
        json!({"address": FILE, "content": "first line\n"}),
    );
    let mut editors = [Editor::new(alice, 0xa1), Editor::new(bob, 0xb0)];
    for round in 0..4 {
        for editor in &mut editors {
            if round == 2 {
                let at = editor.doc.len();
                let _ = editor.doc.splice(
                    at,
                    0,
                    &format!("line by {}\n", editor.who),
                    Timestamp::from(10),
                );
            }
            editor.round(&mut script);
        }
    }
    for editor in &editors {
        let body = json!({ payload::CLOSE: true, "session": editor.session });
        script.send(editor.who, "network.resource.update", FILE, body);
    }
    script
}
