//! `skills install|list|show|remove|run`: a CeeCore skill with `http` removed from its manifest
//! installs unmodified and runs through the scripted model; its `http_request` is not offered,
//! a forced call is refused naming the manifest, and nothing reaches the local server. A local
//! git repository installs too.

use super::*;

pub(super) fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../skills/tests/fixtures")
        .join(name)
}

/// The daily-report fixture with `http` taken out of its manifest's permissions.
fn daily_report_without_http(dir: &Path) -> PathBuf {
    daily_report_with(dir, &["file", "notification"])
}

/// The daily-report fixture with its manifest's permissions set to `permissions`.
pub(super) fn daily_report_with(dir: &Path, permissions: &[&str]) -> PathBuf {
    let staged = dir.join("src");
    let skill = hearth_skills::install(&staged, &fixture("daily-report"), None, None).unwrap();
    let manifest = skill.dir.join("manifest.json");
    let mut value: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    value["permissions"] = json!(permissions);
    std::fs::write(&manifest, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    skill.dir
}

#[tokio::test(flavor = "multi_thread")]
async fn a_ceecore_skill_without_http_runs_and_its_http_request_is_refused() {
    let cli = Cli::new();
    let work = tempfile::tempdir().unwrap();
    let source = daily_report_without_http(work.path());
    let out = cli
        .run(&["skills", "install", source.to_str().unwrap(), "--yes"])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("declares: permissions: file, notification"));

    let out = cli.run(&["skills", "list", "--json"]).await;
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed["skills"][0]["name"], "daily-report");
    assert_eq!(listed["skills"][0]["fields"]["author"], "ceecore-samples");
    let out = cli.run(&["skills", "show", "daily-report"]).await;
    assert!(
        text(&out.stdout).contains("# Daily report"),
        "{}",
        text(&out.stdout)
    );

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let status_url = format!("http://{}/status", listener.local_addr().unwrap());
    let server = ScriptedServer::start().await;
    server.push(Reply::tool_call(
        "http_request",
        json!({"url": status_url, "method": "GET"}),
    ));
    server.push(Reply::text("I may not fetch the status."));
    let out = cli
        .run(&[
            "--provider",
            "openai",
            "--base-url",
            &server.openai_base(),
            "--model",
            "test-model",
            "skills",
            "run",
            "daily-report",
            "write today's report",
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("I may not fetch the status."));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("← http_request error"), "{stderr}");

    let requests = server.model_requests();
    let first = &requests[0].body;
    let offered: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(!offered.contains(&"http_request"), "{offered:?}");
    assert!(offered.contains(&"read_file"), "{offered:?}");
    assert!(
        first
            .to_string()
            .contains("Search memory for today's notes"),
        "the skill's instructions join the turn"
    );
    let second = requests[1].body.to_string();
    assert!(second.contains("not_permitted"), "{second}");
    assert!(
        second.contains("manifest.json declares permissions [file, notification]"),
        "{second}"
    );
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "a request reached the local server"
    );

    let out = cli.run(&["skills", "remove", "daily-report"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!cli.home.path().join("skills/daily-report").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_local_git_repository_installs() {
    let cli = Cli::new();
    let work = tempfile::tempdir().unwrap();
    let repo = work.path().join("notes-skills.git");
    hearth_skills::install(work.path(), &fixture("release-notes"), None, None).unwrap();
    std::fs::rename(work.path().join("release-notes"), &repo).unwrap();
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(&repo)
            .output()
            .unwrap();
        assert!(status.status.success(), "{}", text(&status.stderr));
    };
    git(&["init", "--quiet"]);
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "skill"]);
    let url = format!("file://{}", repo.display());
    let out = cli
        .run(&[
            "skills",
            "install",
            &url,
            "--name",
            "release-notes",
            "--yes",
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let installed = cli.home.path().join("skills/release-notes");
    assert!(installed.join("scripts/where.sh").is_file());
    assert!(!installed.join(".git").exists());

    let out = cli
        .run(&[
            "skills",
            "install",
            &fixture("pico-weather").display().to_string(),
        ])
        .await;
    assert_one_line_error(&out, "confirm with --yes").await;
    assert!(!cli.home.path().join("skills/pico-weather").exists());
}
