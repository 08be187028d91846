//! Walking a source tree, for the house-rule checks that read it as text
//! (`layout.rs`, `layout_modules.rs`).

use std::fs;
use std::path::{Path, PathBuf};

/// Every entry below `dir`, folders included (each after what it holds).
pub fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        }
        out.push(path);
    }
}
