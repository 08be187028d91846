//! How far a sync message's changes expand before Automerge loads them.
//!
//! Automerge inflates every DEFLATE-compressed part of a chunk in full, with
//! no bound, while it loads it: a few hundred kilobytes of a message can
//! hold gigabytes. So before a message is applied, [`check`] walks its chunks
//! in the Automerge binary format (magic bytes, checksum, type, LEB128
//! length, data) and inflates each compressed part through a counter that
//! stops at [`MAX_EXPANDED_BYTES`] and keeps nothing:
//!
//! | chunk type | compressed parts |
//! |---|---|
//! | 0, document | the columns whose specification has the deflate bit (`0x08`) |
//! | 1, change | none (Automerge refuses compressed columns in a change) |
//! | 2, compressed change | the whole chunk data |
//! | 3, bundle | like a document, after its dependencies and actors |
//!
//! Anything this walk cannot read is refused as not a sync message: a
//! message Automerge would load is one this walk reads.

use std::io::Read;

/// The most bytes the chunks of one sync message may expand to.
pub const MAX_EXPANDED_BYTES: u64 = 8 * 1024 * 1024;
/// The bytes every Automerge chunk starts with.
const MAGIC: [u8; 4] = [0x85, 0x6f, 0x4a, 0x83];
/// The deflate bit of a column specification.
const DEFLATE: u64 = 0x08;
/// Bytes of a change hash.
const HASH_BYTES: u64 = 32;

/// Why a message's changes were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpansionError {
    /// The chunks are not what the Automerge binary format says.
    #[error("a change chunk: {0}")]
    Malformed(&'static str),
    /// They expand past [`MAX_EXPANDED_BYTES`].
    #[error("a sync message's changes expand to more than {MAX_EXPANDED_BYTES} bytes")]
    TooLarge,
}

/// Checks that `chunks` (a sync message's changes; each may hold several
/// chunks back to back) expand to at most [`MAX_EXPANDED_BYTES`]; returns
/// what they expand to.
pub fn check<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> Result<u64, ExpansionError> {
    let mut budget = Budget {
        left: MAX_EXPANDED_BYTES,
    };
    for bytes in chunks {
        let mut input = Input(bytes);
        while !input.0.is_empty() {
            chunk(&mut input, &mut budget)?;
        }
    }
    Ok(MAX_EXPANDED_BYTES - budget.left)
}

fn malformed(what: &'static str) -> ExpansionError {
    ExpansionError::Malformed(what)
}

/// The bytes still to read.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn take(&mut self, n: u64) -> Result<&'a [u8], ExpansionError> {
        let n = usize::try_from(n).map_err(|_| malformed("a length past the end"))?;
        if n > self.0.len() {
            return Err(malformed("a length past the end"));
        }
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(taken)
    }

    /// An unsigned LEB128 number.
    fn uleb(&mut self) -> Result<u64, ExpansionError> {
        let mut value: u64 = 0;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = self
                .0
                .split_first()
                .ok_or_else(|| malformed("a number past the end"))?;
            self.0 = rest;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(malformed("a number over 64 bits"))
    }

    /// `count` items of `bytes` each, or of their own length prefix when `bytes` is `None`.
    fn skip_list(&mut self, bytes: Option<u64>) -> Result<(), ExpansionError> {
        let count = self.uleb()?;
        match bytes {
            Some(size) => {
                self.take(count.checked_mul(size).ok_or_else(|| malformed("a list"))?)?;
            }
            // Each item reads at least one byte, so a huge count ends at the end of the input.
            None => {
                for _ in 0..count {
                    let len = self.uleb()?;
                    self.take(len)?;
                }
            }
        }
        Ok(())
    }

    /// Column metadata: `(deflated, length)` of each column.
    fn columns(&mut self) -> Result<Vec<(bool, u64)>, ExpansionError> {
        let count = self.uleb()?;
        let mut columns = Vec::new();
        for _ in 0..count {
            let spec = self.uleb()?;
            let len = self.uleb()?;
            columns.push((spec & DEFLATE != 0, len));
        }
        Ok(columns)
    }
}

/// What the chunks may still expand to.
struct Budget {
    left: u64,
}

impl Budget {
    fn spend(&mut self, bytes: u64) -> Result<(), ExpansionError> {
        self.left = self
            .left
            .checked_sub(bytes)
            .ok_or(ExpansionError::TooLarge)?;
        Ok(())
    }

    /// Spends what `deflated` inflates to, reading no more than the budget allows.
    fn inflate(&mut self, deflated: &[u8]) -> Result<(), ExpansionError> {
        let decoder = flate2::bufread::DeflateDecoder::new(deflated);
        let mut bounded = decoder.take(self.left.saturating_add(1));
        let inflated = std::io::copy(&mut bounded, &mut std::io::sink())
            .map_err(|_| malformed("a compressed part that does not inflate"))?;
        self.spend(inflated)
    }

    /// The data of columns `columns`, read from `input`.
    fn columns(
        &mut self,
        input: &mut Input<'_>,
        columns: &[(bool, u64)],
    ) -> Result<(), ExpansionError> {
        for &(deflated, len) in columns {
            let data = input.take(len)?;
            if deflated {
                self.inflate(data)?;
            } else {
                self.spend(len)?;
            }
        }
        Ok(())
    }
}

