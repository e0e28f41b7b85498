//! `execute_code`: each language in a scratch copy of the workspace, what the copy leaves out,
//! the size cap, timeouts, the scrubbed environment, and Landlock stopping writes outside the
//! scratch folder where the kernel supports it.

use crate::exec_tools::{assert_no_secrets, err, hearth, ok, plant_secrets, Fixture};
use hearth_tools::ErrorKind;
use serde_json::{json, Value};

fn code(language: &str, code: &str) -> String {
    json!({"language": language, "code": code}).to_string()
}

#[tokio::test]
async fn each_language_runs_in_a_scratch_copy() {
    let fixture = Fixture::create();
    fixture.write("data.txt", "hello");
    let registry = hearth();
    let programs = [
        ("python", "print(open('data.txt').read().upper()); open('made.txt', 'w').write('x')"),
        (
            "javascript",
            "const fs = require('fs'); console.log(fs.readFileSync('data.txt', 'utf8').toUpperCase()); fs.writeFileSync('made.txt', 'x')",
        ),
        ("bash", "tr a-z A-Z < data.txt; echo; echo x > made.txt"),
    ];
    for (language, program) in programs {
        let result = ok(
            &registry,
            &fixture,
            "execute_code",
            &code(language, program),
        )
        .await;
        assert_eq!(result["exit_code"], 0, "{language}: {result}");
        assert_eq!(result["stdout"], "HELLO\n", "{language}");
        assert_eq!(result["language"], language);
        assert_eq!(result["workspace_copy"]["files"], 1);
        assert_eq!(result["isolation"], "landlock+netns");
        assert!(
            !fixture.ctx.workspace.join("made.txt").exists(),
            "{language}: the scratch copy is discarded, the workspace untouched"
        );
    }
    let failing = ok(
        &registry,
        &fixture,
        "execute_code",
        &code("python", "import sys; sys.exit('boom')"),
    )
    .await;
    assert_eq!(
        (failing["exit_code"].clone(), failing["stderr"].clone()),
        (json!(1), json!("boom\n"))
    );
}

#[tokio::test]
async fn the_copy_skips_git_links_and_huge_files() {
    let fixture = Fixture::create();
    fixture.write("keep/a.txt", "a");
    fixture.write(".git/HEAD", "ref: refs/heads/main");
    std::os::unix::fs::symlink("/etc/hostname", fixture.ctx.workspace.join("link")).unwrap();
    let huge = std::fs::File::create(fixture.ctx.workspace.join("huge.bin")).unwrap();
    huge.set_len(51 * 1024 * 1024).unwrap(); // sparse: no disk used
    let program = "find . | sort";
    let result = ok(&hearth(), &fixture, "execute_code", &code("bash", program)).await;
    assert_eq!(result["stdout"], ".\n./keep\n./keep/a.txt\n");
    let copy = &result["workspace_copy"];
    assert_eq!(
        (copy["files"].clone(), copy["bytes"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(copy["skipped_count"], 3);
    let skipped = copy["skipped"].to_string();
    assert!(skipped.contains(".git (git metadata)"), "{skipped}");
    assert!(
        skipped.contains("link (symlink or special file)"),
        "{skipped}"
    );
    assert!(
        skipped.contains("huge.bin (53477376 bytes, over the"),
        "{skipped}"
    );
}

#[tokio::test]
async fn a_workspace_over_the_total_cap_is_refused() {
    let fixture = Fixture::create();
    for n in 0..5 {
        let file =
            std::fs::File::create(fixture.ctx.workspace.join(format!("part{n}.bin"))).unwrap();
        file.set_len(45 * 1024 * 1024).unwrap();
    }
    let error = err(&hearth(), &fixture, "execute_code", &code("bash", "true")).await;
    assert_eq!(error.kind, ErrorKind::TooLarge);
    assert!(
        error.message.contains("more than 200 MB"),
        "{}",
        error.message
    );
    assert!(error.message.contains("use exec"), "{}", error.message);
}

#[tokio::test]
async fn code_times_out_and_sees_no_secrets() {
    plant_secrets();
    let fixture = Fixture::create();
    let registry = hearth();
    let slow = json!({"language": "python", "code": "import time; time.sleep(300)", "timeout": 1});
    let result = ok(&registry, &fixture, "execute_code", &slow.to_string()).await;
    assert_eq!(
        (result["timed_out"].clone(), result["signal"].clone()),
        (json!(true), json!(9))
    );
    let env = ok(&registry, &fixture, "execute_code", &code("bash", "env")).await;
    assert_no_secrets(env["stdout"].as_str().unwrap());
    let tmp = ok(
        &registry,
        &fixture,
        "execute_code",
        &code("python", "import tempfile; print(tempfile.gettempdir())"),
    )
    .await;
    let tmp = tmp["stdout"].as_str().unwrap();
    assert!(
        tmp.contains("hearth-code-") && tmp.ends_with("/tmp\n"),
        "TMPDIR is private: {tmp}"
    );
}

/// A Python program that tries each write and prints `{target: "ok" | error}` as JSON.
const WRITE_PROBE: &str = r#"
import json, os, tempfile
results = {}
def attempt(name, action):
    try:
        action()
        results[name] = "ok"
    except OSError as e:
        results[name] = type(e).__name__
attempt("inside", lambda: open("inside.txt", "w").write("x"))
attempt("tmpdir", lambda: tempfile.mkstemp())
attempt("devnull", lambda: open(os.devnull, "w").write("x"))
attempt("workspace", lambda: open(WORKSPACE_FILE, "w").write("x"))
attempt("tmp", lambda: open(TMP_FILE, "w").write("x"))
print(json.dumps(results))
"#;

#[tokio::test]
async fn landlock_stops_writes_outside_the_scratch_folder() {
    let fixture = Fixture::create();
    let workspace_file = fixture.workspace().join("escaped.txt");
    let tmp_file = std::env::temp_dir().join(crate::exec_tools::marker("landlock-tmp"));
    let program = WRITE_PROBE
        .replace(
            "WORKSPACE_FILE",
            &format!("{:?}", workspace_file.display().to_string()),
        )
        .replace("TMP_FILE", &format!("{:?}", tmp_file.display().to_string()));
    let registry = hearth();
    let result = ok(
        &registry,
        &fixture,
        "execute_code",
        &code("python", &program),
    )
    .await;
    assert_eq!(result["exit_code"], 0, "{result}");
    // Only that child was confined: Hearth's own threads (and what they spawn) still write.
    let args = json!({"command": "echo free > unconfined.txt"}).to_string();
    ok(&registry, &fixture, "exec", &args).await;
    assert!(fixture.ctx.workspace.join("unconfined.txt").exists());
    let outcomes: Value = serde_json::from_str(result["stdout"].as_str().unwrap()).unwrap();
    for allowed in ["inside", "tmpdir", "devnull"] {
        assert_eq!(outcomes[allowed], "ok", "{allowed}: {outcomes}");
    }
    assert_eq!(result["isolation"], "landlock+netns", "{result}");
    assert!(result.get("isolation_reason").is_none(), "{result}");
    for refused in ["workspace", "tmp"] {
        assert_eq!(
            outcomes[refused], "PermissionError",
            "{refused}: {outcomes}"
        );
    }
    assert!(!workspace_file.exists() && !tmp_file.exists());
}
