//! Any bytes as an Automerge sync message, saved document or stored rows: see
//! `agentnet_core::fuzzing::document_sync`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    agentnet_core::fuzzing::document_sync(data);
});
