//! The skill tools on real folders: skills_list with a broken skill, skill_view confined to the
//! skill, PicoBot's get_skill round trip, skill_run in the skill folder (writing there and in
//! its own TMPDIR only), a CeeCore skill's tools.json tools, and skill_manage confined and
//! undoing changes that would break the skill.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tools::{context, registry, temp};
use hearth_tools::{Dialect, ErrorKind, Registry, ToolContext, ToolError};
use serde_json::Value;
use std::path::Path;

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills/tests/fixtures")
}

/// A data dir holding the three fixture skills and one broken skill.
fn installed() -> (tempfile::TempDir, ToolContext) {
    let root = temp();
    for name in ["daily-report", "release-notes", "pico-weather"] {
        hearth_skills::install(
            &root.path().join("skills"),
            &fixtures().join(name),
            None,
            None,
        )
        .unwrap();
    }
    let broken = root.path().join("skills/broken-one");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("SKILL.md"), "---\nname: broken-one\n---\n").unwrap();
    let ctx = context(root.path());
    (root, ctx)
}

async fn run(
    registry: &Registry,
    ctx: &ToolContext,
    tool: &str,
    args: &str,
) -> Result<Value, ToolError> {
    registry.dispatch(tool, args, ctx).await
}

#[tokio::test]
async fn skills_list_lists_skills_and_broken_ones_with_the_reason() {
    let (_root, ctx) = installed();
    let listed = run(&registry(Dialect::Hearth), &ctx, "skills_list", "{}")
        .await
        .unwrap();
    let names: Vec<&str> = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["daily-report", "pico-weather", "release-notes"]);
    assert_eq!(listed["skills"][0]["format"], "ceecore");
    assert_eq!(
        listed["skills"][0]["declares"]["permissions"],
        serde_json::json!(["http", "file", "notification"])
    );
    assert_eq!(listed["broken"][0]["folder"], "broken-one");
    assert_eq!(
        listed["broken"][0]["reason"],
        "SKILL.md, field `description`: is missing"
    );
}