/// One chunk from `input`: its header, then what its data expands to.
fn chunk(input: &mut Input<'_>, budget: &mut Budget) -> Result<(), ExpansionError> {
    if input.take(4)? != MAGIC {
        return Err(malformed("no magic bytes"));
    }
    let _checksum = input.take(4)?;
    let kind = input.take(1)?.first().copied();
    let len = input.uleb()?;
    let data = input.take(len)?;
    let mut data = Input(data);
    match kind {
        Some(0) => {
            data.skip_list(None)?; // actors
            data.skip_list(Some(HASH_BYTES))?; // heads
            let changes = data.columns()?;
            let ops = data.columns()?;
            budget.columns(&mut data, &changes)?;
            budget.columns(&mut data, &ops)?;
            // The heads' indices count as they are.
            budget.spend(data.0.len() as u64)
        }
        Some(1) => budget.spend(len),
        Some(2) => budget.inflate(data.0),
        Some(3) => {
            data.skip_list(Some(HASH_BYTES))?; // dependencies
            data.skip_list(None)?; // actors
            let changes = data.columns()?;
            budget.columns(&mut data, &changes)?;
            let ops = data.columns()?;
            budget.columns(&mut data, &ops)?;
            budget.spend(data.0.len() as u64)
        }
        _ => Err(malformed("an unknown chunk type")),
    }
}

/// A chunk of `kind` around `data`, with a checksum this walk does not check (tests).
#[cfg(test)]
pub(crate) fn framed(kind: u8, data: &[u8]) -> Vec<u8> {
    let mut chunk = MAGIC.to_vec();
    chunk.extend([0; 4]);
    chunk.push(kind);
    let mut len = data.len() as u64;
    loop {
        let byte = (len & 0x7f) as u8;
        len >>= 7;
        chunk.push(if len == 0 { byte } else { byte | 0x80 });
        if len == 0 {
            break;
        }
    }
    chunk.extend(data);
    chunk
}

/// A compressed change chunk (type 2) that inflates to `bytes` zeros: a
/// compression bomb for tests.
#[cfg(test)]
pub(crate) fn bomb(bytes: usize) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = encoder.write_all(&vec![0; bytes]);
    framed(2, &encoder.finish().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Timestamp;
    use crate::documents::{TextDocument, decode_sync, encode_sync};
    use automerge::sync::{self, State};
    /// A sync message from a document of `text` to a peer that has nothing: the whole document.
    fn whole_document(text: &str) -> sync::Message {
        let mut full = TextDocument::new([1; 16]);
        full.splice(0, 0, text, Timestamp::from(0)).unwrap();
        let mut empty = TextDocument::new([2; 16]);
        let (mut full_state, mut empty_state) = (State::new(), State::new());
        let hello = empty.generate_sync_message(&mut empty_state).unwrap();
        full.receive_sync_message(&mut full_state, hello).unwrap();
        full.generate_sync_message(&mut full_state).unwrap()
    }

    #[test]
    fn real_messages_are_read_and_counted() {
        // Changes one by one (type 1), then a whole document with compressed columns (type 0).
        let mut doc = TextDocument::new([1; 16]);
        let mut state = State::new();
        for n in 0..20 {
            doc.splice(0, 0, &format!("edit {n} "), Timestamp::from(0))
                .unwrap();
        }
        let changes = doc.generate_sync_message(&mut state).unwrap();
        assert!(check(changes.changes.iter()).is_ok());
        let text = "all work and no play ".repeat(5_000);
        let message = whole_document(&text);
        let raw: usize = message.changes.iter().map(<[u8]>::len).sum();
        let expanded = check(message.changes.iter()).unwrap();
        assert!(
            expanded > 10 * raw as u64,
            "the compressed columns were inflated: {raw} → {expanded}"
        );
        assert!(expanded >= text.len() as u64);
        // …and the message decodes as before.
        assert!(decode_sync(&encode_sync(message)).is_ok());
    }

    #[test]
    fn a_compression_bomb_is_refused_before_it_is_inflated_in_full() {
        let chunk = bomb(2 * MAX_EXPANDED_BYTES as usize);
        assert!(chunk.len() < 32 * 1024, "{} bytes", chunk.len());
        assert_eq!(check([chunk.as_slice()]), Err(ExpansionError::TooLarge));
        // The same through many chunks that are each small enough.
        let part = bomb(3 * 1024 * 1024);
        assert!(check([part.as_slice()]).is_ok());
        assert!(check([part.as_slice(); 3]).is_err());
    }

    proptest::proptest! {
        /// Whatever the bytes, the walk answers without panicking, and never
        /// counts past the bound.
        #[test]
        fn any_bytes_are_answered(
            kind in 0u8..5,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512),
            raw in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
        ) {
            for bytes in [framed(kind, &data), raw.clone(), [framed(kind, &data), raw].concat()] {
                if let Ok(expanded) = check([bytes.as_slice()]) {
                    proptest::prop_assert!(expanded <= MAX_EXPANDED_BYTES);
                }
            }
        }

        /// A compressed change counts what it inflates to, exactly.
        #[test]
        fn a_compressed_chunk_counts_what_it_inflates_to(
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4096),
            copies in 1usize..64,
        ) {
            use std::io::Write;
            let whole = data.repeat(copies);
            let mut encoder =
                flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            encoder.write_all(&whole).unwrap();
            let chunk = framed(2, &encoder.finish().unwrap());
            proptest::prop_assert_eq!(check([chunk.as_slice()]), Ok(whole.len() as u64));
        }
    }

    #[test]
    fn what_the_walk_cannot_read_is_refused() {
        let good = framed(1, b"data");
        assert_eq!(check([good.as_slice()]), Ok(4));
        for bad in [
            b"not a chunk".to_vec(),
            framed(9, b"data"),
            good[..good.len() - 1].to_vec(),
            framed(2, b"\xff\xff not deflate"),
            framed(0, &[0xff; 12]),
        ] {
            assert!(
                matches!(check([bad.as_slice()]), Err(ExpansionError::Malformed(_))),
                "{bad:?}"
            );
        }
    }
}
