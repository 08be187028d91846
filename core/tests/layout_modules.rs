//! The core's one module style and one test placement, checked on every test
//! run (docs/architecture.md, "Where tests go"):
//!
//! * a module with children is a folder with a `mod.rs` — never `foo.rs`
//!   beside a `foo/` folder;
//! * a module's unit tests are its child module `tests`: inline, `tests.rs`
//!   (or a `tests/` folder) in a folder module, or `foo_tests.rs` beside a
//!   leaf `foo.rs` that declares it with `#[path = "foo_tests.rs"] mod tests;`
//!   — no other `#[path]`, and no test module declared beside the module it
//!   tests.

#[path = "support/walk.rs"]
mod walk;

use std::fs;
use std::path::{Path, PathBuf};
use walk::walk;

fn core_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn sources() -> Vec<PathBuf> {
    let mut all = Vec::new();
    walk(&core_src(), &mut all);
    all.sort();
    all
}

#[test]
fn a_module_with_children_is_a_folder_with_mod_rs() {
    let pairs: Vec<String> = sources()
        .into_iter()
        .filter(|p| p.is_dir() && p.with_extension("rs").is_file())
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        pairs.is_empty(),
        "foo.rs beside foo/ (move foo.rs to foo/mod.rs):\n{}",
        pairs.join("\n")
    );
}

#[test]
fn tests_are_the_child_module_of_what_they_test() {
    let mut wrong = Vec::new();
    for path in sources().into_iter().filter(|p| p.is_file()) {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if let Some(stem) = name.strip_suffix("_tests.rs") {
            let tested = path.with_file_name(format!("{stem}.rs"));
            let declared = fs::read_to_string(&tested).unwrap_or_default();
            let declaration = format!("#[path = \"{name}\"]\nmod tests;");
            if !declared.contains(&declaration) {
                wrong.push(format!(
                    "{}: not `{declaration}` in {stem}.rs",
                    path.display()
                ));
            }
        }
        let text = fs::read_to_string(&path).unwrap_or_default();
        for (at, line) in text.lines().enumerate() {
            let line = line.trim();
            let path_attribute = line.starts_with("#[path")
                && !(line.ends_with("_tests.rs\"]")
                    && text.contains(&format!("{line}\nmod tests;")));
            let beside = line.starts_with("mod ") && line.ends_with("_tests;");
            if path_attribute || beside {
                wrong.push(format!("{}:{}: {line}", path.display(), at + 1));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "tests placed otherwise:\n{}",
        wrong.join("\n")
    );
}
