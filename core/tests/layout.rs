//! The house rules that a reader of the tree relies on, checked on every test run:
//!
//! * no import circle among the modules of any crate (a module that uses an
//!   item of another, by a `crate::`, `super::` or `self::` path or a child's
//!   name, depends on it; a child using its parent while the parent uses the
//!   child is a circle too);
//! * no source file outside tests is longer than [`MAX_LINES`] — the npm
//!   package's JavaScript and TypeScript declarations included;
//! * the web workspace and the npm binding declare no type of the same name
//!   as one of the core's vocabulary ([`CORE_VOCABULARY`]): they use the core's.
//!
//! The scan reads Rust source as text (paths in `use` and in code, after
//! comments and the inline `#[cfg(test)] mod tests` block are dropped), which
//! is all these rules need.

#[path = "support/walk.rs"]
mod walk;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use walk::walk;

/// The longest a source file outside tests may be.
const MAX_LINES: usize = 450;

/// The crates' source roots, relative to the workspace root.
const CRATES: &[&str] = &[
    "core/src",
    "core/js/src",
    "edge-worker/src",
    "edge-documents/src",
    "edge-registry/src",
    "edge-shared/src",
    "web/src",
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The Rust files below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut all = Vec::new();
    walk(dir, &mut all);
    out.extend(
        all.into_iter()
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rs")),
    );
}

/// `a/b/mod.rs` → `a::b`; `a/b.rs` → `a::b`; `lib.rs`/`main.rs` → the crate root `""`.
fn module_path(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

fn is_test_module(module: &str) -> bool {
    module
        .split("::")
        .any(|part| part == "tests" || part.ends_with("_tests"))
}

/// The text without comments and without a trailing inline test module.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::a::b…`, `super::…` or `self::…` path in `code`, as segments.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let starts_word = at == 0
            || !(bytes[at - 1].is_ascii_alphanumeric()
                || bytes[at - 1] == b'_'
                || bytes[at - 1] == b':');
        let rest = &code[at..];
        let root = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|r| rest.starts_with(r));
        match root {
            Some(root) if starts_word => {
                let mut segments = vec![root.trim_end_matches("::").to_owned()];
                let mut tail = &rest[root.len()..];
                loop {
                    let ident: String = tail
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if ident.is_empty() {
                        break;
                    }
                    tail = &tail[ident.len()..];
                    segments.push(ident);
                    match tail.strip_prefix("::") {
                        Some(next) => tail = next,
                        None => break,
                    }
                }
                at += root.len();
                found.push(segments);
            }
            _ => at += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    found
}

/// The longest module that `segments`, used inside `module`, names.
fn resolve(module: &str, segments: &[String], modules: &BTreeSet<String>) -> Option<String> {
    let mut base: Vec<String> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").map(str::to_owned).collect()
    };
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {}
    }
    while rest.first().map(String::as_str) == Some("super") {
        base.pop();
        rest = &rest[1..];
    }
    let full: Vec<String> = base.into_iter().chain(rest.iter().cloned()).collect();
    (0..=full.len())
        .rev()
        .map(|n| full[..n].join("::"))
        .find(|candidate| modules.contains(candidate))
}

/// Module → the modules it uses, for one crate.
fn dependencies(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    // A `main.rs` beside a `lib.rs` is its own crate (it uses the library by name).
    if src.join("lib.rs").exists() {
        files.retain(|f| f != &src.join("main.rs"));
    }
    let texts: BTreeMap<String, String> = files
        .iter()
        .map(|f| {
            (
                module_path(src, f),
                fs::read_to_string(f).unwrap_or_default(),
            )
        })
        .filter(|(m, _)| !is_test_module(m))
        .collect();
    let modules: BTreeSet<String> = texts.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (module, text) in &texts {
        let code = code_of(text);
        let mut uses = BTreeSet::new();
        for segments in paths_in(&code) {
            if let Some(target) = resolve(module, &segments, &modules)
                && &target != module
            {
                uses.insert(target);
            }
        }
        // A child named without a root (`handlers::handle`, `use reads::X`).
        for line in code.lines() {
            let Some(name) = declared_module(line) else {
                continue;
            };
            let child = child_of(module, name);
            let named = code.match_indices(&format!("{name}::")).any(|(at, _)| {
                at == 0 || {
                    let before = code.as_bytes()[at - 1];
                    !(before.is_ascii_alphanumeric() || before == b'_' || before == b':')
                }
            });
            if modules.contains(&child) && named {
                uses.insert(child);
            }
        }
        graph.insert(module.clone(), uses);
    }
    graph
}

