//! `exec` and PicoBot's `bash`: results, working folder confinement, timeouts and cancellation
//! killing the whole process group, the scrubbed environment and the output spill.

use crate::exec_tools::{
    assert_no_secrets, call, err, eventually, hearth, lingering, marker, ok, path_of,
    plant_secrets, processes_with, Fixture,
};
use hearth_tools::{builtin_registry, Dialect, ErrorKind, MODEL_OUTPUT_CAP};
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test]
async fn exec_returns_exit_code_and_both_streams() {
    let fixture = Fixture::create();
    let args = json!({"command": "echo out; echo err >&2; exit 3"}).to_string();
    let result = ok(&hearth(), &fixture, "exec", &args).await;
    assert_eq!(result["exit_code"], 3);
    assert_eq!(result["stdout"], "out\n");
    assert_eq!(result["stderr"], "err\n");
    assert_eq!(result["timed_out"], false);
    assert!(result["duration_ms"].as_u64().is_some());
    assert!(result.get("truncated").is_none());
    assert!(result.get("signal").is_none());
    let killed = ok(&hearth(), &fixture, "exec", r#"{"command": "kill -9 $$"}"#).await;
    assert_eq!(
        (killed["exit_code"].clone(), killed["signal"].clone()),
        (json!(null), json!(9))
    );
}

#[tokio::test]
async fn exec_runs_in_the_workspace_or_a_folder_inside_it() {
    let fixture = Fixture::create();
    fixture.write("sub/deeper/file.txt", "x");
    let registry = hearth();
    let root = fixture.workspace();
    let here = ok(&registry, &fixture, "exec", r#"{"command": "pwd"}"#).await;
    assert_eq!(here["stdout"], format!("{}\n", root.display()));
    let sub = ok(
        &registry,
        &fixture,
        "exec",
        r#"{"command": "pwd", "cwd": "sub/deeper"}"#,
    )
    .await;
    assert_eq!(
        sub["stdout"],
        format!("{}\n", root.join("sub/deeper").display())
    );
    let absolute = json!({"command": "ls", "cwd": root.join("sub/deeper")}).to_string();
    let listed = ok(&registry, &fixture, "exec", &absolute).await;
    assert_eq!(listed["stdout"], "file.txt\n");
    let dotted = ok(
        &registry,
        &fixture,
        "exec",
        r#"{"command": "pwd", "cwd": "sub/../sub/."}"#,
    )
    .await;
    assert_eq!(
        dotted["stdout"],
        format!("{}\n", root.join("sub").display())
    );
}

#[tokio::test]
async fn cwd_escapes_are_refused() {
    let fixture = Fixture::create();
    let outside = fixture.dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, fixture.ctx.workspace.join("link")).unwrap();
    fixture.write("file.txt", "x");
    let registry = hearth();
    let outside_abs = outside.display().to_string();
    for cwd in [
        "..",
        "../outside",
        "/etc",
        "/",
        outside_abs.as_str(),
        "link",
        "link/.",
    ] {
        let args = json!({"command": "touch escaped", "cwd": cwd}).to_string();
        let error = err(&registry, &fixture, "exec", &args).await;
        assert_eq!(error.kind, ErrorKind::NotPermitted, "{cwd}: {error:?}");
        assert_eq!(error.field.as_deref(), Some("cwd"));
        assert!(
            error.message.contains("outside the workspace"),
            "{}",
            error.message
        );
    }
    assert!(!outside.join("escaped").exists());
    let missing = err(
        &registry,
        &fixture,
        "exec",
        r#"{"command": "true", "cwd": "nope"}"#,
    )
    .await;
    assert_eq!(
        (missing.kind, missing.field.as_deref()),
        (ErrorKind::NotFound, Some("cwd"))
    );
    let file = err(
        &registry,
        &fixture,
        "exec",
        r#"{"command": "true", "cwd": "file.txt"}"#,
    )
    .await;
    assert_eq!(
        (file.kind, file.field.as_deref()),
        (ErrorKind::InvalidArguments, Some("cwd"))
    );
    let blank = err(
        &registry,
        &fixture,
        "exec",
        r#"{"command": "true", "cwd": " "}"#,
    )
    .await;
    assert_eq!(blank.field.as_deref(), Some("cwd"));
}

#[tokio::test]
async fn a_timeout_kills_every_grandchild() {
    let fixture = Fixture::create();
    let (a, b) = (marker("timeout-a"), marker("timeout-b"));
    // One grandchild double-forked away from the shell, one plain background job, and the
    // shell itself blocked in the foreground.
    let command = format!("({} &) ; {} & sleep 300", lingering(&a), lingering(&b));
    let args = json!({"command": command, "timeout": 2}).to_string();
    let registry = hearth();
    let started = Instant::now();
    let running = call(&registry, &fixture, "exec", &args);
    let watch = async {
        let seen = eventually(Duration::from_secs(2), || {
            !processes_with(&a).is_empty() && !processes_with(&b).is_empty()
        })
        .await;
        assert!(seen, "the test's own processes were never seen");
    };
    let (result, ()) = tokio::join!(running, watch);
    let result = result.unwrap();
    assert_eq!(result["timed_out"], true);
    assert_eq!(result["signal"], 9);
    assert!(started.elapsed() < Duration::from_secs(10));
    let gone = eventually(Duration::from_secs(3), || {
        processes_with(&a).is_empty() && processes_with(&b).is_empty()
    })
    .await;
    assert!(
        gone,
        "survivors: {:?} {:?}",
        processes_with(&a),
        processes_with(&b)
    );
}

#[tokio::test]
async fn a_normal_exit_ends_what_the_command_left_running() {
    let fixture = Fixture::create();
    let tag = marker("left-behind");
    let args = json!({"command": format!("{} & echo started", lingering(&tag))}).to_string();
    let started = Instant::now();
    let result = ok(&hearth(), &fixture, "exec", &args).await;
    assert_eq!(
        (result["exit_code"].clone(), result["stdout"].clone()),
        (json!(0), json!("started\n"))
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "did not wait for the background job"
    );
    let gone = eventually(Duration::from_secs(3), || processes_with(&tag).is_empty()).await;
    assert!(gone, "background job survived: {:?}", processes_with(&tag));
}

#[tokio::test]
async fn cancelling_the_call_kills_the_group() {
    let fixture = Fixture::create();
    let tag = marker("cancel");
    let args = json!({"command": format!("{} & wait", lingering(&tag))}).to_string();
    let registry = hearth();
    let running = call(&registry, &fixture, "exec", &args);
    let cancel = async {
        let seen = eventually(Duration::from_secs(3), || !processes_with(&tag).is_empty()).await;
        fixture.ctx.cancel.cancel();
        seen
    };
    let (result, seen) = tokio::join!(running, cancel);
    assert!(seen);
    assert_eq!(result.err().map(|e| e.kind), Some(ErrorKind::Cancelled));
    let gone = eventually(Duration::from_secs(3), || processes_with(&tag).is_empty()).await;
    assert!(gone, "survivor after cancel: {:?}", processes_with(&tag));
}

#[tokio::test]
async fn secrets_never_reach_the_child() {
    plant_secrets();
    let fixture = Fixture::create();
    let result = ok(&hearth(), &fixture, "exec", r#"{"command": "env"}"#).await;
    let env = result["stdout"].as_str().unwrap();
    assert_no_secrets(env);
    for line in env.lines() {
        let name = line.split('=').next().unwrap_or_default();
        assert!(
            hearth_tools::ENV_ALLOW_LIST.contains(&name)
                || name.starts_with("LC_")
                || ["PWD", "SHLVL", "_", "OLDPWD"].contains(&name),
            "unexpected variable {name}"
        );
    }
}

#[tokio::test]
async fn long_output_is_cut_and_spilled_whole() {
    let fixture = Fixture::create();
    let command = "head -c 200000 /dev/zero | tr '\\0' a; echo; echo tail-marker; echo warn >&2";
    let args = json!({ "command": command }).to_string();
    let result = ok(&hearth(), &fixture, "exec", &args).await;
    assert!(result.to_string().chars().count() <= MODEL_OUTPUT_CAP);
    assert_eq!(result["truncated"], true);
    assert_eq!(result["exit_code"], 0);
    assert_eq!(result["total_chars"]["stdout"], 200_000 + 1 + 12);
    let stdout = result["stdout"].as_str().unwrap();
    assert!(
        stdout.starts_with("aaaa") && stdout.ends_with("tail-marker\n"),
        "head and tail kept"
    );
    assert!(stdout.contains("characters cut"));
    assert_eq!(result["stderr"], "warn\n");
    let spill_path = path_of(&result["spill_path"]);
    assert!(spill_path.starts_with(fixture.dir.path().join("spill")));
    let spilled = std::fs::read_to_string(spill_path).unwrap();
    assert!(spilled.contains(&format!("{}\ntail-marker\n", "a".repeat(200_000))));
    assert!(spilled.contains("===== stderr (5 characters) =====\nwarn\n"));
}

#[tokio::test]
async fn picobot_bash_is_exec_with_its_own_shape() {
    let fixture = Fixture::create();
    let picobot = builtin_registry(Dialect::Picobot);
    let result = ok(
        &picobot,
        &fixture,
        "bash",
        r#"{"command": "echo $((6 * 7))"}"#,
    )
    .await;
    assert_eq!(
        (result["stdout"].clone(), result["exit_code"].clone()),
        (json!("42\n"), json!(0))
    );
    let slow = ok(
        &picobot,
        &fixture,
        "bash",
        r#"{"command": "sleep 5", "timeout": 1}"#,
    )
    .await;
    assert_eq!(slow["timed_out"], true);
    let facts = picobot.facts("bash").unwrap();
    assert_eq!((facts.name.as_str(), facts.high_risk), ("exec", true));
    let no_cwd = err(
        &picobot,
        &fixture,
        "bash",
        r#"{"command": "pwd", "cwd": "x"}"#,
    )
    .await;
    assert_eq!(no_cwd.field.as_deref(), Some("cwd"));
    assert!(picobot.facts("exec").is_none());
}