#[tokio::test]
async fn skill_view_reads_inside_the_skill_only() {
    let (root, ctx) = installed();
    let hearth = registry(Dialect::Hearth);
    let body = run(&hearth, &ctx, "skill_view", r#"{"name":"daily-report"}"#)
        .await
        .unwrap();
    assert_eq!(body["file"], "prompt.md");
    assert!(body["content"]
        .as_str()
        .unwrap()
        .starts_with("# Daily report"));
    assert!(body["files"]
        .as_array()
        .unwrap()
        .contains(&Value::from("templates/report.md")));
    let template = run(
        &hearth,
        &ctx,
        "skill_view",
        r#"{"name":"daily-report","file":"templates/report.md"}"#,
    )
    .await
    .unwrap();
    assert!(template["content"].as_str().unwrap().contains("{{notes}}"));

    std::fs::write(root.path().join("secret.txt"), "key").unwrap();
    std::os::unix::fs::symlink(
        root.path().join("secret.txt"),
        root.path().join("skills/daily-report/link.txt"),
    )
    .unwrap();
    for file in ["../../secret.txt", "/etc/passwd", "link.txt"] {
        let args = serde_json::json!({"name": "daily-report", "file": file}).to_string();
        let error = run(&hearth, &ctx, "skill_view", &args).await.unwrap_err();
        assert_eq!(error.kind, ErrorKind::NotPermitted, "{file}: {error:?}");
        assert!(
            error.message.contains("outside the skill's folder"),
            "{error:?}"
        );
    }
    let missing = run(&hearth, &ctx, "skill_view", r#"{"name":"nope"}"#)
        .await
        .unwrap_err();
    assert_eq!(missing.kind, ErrorKind::NotFound);
    assert!(missing
        .message
        .contains("installed skills: daily-report, pico-weather, release-notes"));
}

#[tokio::test]
async fn picobot_get_skill_lists_and_gets() {
    let (_root, ctx) = installed();
    let picobot = registry(Dialect::Picobot);
    let listed = run(&picobot, &ctx, "get_skill", r#"{"action":"list"}"#)
        .await
        .unwrap();
    assert_eq!(listed["skills"].as_array().unwrap().len(), 3);
    let got = run(
        &picobot,
        &ctx,
        "get_skill",
        r#"{"action":"get","skill_name":"pico-weather"}"#,
    )
    .await
    .unwrap();
    assert_eq!(got["file"], "SKILL.md");
    assert!(got["content"].as_str().unwrap().contains("Use `web_fetch`"));
    assert_eq!(got["skill"]["dialect"], "picobot");
    let error = run(&picobot, &ctx, "get_skill", r#"{"action":"get"}"#)
        .await
        .unwrap_err();
    assert_eq!(error.field.as_deref(), Some("skill_name"));
    assert!(run(&picobot, &ctx, "skills_list", "{}").await.is_err());
}

#[tokio::test]
async fn skill_run_runs_a_script_in_the_skill_folder() {
    let (root, ctx) = installed();
    let hearth = registry(Dialect::Hearth);
    let ran = run(
        &hearth,
        &ctx,
        "skill_run",
        r#"{"name":"release-notes","script":"scripts/where.sh","args":["v1.2"]}"#,
    )
    .await
    .unwrap();
    let dir = std::fs::canonicalize(root.path().join("skills/release-notes")).unwrap();
    assert_eq!(ran["exit_code"], 0, "{ran}");
    let stdout = ran["stdout"].as_str().unwrap();
    assert!(
        stdout.contains(&format!("cwd={}", dir.display())),
        "{stdout}"
    );
    assert!(stdout.contains("args=v1.2"), "{stdout}");
    let outside = run(
        &hearth,
        &ctx,
        "skill_run",
        r#"{"name":"release-notes","script":"../daily-report/scripts/word_count.py"}"#,
    )
    .await
    .unwrap_err();
    assert_eq!(outside.kind, ErrorKind::NotPermitted, "{outside:?}");
}

#[tokio::test]
async fn skill_run_writes_in_its_tmpdir_and_folder_and_nowhere_else() {
    let (root, ctx) = installed();
    let dir = root.path().join("skills/release-notes");
    let outside = root.path().join("outside.txt");
    std::fs::write(
        dir.join("scripts/writes.sh"),
        format!(
            "#!/usr/bin/env bash\n\
             echo tmp > \"$TMPDIR/t.txt\" && echo tmp-ok\n\
             echo here > notes.txt && echo here-ok\n\
             echo out > {} 2>/dev/null && echo out-ok\n\
             echo \"tmpdir=$TMPDIR\"\n",
            outside.display()
        ),
    )
    .unwrap();
    let ran = run(
        &registry(Dialect::Hearth),
        &ctx,
        "skill_run",
        r#"{"name":"release-notes","script":"scripts/writes.sh"}"#,
    )
    .await
    .unwrap();
    let stdout = ran["stdout"].as_str().unwrap();
    assert!(stdout.contains("tmp-ok"), "{ran}");
    assert!(stdout.contains("here-ok"), "{ran}");
    assert!(dir.join("notes.txt").is_file());
    let tmpdir = stdout
        .lines()
        .find_map(|l| l.strip_prefix("tmpdir="))
        .unwrap();
    assert!(
        !Path::new(tmpdir).exists(),
        "TMPDIR is removed after the run"
    );
    assert_eq!(ran["isolation"], "landlock+netns", "{ran}");
    assert!(!stdout.contains("out-ok"), "{ran}");
    assert!(!outside.exists());
}

#[tokio::test]
async fn a_ceecore_skills_declared_tools_run_its_script_and_reach_endpoints_through_the_guard() {
    let (root, ctx) = installed();
    let roots = hearth_skills::SkillRoots {
        data_dir: root.path().to_path_buf(),
        workspace: None,
    };
    let library = hearth_skills::Library::load(&roots).unwrap();
    let skill = library.get("daily-report").unwrap();
    let mut ceecore = registry(Dialect::Ceecore);
    hearth_tools::register_declared_tools(&mut ceecore, skill, &[]).unwrap();
    let counted = run(&ceecore, &ctx, "word_count", r#"{"text":"one two three"}"#)
        .await
        .unwrap();
    assert_eq!(counted["exit_code"], 0, "{counted}");
    assert!(
        counted["stdout"]
            .as_str()
            .unwrap()
            .contains(r#""words": 3"#),
        "{counted}"
    );
    let wrong = run(&ceecore, &ctx, "word_count", r#"{"text":7}"#)
        .await
        .unwrap_err();
    assert_eq!(wrong.kind, ErrorKind::InvalidArguments, "{wrong:?}");
    // Its endpoint is on this computer, which the guard refuses unless allowed.
    let posted = run(&ceecore, &ctx, "post_status", "{}").await.unwrap_err();
    assert_eq!(posted.kind, ErrorKind::BlockedAddress, "{posted:?}");
    // Registered twice, the name is taken.
    assert!(hearth_tools::register_declared_tools(&mut ceecore, skill, &[]).is_err());
}

#[tokio::test]
async fn skill_manage_changes_one_skill_and_undoes_breaking_changes() {
    let (root, ctx) = installed();
    let hearth = registry(Dialect::Hearth);
    let skill = "---\nname: notes\ndescription: Keeps notes.\n---\nWrite notes.\n";
    let args = serde_json::json!({"action": "create", "name": "notes", "content": skill});
    run(&hearth, &ctx, "skill_manage", &args.to_string())
        .await
        .unwrap();
    let dir = root.path().join("skills/notes");
    assert_eq!(
        std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
        skill
    );

    let bad = serde_json::json!({"action": "create", "name": "bad", "content": "no front matter"});
    let error = run(&hearth, &ctx, "skill_manage", &bad.to_string())
        .await
        .unwrap_err();
    assert!(
        error.message.contains("must start with YAML front matter"),
        "{error:?}"
    );
    assert!(
        !root.path().join("skills/bad").exists(),
        "nothing left behind"
    );

    let write =
        r#"{"action":"write_file","name":"notes","file_path":"references/a.md","content":"A"}"#;
    run(&hearth, &ctx, "skill_manage", write).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("references/a.md")).unwrap(),
        "A"
    );
    let escape = r#"{"action":"write_file","name":"notes","file_path":"../evil.md","content":"x"}"#;
    let error = run(&hearth, &ctx, "skill_manage", escape)
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotPermitted);
    assert!(!root.path().join("skills/evil.md").exists());

    let patch = r#"{"action":"patch","name":"notes","old_string":"Write notes.","new_string":"Write short notes."}"#;
    run(&hearth, &ctx, "skill_manage", patch).await.unwrap();
    assert!(std::fs::read_to_string(dir.join("SKILL.md"))
        .unwrap()
        .contains("Write short notes."));
    let breaking = r#"{"action":"patch","name":"notes","old_string":"name: notes","new_string":"name: other"}"#;
    let error = run(&hearth, &ctx, "skill_manage", breaking)
        .await
        .unwrap_err();
    assert!(error.message.contains("nothing changed"), "{error:?}");
    assert!(std::fs::read_to_string(dir.join("SKILL.md"))
        .unwrap()
        .contains("name: notes"));

    let definition = r#"{"action":"remove_file","name":"notes","file_path":"SKILL.md"}"#;
    assert!(run(&hearth, &ctx, "skill_manage", definition)
        .await
        .is_err());
    let remove = r#"{"action":"remove_file","name":"notes","file_path":"references/a.md"}"#;
    run(&hearth, &ctx, "skill_manage", remove).await.unwrap();
    assert!(!dir.join("references/a.md").exists());
    run(
        &hearth,
        &ctx,
        "skill_manage",
        r#"{"action":"delete","name":"notes"}"#,
    )
    .await
    .unwrap();
    assert!(!dir.exists());
    assert!(root.path().join("skills/release-notes").exists());
}
