//! What a network object's commit leaves for discovery
//! (`crate::network::discovery` sends it): queries waiting for the registry,
//! whether the listing or the settings may have changed, and the listing sent last.

use agentnet_core::network::DiscoveryAsk;
use std::cell::{Cell, RefCell};

/// What waits for the registry or the directory after a commit.
#[derive(Default)]
pub(crate) struct DiscoveryIo {
    asks: RefCell<Vec<DiscoveryAsk>>,
    listing_dirty: Cell<bool>,
    listing_sent: RefCell<Option<String>>,
    settings_changed: Cell<bool>,
}

impl DiscoveryIo {
    /// A query waiting for the registry's part of its answer.
    pub(crate) fn ask(&self, ask: DiscoveryAsk) {
        self.asks.borrow_mut().push(ask);
    }

    /// A member row changed: the listing may have.
    pub(crate) fn members_changed(&self) {
        self.listing_dirty.set(true);
    }

    /// The configuration changed: the listing and the directory entry may have.
    pub(crate) fn settings_changed(&self) {
        self.listing_dirty.set(true);
        self.settings_changed.set(true);
    }
}

impl DiscoveryIo {
    /// The queries waiting, and whether the listing and the settings may have changed (cleared).
    pub(crate) fn take(&self) -> (Vec<DiscoveryAsk>, bool, bool) {
        (
            std::mem::take(&mut *self.asks.borrow_mut()),
            self.listing_dirty.replace(false),
            self.settings_changed.replace(false),
        )
    }

    /// `listing` when it is not the one sent last (then it counts as sent).
    pub(crate) fn is_new(&self, listing: String) -> Option<String> {
        let mut sent = self.listing_sent.borrow_mut();
        if sent.as_deref() == Some(listing.as_str()) {
            return None;
        }
        *sent = Some(listing.clone());
        Some(listing)
    }

    /// The last listing did not arrive: the next one is sent whatever it is.
    pub(crate) fn forget_sent(&self) {
        *self.listing_sent.borrow_mut() = None;
    }
}
