//! A streamed answer as it arrives: SSE chunks read into the provider's
//! decoder, the text so far passed on as [`AgentEffect::StreamText`], and a
//! stream that breaks or grows past [`MAX_STREAM_BYTES`] stopped.

use crate::agent::chat::{ProviderError, Reply};
use crate::agent::effects::AgentEffect;
use crate::agent::rules::Place;
use crate::agent::turn::{Agent, MAX_STREAM_BYTES};
use crate::ids::time::Timestamp;

impl Agent {
    pub(super) fn stream(&mut self, place: Place, chunk: &str, now: Timestamp) -> Vec<AgentEffect> {
        let Some(turn) = self.turns.get_mut(&place) else {
            return Vec::new();
        };
        turn.received = turn.received.saturating_add(chunk.len());
        if turn.received > MAX_STREAM_BYTES {
            let error = ProviderError::Malformed(format!(
                "the answer is longer than {MAX_STREAM_BYTES} bytes"
            ));
            return self.failed(&place, &error, now);
        }
        let events = turn.reader.push(chunk);
        let Some(decoder) = turn.decoder.as_mut() else {
            return Vec::new();
        };
        let mut grew = false;
        for event in &events {
            match decoder.event(event) {
                Ok(text) => grew |= !text.is_empty(),
                Err(error) => return self.failed(&place, &error, now),
            }
        }
        if !grew {
            return Vec::new();
        }
        vec![AgentEffect::StreamText {
            conversation: place,
            text: decoder.text().to_owned(),
        }]
    }

    pub(super) fn end_stream(&mut self, place: &Place) -> Option<Result<Reply, ProviderError>> {
        let turn = self.turns.get_mut(place)?;
        let events = turn.reader.finish();
        let mut decoder = turn.decoder.take()?;
        for event in &events {
            if let Err(error) = decoder.event(event) {
                return Some(Err(error));
            }
        }
        Some(decoder.finish())
    }
}
