//! Every place in Hearth's sources that starts a program, so that none bypasses the sandbox
//! unnoticed: a new `Command::new`, `CommandBuilder` or `spawn_command` outside this crate fails
//! the test until it goes through the sandbox or is listed here with the reason it may not.

/// Files that start programs, and why. Those marked `sandboxed` pass them to
/// `hearth_sandbox`; the others start Hearth's own helpers, never what the agent asks for.
const LISTED: &[(&str, &str)] = &[
    (
        "crates/tools/src/exec/run.rs",
        "sandboxed: the command of exec, process, execute_code, skill_run and tools.json scripts",
    ),
    (
        "crates/tools/src/exec/pty/session.rs",
        "sandboxed: the pty program, through confine",
    ),
    ("crates/mcp/src/connect.rs", "sandboxed: stdio MCP servers"),
    (
        "crates/skills/src/install/git.rs",
        "sandboxed: git clone of a skill",
    ),
    (
        "crates/mcp/src/path.rs",
        "Hearth's own: the login shell asked for its PATH",
    ),
    (
        "crates/mcp/src/oauth/browser.rs",
        "Hearth's own: the user's browser for a sign-in",
    ),
    (
        "crates/tools/src/media/speech/local.rs",
        "Hearth's own: the local speech engine",
    ),
    (
        "crates/documents/src/worker/mod.rs",
        "Hearth's own: the document reader worker",
    ),
    (
        "crates/local/src/client/process.rs",
        "Hearth's own: the local model worker",
    ),
    ("src-tauri/src/lib.rs", "Hearth's own: restarting the app"),
    (
        "src-tauri/src/startup_problem.rs",
        "Hearth's own: the file manager on a start-up problem",
    ),
    (
        "src-tauri/src/commands/knowledge.rs",
        "Hearth's own: the file's default application",
    ),
];

/// How a program is started: a command built directly or by a sandbox ([`crate::Sandbox::command`]),
/// or a terminal's.
const STARTS: &[&str] = &[
    "Command::new(",
    ".command(\"",
    ".tokio_command(",
    "CommandBuilder::",
    "spawn_command(",
];

#[test]
fn every_place_that_starts_a_program_is_listed() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    for top in ["crates", "src-tauri/src"] {
        collect(&root, &root.join(top), &mut found);
    }
    found.sort();
    found.dedup();
    let listed: Vec<&str> = LISTED.iter().map(|(file, _)| *file).collect();
    let unlisted: Vec<&String> = found
        .iter()
        .filter(|f| !listed.contains(&f.as_str()))
        .collect();
    assert!(
        unlisted.is_empty(),
        "programs started outside the sandbox: {unlisted:?}"
    );
    let stale: Vec<&&str> = listed
        .iter()
        .filter(|f| !found.iter().any(|x| x == *f))
        .collect();
    assert!(stale.is_empty(), "listed but starting nothing: {stale:?}");
}

/// Source files under `dir` (tests, benches, test helpers, `*_tests/` folders of unit tests and
/// this crate left out) that start a program, relative to `root`.
fn collect(root: &std::path::Path, dir: &std::path::Path, found: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        let relative = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let skipped = ["/tests", "/benches", "crates/sandbox", "/bin/", "_tests/"]
            .iter()
            .any(|part| relative.contains(part))
            || relative.ends_with("_tests.rs");
        if skipped {
            continue;
        }
        if path.is_dir() {
            collect(root, &path, found);
        } else if relative.ends_with(".rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            // Only the code before a file's unit tests (not before a test-only item such as
            // `#[cfg(test)] mod contract;` near the top).
            let code = before_unit_tests(&text);
            if STARTS.iter().any(|start| code.contains(start)) {
                found.push(relative);
            }
        }
    }
}

/// `text` up to its unit-test module: the first `#[cfg(test)]` (or `#[cfg(all(test, …))]`)
/// followed by `mod …_tests`/`mod tests` or a `#[path]` to such a file.
fn before_unit_tests(text: &str) -> &str {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let rest = &text[at + line.len()..];
        let next = rest.lines().next().unwrap_or("").trim_start();
        let attribute = line.trim_start();
        let gated =
            attribute.starts_with("#[cfg(test)]") || attribute.starts_with("#[cfg(all(test");
        let module = next.starts_with("#[path")
            || next.starts_with("mod tests")
            || (next.starts_with("mod ") && next.contains("_tests"));
        if gated && module {
            return &text[..at];
        }
        at += line.len();
    }
    text
}
