//! The npm package's TypeScript declarations of the core's types
//! (`types/generated/`, one file per core module), derived from the Rust
//! types by `ts-rs` (the core's `ts` feature, which only this test turns on)
//! and checked against the files in the repository, so the two cannot drift.
//!
//! Check: `cargo test -p agentnet-js declarations`. Regenerate after changing
//! a type: `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

use agentnet_core::agent::config::{AgentMode, AnswerMode, Budgets, ProviderKind};
use agentnet_core::agent::effects::Progress;
use agentnet_core::answers::Answer;
use agentnet_core::error::{ErrorCode, Rejection};
use agentnet_core::model::agent_mod::{LatePolicy, ModMode};
use agentnet_core::model::payloads::NetworkProfile;
use agentnet_core::model::task::{Task, TaskState};
use agentnet_core::replica::OutboxEntry;
use std::any::TypeId;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use ts_rs::{Config, TS, TypeVisitor};

/// The folder, relative to the package (`core/js`).
const DIR: &str = "types/generated";
/// Set to write the files instead of checking them.
const WRITE: &str = "AGENTNET_WRITE_DECLARATIONS";
/// The command that regenerates the files, for the failure message.
const FIX: &str = "AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations";

/// One TypeScript declaration and where it goes.
struct Declared {
    /// The file (`payloads` for `payloads.d.ts`).
    file: &'static str,
    /// Its text, docs included.
    text: String,
    /// The declared types it refers to.
    uses: Vec<String>,
}

/// Every named type the roots reach, each declared once.
struct Declarations {
    config: Config,
    /// The Rust types visited.
    seen: HashSet<TypeId>,
    /// Each TypeScript name's declaration.
    by_name: BTreeMap<String, Declared>,
}

impl TypeVisitor for Declarations {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Only declared types have a place of their own; `Vec<T>`, `Option<T>`,
        // numbers and strings are written inline.
        if T::output_path().is_none() || !self.seen.insert(TypeId::of::<T>()) {
            return;
        }
        let name = T::ident(&self.config);
        let docs = T::docs().unwrap_or_default();
        let text = tidy(&format!("{docs}export {}", T::decl(&self.config)));
        // One type may stand for another (`serde_json::Value` for ts-rs's
        // `JsonValue`): the same declaration; two different ones may not share a name.
        if let Some(earlier) = self.by_name.get(&name) {
            assert_eq!(
                earlier.text, text,
                "two Rust types are declared as `{name}` in TypeScript: rename one with #[ts(rename)]"
            );
            return;
        }
        let uses = T::dependencies(&self.config)
            .into_iter()
            .map(|dependency| dependency.ts_name)
            .filter(|used| used != &name)
            .collect();
        let file = file_of(std::any::type_name::<T>(), &name);
        self.by_name.insert(name, Declared { file, text, uses });
        T::visit_dependencies(self);
    }
}