/// The child module a line of code declares (`mod name;`, of any
/// visibility), if it declares one.
fn declared_module(line: &str) -> Option<&str> {
    line.trim()
        .trim_start_matches("pub(crate) ")
        .trim_start_matches("pub(super) ")
        .trim_start_matches("pub ")
        .strip_prefix("mod ")
        .and_then(|rest| rest.strip_suffix(';'))
}

/// The path of `module`'s child `name` (`name` itself under the crate root).
fn child_of(module: &str, name: &str) -> String {
    if module.is_empty() {
        name.to_owned()
    } else {
        format!("{module}::{name}")
    }
}

/// A circle through `start`, if there is one (depth-first search).
fn circle_through(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_owned(), vec![start.to_owned()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in graph.get(&node).into_iter().flatten() {
            if next == start {
                let mut circle = path.clone();
                circle.push(start.to_owned());
                return Some(circle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn no_crate_has_an_import_circle() {
    let root = workspace_root();
    let mut circles = Vec::new();
    for krate in CRATES {
        let graph = dependencies(&root.join(krate));
        assert!(graph.len() > 1, "{krate}: no modules found");
        let mut reported = BTreeSet::new();
        for module in graph.keys() {
            if reported.contains(module) {
                continue;
            }
            if let Some(circle) = circle_through(&graph, module) {
                reported.extend(circle.iter().cloned());
                let named: Vec<String> = circle
                    .iter()
                    .map(|m| {
                        if m.is_empty() {
                            "(crate root)".into()
                        } else {
                            m.clone()
                        }
                    })
                    .collect();
                circles.push(format!("{krate}: {}", named.join(" -> ")));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn no_source_file_outside_tests_is_too_long() {
    let root = workspace_root();
    let mut long = Vec::new();
    for krate in CRATES {
        let src = root.join(krate);
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            if is_test_module(&module_path(&src, &file)) {
                continue;
            }
            let lines = fs::read_to_string(&file)
                .unwrap_or_default()
                .lines()
                .count();
            if lines > MAX_LINES {
                long.push(format!("{} ({lines} lines)", file.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "source files over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}

/// The npm package's own JavaScript and declarations (`.js`, `.d.ts`) under
/// `core/js`, outside its build output (`pkg/`) and installed packages.
fn npm_package_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !matches!(name.as_ref(), "pkg" | "node_modules" | "src" | "target") {
                npm_package_sources(&path, out);
            }
        } else if name.ends_with(".js") || name.ends_with(".d.ts") {
            out.push(path);
        }
    }
}

#[test]
fn no_npm_package_source_is_too_long() {
    let mut files = Vec::new();
    npm_package_sources(&workspace_root().join("core/js"), &mut files);
    assert!(
        files.iter().any(|f| f.ends_with("lib/agent.js")),
        "the scan must see the package's sources"
    );
    let long: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let lines = fs::read_to_string(file).unwrap_or_default().lines().count();
            (lines > MAX_LINES).then(|| format!("{} ({lines} lines)", file.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "npm package sources over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_scan_finds_a_circle_when_there_is_one() {
    // A parent that uses its child while the child uses the parent.
    let dir = std::env::temp_dir().join(format!("agentnet-layout-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("a")).unwrap();
    fs::write(dir.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    fs::write(
        dir.join("a/mod.rs"),
        "mod child;\npub use child::Thing;\npub struct Parent;\n",
    )
    .unwrap();
    fs::write(
        dir.join("a/child.rs"),
        "use super::Parent;\npub struct Thing;\n",
    )
    .unwrap();
    fs::write(dir.join("b.rs"), "use crate::a::Thing;\n").unwrap();
    let graph = dependencies(&dir);
    let circle = circle_through(&graph, "a").expect("a <-> a::child");
    assert_eq!(circle, ["a", "a::child", "a"]);
    assert_eq!(circle_through(&graph, "b"), None);
    let _ = fs::remove_dir_all(&dir);
}

/// The main Worker's folders: one per Durable Object class (`handover` holds
/// the retired classes whose rows the registry Worker takes over), one per
/// binding's I/O that runs inside the network object, and the shared host
/// utilities.
const EDGE_OBJECTS: &[(&str, &str)] = &[
    ("network", "NetworkObject"),
    ("gateway", "GatewayObject"),
    ("handover", "RegistryObject"),
    ("handover", "DirectoryObject"),
];
const EDGE_BINDINGS: &[&str] = &["mcp", "anp", "a2a", "oauth", "ioa", "agents"];
const EDGE_SHARED: &str = "host";

/// The edge's top folder a module is in (`""` for the Worker entry), a
/// binding's counting as the network object's: it is that object's I/O.
fn edge_folder(module: &str) -> String {
    let top = module.split("::").next().unwrap_or_default();
    if EDGE_BINDINGS.contains(&top) {
        "network".to_owned()
    } else {
        top.to_owned()
    }
}

#[test]
fn the_edge_is_one_folder_per_object_and_binding() {
    let src = workspace_root().join("edge-worker/src");
    let mut loose = Vec::new();
    let mut undocumented = Vec::new();
    let Ok(entries) = fs::read_dir(&src) else {
        panic!("no edge source at {}", src.display());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            let text = fs::read_to_string(path.join("mod.rs")).unwrap_or_default();
            if !text.starts_with("//!") {
                undocumented.push(name);
            }
        } else if name != "lib.rs" {
            loose.push(name);
        }
    }
    assert!(loose.is_empty(), "edge files outside a folder: {loose:?}");
    assert!(
        undocumented.is_empty(),
        "edge folders without a mod.rs that starts with //!: {undocumented:?}"
    );
    for (folder, class) in EDGE_OBJECTS {
        let mut files = Vec::new();
        rust_files(&src.join(folder), &mut files);
        let declares = files.iter().any(|f| {
            let text = fs::read_to_string(f).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            lines.windows(2).any(|pair| {
                pair[0].starts_with("#[durable_object")
                    && pair[1].starts_with(&format!("pub struct {class}"))
            })
        });
        assert!(declares, "{folder}/ must hold the {class} Durable Object");
    }
    for folder in EDGE_BINDINGS.iter().chain([&EDGE_SHARED]) {
        assert!(src.join(folder).join("mod.rs").exists(), "{folder}/mod.rs");
    }
}

#[test]
fn the_edge_folders_have_no_circle() {
    let graph = dependencies(&workspace_root().join("edge-worker/src"));
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, uses) in &graph {
        let from = edge_folder(module);
        let entry = folders.entry(from.clone()).or_default();
        entry.extend(uses.iter().map(|m| edge_folder(m)).filter(|to| *to != from));
    }
    // The Worker entry routes to every folder; nothing may use it.
    let users_of_entry: Vec<&String> = folders
        .iter()
        .filter(|(from, uses)| !from.is_empty() && uses.contains(""))
        .map(|(from, _)| from)
        .collect();
    assert!(
        users_of_entry.is_empty(),
        "folders using lib.rs: {users_of_entry:?}"
    );
    let shared = folders.get(EDGE_SHARED).cloned().unwrap_or_default();
    assert!(
        shared.is_empty(),
        "{EDGE_SHARED}/ must use no object's folder: {shared:?}"
    );
    let circles: Vec<Vec<String>> = folders
        .keys()
        .filter_map(|folder| circle_through(&folders, folder))
        .collect();
    assert!(
        circles.is_empty(),
        "circles between the edge's folders: {circles:?}"
    );
}

/// The non-test source files of the core and the edge, with their code
/// (comments and a trailing inline test module removed).
fn core_and_edge_code() -> Vec<(String, String)> {
    code_of_crates(&[
        "core/src",
        "edge-worker/src",
        "edge-documents/src",
        "edge-registry/src",
        "edge-shared/src",
    ])
}

/// The non-test code of each of `krates` (source folders), file by file.
fn code_of_crates(krates: &[&str]) -> Vec<(String, String)> {
    let root = workspace_root();
    let mut out = Vec::new();
    for krate in krates {
        let mut files = Vec::new();
        rust_files(&root.join(krate), &mut files);
        for file in files {
            let module = module_path(&root.join(krate), &file);
            if is_test_module(&module) || module.starts_with("fuzzing") {
                continue;
            }
            let name = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .to_string_lossy()
                .into_owned();
            out.push((
                name,
                code_of(&fs::read_to_string(&file).unwrap_or_default()),
            ));
        }
    }
    out
}

/// The lines of `files` (name and code) that `breaks` picks, given the
/// file's name and the line, each as `file:line: text`.
fn lines_where(files: Vec<(String, String)>, breaks: impl Fn(&str, &str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    for (file, code) in files {
        for (n, line) in code.lines().enumerate() {
            if breaks(&file, line) {
                found.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

/// Fails, saying `rule` and what breaks it, when anything does.
fn assert_none(found: &[String], rule: &str) {
    assert!(found.is_empty(), "{rule}:\n{}", found.join("\n"));
}

/// The route table (`core/src/bindings/route/`) is the one reader of
/// `/networks/…` paths: no other code of the core, the edge, the web
/// workspace or the npm binding takes such a
/// path apart (a `"/networks/"` literal, a `"networks"` segment, or a string
/// method handed a literal under `/networks`). Building URLs (`format!`) is fine.
#[test]
fn one_route_table_reads_network_paths() {
    const READERS: [&str; 8] = [
        "strip_prefix(\"",
        "strip_suffix(\"",
        "split(\"",
        "split_once(\"",
        "find(\"",
        "starts_with(\"",
        "contains(\"",
        "trim_start_matches(\"",
    ];
    let code = code_of_crates(&["core/src", "edge-worker/src", "web/src", "core/js/src"]);
    let found = lines_where(code, |file, line| {
        !file.starts_with("core/src/bindings/route/")
            && (line.contains("\"/networks/\"")
                || line.contains("Some(\"networks\")")
                || READERS.iter().any(|reader| {
                    line.match_indices(reader)
                        .any(|(at, _)| line[at + reader.len()..].starts_with("/networks"))
                }))
    });
    assert_none(
        &found,
        "`/networks/` paths read outside core/src/bindings/route/",
    );
}

/// Files that still nest a protocol's own refusal (IOA's `Refusal`, A2A's
/// `SendError`, OAuth's errors, a `Rejection`) as `Ok(Err(refusal))` inside
/// the host's `Result`: no answer travels there, but they are to become a
/// `bindings::step::Step` like the rest. None may join them.
const NESTED_RESULTS_LEFT: &[&str] = &[
    "core/src/bindings/a2a/methods.rs",
    "core/src/bindings/ioa/nodes.rs",
    "core/src/bindings/ioa/send.rs",
    "core/src/bindings/ioa/spaces.rs",
    "core/src/bindings/mcp/builtins.rs",
    "core/src/bindings/oauth/authorize.rs",
    "core/src/bindings/oauth/token.rs",
    "core/src/bindings/transport/sse/mod.rs",
];

/// No success travels on `Err`: nothing answers `Ok(Err(…))` (a binding's
/// early answer is a `bindings::step::Step::Answer`, its success a `Step::Go`).
#[test]
fn no_answer_travels_as_ok_err() {
    let found = lines_where(core_and_edge_code(), |file, line| {
        !NESTED_RESULTS_LEFT.contains(&file) && line.contains("Ok(Err(")
    });
    assert_none(&found, "Ok(Err(…)) outside the list");
    let root = workspace_root();
    let stale: Vec<&&str> = NESTED_RESULTS_LEFT
        .iter()
        .filter(|file| {
            !fs::read_to_string(root.join(file))
                .is_ok_and(|text| code_of(&text).contains("Ok(Err("))
        })
        .collect();
    assert!(stale.is_empty(), "converted files still listed: {stale:?}");
}

/// Time crosses the core as a `Timestamp` (`core/src/ids/time.rs`, written
/// as a bare number): no non-test code of the core takes or keeps the
/// current moment as a `now: u64` or `now_ms: u64`, and `BindingHost::now`
/// answers a `Timestamp`.
#[test]
fn the_core_takes_time_as_a_timestamp() {
    const BARE: [&str; 3] = ["now: u64", "now_ms: u64", "fn now(&self) -> u64"];
    let found = lines_where(code_of_crates(&["core/src"]), |_, line| {
        BARE.iter().any(|bare| line.contains(bare))
    });
    assert_none(&found, "time as a bare number (take a `Timestamp`)");
}

/// A moment the core keeps (a member's `last_seen`, a task's times, a
/// deadline, a timer) is a `Timestamp`, and arithmetic on moments goes
/// through its methods: `Timestamp::as_millis` is called only where a moment
/// is written as a number — the ids, the event and ack encoders, the RFC 3339
/// formatter and analytics' minute buckets. (The hosts bind numbers for their
/// storage and their platform's alarms themselves.)
#[test]
fn the_core_keeps_moments_as_timestamps() {
    const WRITERS: [&str; 5] = [
        "core/src/ids/",
        "core/src/event/text.rs",
        "core/src/network/delivery/ack.rs",
        "core/src/bindings/a2a/wire.rs",
        "core/src/mods/analytics.rs",
    ];
    let found = lines_where(code_of_crates(&["core/src"]), |file, line| {
        let file = file.replace('\\', "/");
        !WRITERS.iter().any(|writer| file.starts_with(writer)) && line.contains(".as_millis()")
    });
    assert_none(
        &found,
        "a moment read as a bare number (keep the `Timestamp`, use its methods)",
    );
}

/// ANP has its own call path (`bindings::anp::rpc`, the edge's `anp/`): no
/// entry point takes a switch that runs it through another binding.
#[test]
fn no_entry_point_is_switched_to_anp_by_a_flag() {
    let found: Vec<String> = core_and_edge_code()
        .into_iter()
        .filter(|(_, code)| code.contains("anp: bool"))
        .map(|(file, _)| file)
        .collect();
    assert!(found.is_empty(), "`anp: bool` in {found:?}");
}

/// What marks an edge test hook: its routes, frame, variables, paths, and
/// the objects' switch of them (a field only the feature declares, read only
/// under it; elsewhere through an accessor that is `false` without it).
const TEST_HOOK_MARKERS: [&str; 9] = [
    "TestHook",
    "TEST_PANIC_FRAME",
    "TEST_HOOKS_VAR",
    "TEST_POLICY_VAR",
    "RESTART_PATH",
    "RESET_PATH",
    "fail_next_batch(",
    "test_hooks: bool",
    "self.test_hooks",
];
/// The cargo feature the edge's test hooks are compiled with.
const TEST_HOOKS_FEATURE: &str = "feature = \"test-hooks\"";

/// The edge's test hooks are compiled only with the `test-hooks` feature:
/// each is in a module declared under `#[cfg(feature = "test-hooks")]`, or its
/// line (or one of the two above it) carries that `cfg`.
#[test]
fn the_edges_test_hooks_need_their_feature() {
    let src = workspace_root().join("edge-worker/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let texts: BTreeMap<String, String> = files
        .iter()
        .map(|f| {
            (
                module_path(&src, f),
                fs::read_to_string(f).unwrap_or_default(),
            )
        })
        .collect();
    // Modules declared under the feature, and everything inside them.
    let mut gated: Vec<String> = Vec::new();
    for (module, text) in &texts {
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            let Some(name) = declared_module(line) else {
                continue;
            };
            if n > 0 && lines[n - 1].contains(TEST_HOOKS_FEATURE) {
                gated.push(child_of(module, name));
            }
        }
    }
    assert!(
        gated.iter().any(|m| m == "network::test_hooks"),
        "the network object's test hooks are a module under the feature: {gated:?}"
    );
    let mut ungated = Vec::new();
    for (module, text) in &texts {
        if gated
            .iter()
            .any(|g| module == g || module.starts_with(&format!("{g}::")))
        {
            continue;
        }
        let code = code_of(text);
        let lines: Vec<&str> = code.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            if !TEST_HOOK_MARKERS.iter().any(|m| line.contains(m)) {
                continue;
            }
            let covered = lines[n.saturating_sub(2)..=n]
                .iter()
                .any(|l| l.contains(TEST_HOOKS_FEATURE));
            if !covered {
                ungated.push(format!("{module}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        ungated.is_empty(),
        "edge test hooks without #[cfg({TEST_HOOKS_FEATURE})]:\n{}",
        ungated.join("\n")
    );
}

/// Where the core declares the types that travel on the wire: the
/// workspace's vocabulary, ids, the event envelope, the model and
/// `mod/workspace`. The web workspace and the npm binding use these; they
/// declare none of the same name.
const CORE_VOCABULARY: &[&str] = &[
    "core/src/vocabulary",
    "core/src/ids",
    "core/src/event",
    "core/src/model",
    "core/src/mods/workspace",
];

/// The crates that use the core's vocabulary and must not copy it.
const VOCABULARY_USERS: &[&str] = &["web/src", "core/js/src"];

/// The names the web or the npm binding may declare although the core's
/// vocabulary has a type of that name: a different thing, with the reason.
const SAME_NAME_OTHER_THING: &[(&str, &str)] = &[
    (
        "Access",
        "web/src/networks/create.rs: the create form's choice (with the token typed), not a network's stored access section",
    ),
    (
        "Change",
        "web/src/chat/changes.rs: an edit or deletion the chat folds in, not mod/workspace's checked session change",
    ),
    (
        "Invitation",
        "web/src/invite.rs: the invitation page's reading of `v1/invitations/show` (network name, inviter's name), not the stored invitation and its code",
    ),
    (
        "Resource",
        "web/src/resources/forms.rs: a resource form's state, not the shared resource",
    ),
    (
        "Row",
        "web: table rows on screen (members, chat, inspector, tasks), not the state rows a host stores",
    ),
    (
        "Session",
        "web/src/session.rs: the person's signed-in connection, not a workspace session (the chat uses the core's)",
    ),
    (
        "Step",
        "web: a tool step as the chat shows it (arguments as cut compact text, read leniently), and the connection's state machine step",
    ),
    (
        "Sessions",
        "web/src/chat/sessions.rs: the core's `Session`s by channel as the page folds them, not mod/workspace's records",
    ),
];

/// The names of the structs and enums `code` declares (with any visibility).
fn declared_types(code: &str, public_only: bool) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in code.lines() {
        let mut rest = line.trim_start();
        let public = rest.starts_with("pub ");
        if let Some(after) = rest.strip_prefix("pub(crate) ") {
            rest = after;
        } else if let Some(after) = rest.strip_prefix("pub(super) ") {
            rest = after;
        } else if let Some(after) = rest.strip_prefix("pub ") {
            rest = after;
        }
        if public_only && !public {
            continue;
        }
        let Some(after) = rest
            .strip_prefix("struct ")
            .or_else(|| rest.strip_prefix("enum "))
        else {
            continue;
        };
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            names.insert(name);
        }
    }
    names
}

/// The declarations in `users` (file, code) of a name in `core_names`,
/// except the allowed ones: `file: name`.
fn copies(
    core_names: &BTreeSet<String>,
    users: &[(String, String)],
    allowed: &[(&str, &str)],
) -> Vec<String> {
    let mut found = Vec::new();
    for (file, code) in users {
        for name in declared_types(code, false) {
            if core_names.contains(&name) && !allowed.iter().any(|(a, _)| *a == name) {
                found.push(format!("{file}: {name}"));
            }
        }
    }
    found
}

/// The names of the public structs and enums of the core's vocabulary.
fn core_vocabulary_names() -> BTreeSet<String> {
    code_of_crates(CORE_VOCABULARY)
        .iter()
        .flat_map(|(_, code)| declared_types(code, true))
        .collect()
}

/// No type declared in the web workspace or the npm binding has the name of
/// one the core's vocabulary declares: they use the core's (the allow-list
/// names the few that are another thing, and each still has to collide).
#[test]
fn web_and_js_declare_no_type_the_core_declares() {
    let core_names = core_vocabulary_names();
    for must in ["SessionStatus", "AgentActivity", "EventType", "Address"] {
        assert!(core_names.contains(must), "the scan misses {must}");
    }
    let users = code_of_crates(VOCABULARY_USERS);
    let found = copies(&core_names, &users, SAME_NAME_OTHER_THING);
    assert_none(
        &found,
        "these re-declare a type of the core's vocabulary; use the core's",
    );
    let user_names: BTreeSet<String> = users
        .iter()
        .flat_map(|(_, code)| declared_types(code, false))
        .collect();
    for (name, why) in SAME_NAME_OTHER_THING {
        assert!(
            core_names.contains(*name) && user_names.contains(*name),
            "{name} no longer needs its exception ({why}): remove it"
        );
    }
}

#[test]
fn the_vocabulary_scan_finds_a_copy() {
    let core_names = core_vocabulary_names();
    let copy = "/// A copy.\n#[derive(Clone)]\npub struct SessionStatus(String);\nstruct Fine;\n    pub(crate) enum EventType { A }";
    let users = vec![("web/src/x.rs".to_owned(), code_of(copy))];
    assert_eq!(
        copies(&core_names, &users, SAME_NAME_OTHER_THING),
        ["web/src/x.rs: EventType", "web/src/x.rs: SessionStatus"]
    );
    // A comment or a test module's copy is not a declaration.
    let text = "// pub struct SessionStatus;\n#[cfg(test)]\nmod tests {\n    struct Address;\n}";
    let users = vec![("web/src/y.rs".to_owned(), code_of(text))];
    assert!(copies(&core_names, &users, SAME_NAME_OTHER_THING).is_empty());
}
