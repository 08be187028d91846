//! [`Keeper`]: who keeps a network's shared documents — the network itself
//! (feature `documents`), its host elsewhere, or nobody.

/// Who keeps a network's shared documents.
pub(crate) enum Keeper {
    /// The network itself.
    #[cfg(feature = "documents")]
    Here(Box<crate::documents::DocumentHost>),
    /// Its host, elsewhere: asks go out as [`crate::network::Effect::Document`].
    Elsewhere,
    /// Nobody (a network without Automerge whose host keeps none): files
    /// and context are plain resources.
    #[cfg(not(feature = "documents"))]
    Nobody,
}

impl Keeper {
    /// The keeper a network starts with: itself when it has Automerge.
    pub(crate) fn default_for(network: &crate::ids::network_id::NetworkId) -> Self {
        #[cfg(feature = "documents")]
        return Self::Here(Box::new(crate::documents::DocumentHost::new(network, [])));
        #[cfg(not(feature = "documents"))]
        {
            let _ = network;
            Self::Nobody
        }
    }
}