/// The file of a Rust type's declaration: its core module
/// (`agentnet_core::model::payloads::Roster` → `payloads`,
/// `agentnet_core::ids::address::Address` → `ids`).
fn file_of(rust_path: &'static str, name: &str) -> &'static str {
    let modules: Vec<&'static str> = rust_path.split("::").collect();
    match modules.as_slice() {
        ["agentnet_core", "model", module, _, ..] => module,
        ["agentnet_core", module, _, ..] => module,
        _ if name == "JsonValue" => "json",
        _ => panic!("{rust_path} is not a core type: give it a file in declarations.rs"),
    }
}

/// A declaration as people read it: no trailing spaces, the lines of its
/// body indented, rustdoc's intra-doc links (`` [`Event`] ``) as plain code.
fn tidy(decl: &str) -> String {
    let mut out = String::new();
    let mut in_body = false;
    for line in decl.lines() {
        let line = line.trim_end().replace("[`", "`").replace("`]", "`");
        if in_body {
            out.push_str("  ");
        }
        out.push_str(&line);
        out.push('\n');
        in_body |= line.starts_with("export ");
    }
    out
}

/// The generated files: name (`payloads.d.ts`) and text.
fn generate() -> BTreeMap<String, String> {
    let mut all = Declarations {
        // The package hands JavaScript numbers, never BigInts.
        config: Config::new().with_large_int("number"),
        seen: HashSet::new(),
        by_name: BTreeMap::new(),
    };
    // What the package hands to JavaScript (and what it takes back), by root:
    // every type they refer to is declared with them.
    macro_rules! roots {
        ($($root:ty),* $(,)?) => { $(all.visit::<$root>();)* };
    }
    roots!(
        Answer,
        NetworkProfile,
        OutboxEntry,
        ErrorCode,
        Rejection,
        Task,
        TaskState,
        ModMode,
        LatePolicy,
        ProviderKind,
        AgentMode,
        AnswerMode,
        Budgets,
        Progress,
    );

    let header = format!(
        "// Generated from agentnet-core's Rust types (ts-rs); do not edit.\n\
         // Checked by `cargo test -p agentnet-js declarations`; regenerate with\n\
         // `{FIX}`.\n"
    );
    let mut files: BTreeMap<&str, Vec<&Declared>> = BTreeMap::new();
    for declared in all.by_name.values() {
        files.entry(declared.file).or_default().push(declared);
    }
    let mut out = BTreeMap::new();
    let mut index = format!("{header}\n");
    for (file, declared) in files {
        // What this file uses from the others, by file.
        let mut imports: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for used in declared.iter().flat_map(|d| &d.uses) {
            let from = all.by_name[used].file;
            if from != file {
                imports.entry(from).or_default().insert(used);
            }
        }
        let mut text = header.clone();
        if !imports.is_empty() {
            text.push('\n');
        }
        for (from, names) in imports {
            let names: Vec<&str> = names.into_iter().collect();
            text.push_str(&format!(
                "import type {{ {} }} from './{from}.js';\n",
                names.join(", ")
            ));
        }
        for declared in declared {
            text.push('\n');
            text.push_str(&declared.text);
        }
        index.push_str(&format!("export * from './{file}.js';\n"));
        out.insert(format!("{file}.d.ts"), text);
    }
    out.insert("index.d.ts".to_owned(), index);
    out
}

/// The `.d.ts` files in `dir`, by name.
fn files_in(dir: &Path) -> BTreeMap<String, String> {
    let entries = std::fs::read_dir(dir).into_iter().flatten().flatten();
    entries
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(entry.path()).ok()?;
            name.ends_with(".d.ts").then_some((name, text))
        })
        .collect()
}

#[test]
fn declarations_match_the_rust_types() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(DIR);
    let generated = generate();
    let current = files_in(&dir);
    if std::env::var_os(WRITE).is_some() {
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {DIR}: {e}"));
        for stale in current.keys().filter(|name| !generated.contains_key(*name)) {
            std::fs::remove_file(dir.join(stale)).unwrap_or_else(|e| panic!("{stale}: {e}"));
        }
        for (name, text) in &generated {
            std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        return;
    }
    let names: BTreeSet<&String> = generated.keys().chain(current.keys()).collect();
    for name in names {
        let problem = match (current.get(name), generated.get(name)) {
            (Some(a), Some(b)) if a == b => continue,
            (Some(a), Some(b)) => {
                let line = a.lines().zip(b.lines()).position(|(x, y)| x != y);
                let line = line.unwrap_or_else(|| a.lines().count().min(b.lines().count()));
                format!(
                    "differs from the Rust types it is generated from (first at line {})",
                    line + 1
                )
            }
            (None, _) => "is missing".to_owned(),
            (_, None) => "is no longer generated".to_owned(),
        };
        panic!("core/js/{DIR}/{name} {problem}; regenerate the folder with `{FIX}` and commit it");
    }
}
