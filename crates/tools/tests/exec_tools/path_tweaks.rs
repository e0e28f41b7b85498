//! Missing programs, simulated with a PATH that lacks them: the tools say `unavailable` and name
//! the program; `exec` falls back to `sh` without bash. PATH is process-wide, so the checks run
//! in a child process (this test binary re-run on one ignored test) with its own PATH.

use crate::exec_tools::{err, hearth, ok, Fixture};
use crate::support::rerun_alone;
use hearth_tools::ErrorKind;
use serde_json::json;

#[test]
fn missing_programs_are_reported_in_a_child_process() {
    let only_sh = tempfile::tempdir().unwrap();
    let sh = ["/bin/sh", "/usr/bin/sh"]
        .into_iter()
        .find(|path| std::path::Path::new(path).exists())
        .unwrap();
    std::os::unix::fs::symlink(sh, only_sh.path().join("sh")).unwrap();
    rerun_alone(
        module_path!(),
        "checks_with_a_bare_path",
        &[("PATH", only_sh.path().to_str().unwrap())],
    );
}

#[tokio::test]
#[ignore = "run by missing_programs_are_reported_in_a_child_process with a PATH holding only sh"]
async fn checks_with_a_bare_path() {
    let fixture = Fixture::create();
    let registry = hearth();
    let python = json!({"language": "python", "code": "print(1)"}).to_string();
    let error = err(&registry, &fixture, "execute_code", &python).await;
    assert_eq!(error.kind, ErrorKind::Unavailable);
    assert_eq!(
        error.message,
        "python code needs the python3 interpreter, which is not installed (not found on the PATH)"
    );
    let js = json!({"language": "javascript", "code": "1"}).to_string();
    let error = err(&registry, &fixture, "execute_code", &js).await;
    assert!(
        error.message.contains("the node or nodejs interpreter"),
        "{}",
        error.message
    );
    let bash = json!({"language": "bash", "code": "true"}).to_string();
    assert_eq!(
        err(&registry, &fixture, "execute_code", &bash).await.kind,
        ErrorKind::Unavailable
    );
    // No bash: exec runs through sh.
    let result = ok(
        &registry,
        &fixture,
        "exec",
        r#"{"command": "echo ${BASH_VERSION:-sh}"}"#,
    )
    .await;
    assert_eq!(result["stdout"], "sh\n");
    // Neither: unavailable for every shell-based tool.
    std::env::set_var("PATH", fixture.dir.path());
    for (tool, args) in [
        ("exec", r#"{"command": "true"}"#),
        ("process", r#"{"action": "start", "command": "true"}"#),
        ("pty", r#"{"action": "spawn"}"#),
    ] {
        let error = err(&registry, &fixture, tool, args).await;
        assert_eq!(error.kind, ErrorKind::Unavailable, "{tool}");
        assert!(
            error
                .message
                .starts_with("no shell found: neither bash nor sh"),
            "{}",
            error.message
        );
    }
}
