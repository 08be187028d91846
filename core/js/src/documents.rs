//! Shared documents on the JS `Replica` (feature `documents`): open, read,
//! edit and close a file's or context's text. Edits return effects like
//! every other replica method; remote changes arrive as
//! `{kind: "document_changed", address, text, editors}` effects.

use crate::errors::{coded, js_error, moment};
use crate::replica::JsReplica;
use agentnet_core::Address;
use agentnet_core::replica::DocumentEdit;
use wasm_bindgen::prelude::*;

fn rejection_error(rejection: agentnet_core::Rejection) -> JsValue {
    js_error(rejection.code.as_str(), &rejection.message)
}

fn document_address(address: &str) -> Result<Address, JsValue> {
    address.parse().map_err(coded)
}

/// A JS number as a text position (UTF-16 units).
fn position(value: f64, what: &str) -> Result<usize, JsValue> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= u32::MAX as f64 {
        Ok(value as usize)
    } else {
        Err(js_error(
            "invalid_request",
            &format!("{what} must be a whole number ≥ 0"),
        ))
    }
}

#[wasm_bindgen(js_class = Replica)]
impl JsReplica {
    /// Opens a file or context for editing; `actor` is 16 random bytes. Returns effects.
    #[wasm_bindgen(js_name = openDocument)]
    pub fn open_document(
        &mut self,
        address: &str,
        actor: &[u8],
        now: f64,
    ) -> Result<String, JsValue> {
        let actor: [u8; 16] = actor
            .try_into()
            .map_err(|_| js_error("invalid_request", "actor must be 16 bytes"))?;
        let effects = self
            .inner
            .open_document(&document_address(address)?, actor, moment(now))
            .map_err(rejection_error)?;
        Ok(self.effects_json(effects))
    }

    /// The text of an open document (undefined when it is not open).
    #[wasm_bindgen(js_name = documentText)]
    pub fn document_text(&self, address: &str) -> Result<Option<String>, JsValue> {
        Ok(self.inner.document_text(&document_address(address)?))
    }

    /// The members with the document open, as JSON text (`[]` when not open).
    #[wasm_bindgen(js_name = documentEditors)]
    pub fn document_editors(&self, address: &str) -> Result<String, JsValue> {
        let editors = self
            .inner
            .document_editors(&document_address(address)?)
            .unwrap_or_default();
        Ok(serde_json::to_string(editors).unwrap_or_else(|_| "[]".into()))
    }

    /// Deletes `delete` UTF-16 units at `index` and inserts `insert`. Returns effects.
    #[wasm_bindgen(js_name = spliceDocument)]
    pub fn splice_document(
        &mut self,
        address: &str,
        index: f64,
        delete: f64,
        insert: &str,
        now: f64,
    ) -> Result<String, JsValue> {
        let edit = DocumentEdit::Splice {
            index: position(index, "index")?,
            delete: position(delete, "deleteCount")?,
            insert: insert.to_owned(),
        };
        self.edit(address, edit, now)
    }

    /// Makes the text exactly `text` (recorded as the smallest edit). Returns effects.
    #[wasm_bindgen(js_name = replaceDocument)]
    pub fn replace_document(
        &mut self,
        address: &str,
        text: &str,
        now: f64,
    ) -> Result<String, JsValue> {
        self.edit(address, DocumentEdit::Replace(text.to_owned()), now)
    }

    /// Closes a document. Returns effects.
    #[wasm_bindgen(js_name = closeDocument)]
    pub fn close_document(&mut self, address: &str, now: f64) -> Result<String, JsValue> {
        let address = document_address(address)?;
        let effects = self.inner.close_document(&address, moment(now));
        Ok(self.effects_json(effects))
    }
}

impl JsReplica {
    fn edit(&mut self, address: &str, edit: DocumentEdit, now: f64) -> Result<String, JsValue> {
        let effects = self
            .inner
            .edit_document(&document_address(address)?, edit, moment(now))
            .map_err(rejection_error)?;
        Ok(self.effects_json(effects))
    }
}
