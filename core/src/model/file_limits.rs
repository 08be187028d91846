//! How big attached files may be in one network (`crate::files` keeps
//! them): a leaf of the model, so the configuration can hold it.

use serde::{Deserialize, Serialize};

/// The largest `max_file_bytes` a network may set (5 GiB).
pub const MAX_FILE_BYTES_CEILING: u64 = 5 * 1024 * 1024 * 1024;

/// How big files may be in one network: a network setting
/// (`network.admin.settings.update` with `files`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileLimits {
    /// The largest file, in bytes (100 MiB unless set).
    #[serde(default = "default_max_file_bytes")]
    pub max_file_bytes: u64,
    /// Every stored file together (and those being uploaded), in bytes (1 GiB unless set).
    #[serde(default = "default_quota_bytes")]
    pub quota_bytes: u64,
}

fn default_max_file_bytes() -> u64 {
    100 * 1024 * 1024
}

fn default_quota_bytes() -> u64 {
    1024 * 1024 * 1024
}

impl Default for FileLimits {
    fn default() -> Self {
        Self {
            max_file_bytes: default_max_file_bytes(),
            quota_bytes: default_quota_bytes(),
        }
    }
}

impl FileLimits {
    /// True for the defaults (left out of a stored configuration).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Checks limits a master sets: a file of 1 byte to 5 GiB, a quota at
    /// least one file; why not, in words.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_FILE_BYTES_CEILING).contains(&self.max_file_bytes)
            || self.quota_bytes < self.max_file_bytes
        {
            return Err(format!(
                "files: max_file_bytes is 1 to {MAX_FILE_BYTES_CEILING} and quota_bytes at least max_file_bytes"
            ));
        }
        Ok(())
    }
}
