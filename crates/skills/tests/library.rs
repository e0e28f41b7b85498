//! Loading the three fixture skills unmodified, the library's user and trusted project roots,
//! malformed skills listed as broken with the file and field, and the prompt catalogue budget.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use hearth_policy::{Declaration, SkillPermission};
use hearth_skills::{
    install, prompt_catalogue, trust_folder, Format, Library, SkillDialect, SkillRoots, Source,
    ToolRunner, CATALOGUE_TOKEN_BUDGET,
};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn data_dir_with(skills: &[&str]) -> tempfile::TempDir {
    let data = tempfile::tempdir().unwrap();
    for name in skills {
        install(
            &data.path().join("skills"),
            &fixtures().join(name),
            None,
            None,
        )
        .unwrap();
    }
    data
}

fn roots(data: &Path, workspace: Option<&Path>) -> SkillRoots {
    SkillRoots {
        data_dir: data.to_path_buf(),
        workspace: workspace.map(Path::to_path_buf),
    }
}

#[test]
fn the_three_formats_load_unmodified() {
    let data = data_dir_with(&["daily-report", "release-notes", "pico-weather"]);
    let library = Library::load(&roots(data.path(), None)).unwrap();
    assert!(library.broken.is_empty(), "{:?}", library.broken);
    let names: Vec<&str> = library.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["daily-report", "pico-weather", "release-notes"]);

    let report = library.get("daily-report").unwrap();
    assert_eq!(report.format, Format::Ceecore);
    assert_eq!(report.dialect, SkillDialect::Ceecore);
    assert_eq!(report.instructions, "prompt.md");
    assert_eq!(report.version.as_deref(), Some("1.2.0"));
    assert_eq!(
        report.grant.declaration,
        Declaration::Permissions(vec![
            SkillPermission::Http,
            SkillPermission::File,
            SkillPermission::Notification
        ])
    );
    assert_eq!(report.grant.file, "manifest.json");
    // Unknown manifest fields are kept as written.
    assert_eq!(report.fields["author"], "ceecore-samples");
    assert_eq!(report.fields["triggers"]["cron"], "0 18 * * *");
    assert_eq!(report.tools.len(), 2);
    assert_eq!(
        report.tools[0].runner,
        ToolRunner::Script("scripts/word_count.py".into())
    );
    assert_eq!(
        report.tools[1].runner,
        ToolRunner::Endpoint {
            url: "http://127.0.0.1:9/status".into(),
            method: "POST".into()
        }
    );

    let notes = library.get("release-notes").unwrap();
    assert_eq!(notes.format, Format::AgentSkills);
    assert_eq!(notes.dialect, SkillDialect::Echo);
    assert_eq!(notes.license.as_deref(), Some("MIT"));
    assert_eq!(notes.fields["x-vendor-extra"], "kept as written");
    assert_eq!(
        notes.grant.declaration,
        Declaration::AllowedTools(vec![
            "read_file".into(),
            "skill_view".into(),
            "skill_run".into(),
            "write_file(notes/*)".into()
        ])
    );

    let weather = library.get("pico-weather").unwrap();
    assert_eq!(weather.dialect, SkillDialect::Picobot);
    assert_eq!(weather.grant.declaration, Declaration::None);
}

/// Writes `files` into `<data>/skills/<folder>/`.
fn write_skill(data: &Path, folder: &str, files: &[(&str, &str)]) {
    let dir = data.join("skills").join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

#[test]
fn malformed_skills_are_listed_broken_naming_the_file_and_field() {
    let data = data_dir_with(&["release-notes"]);
    let d = data.path();
    write_skill(
        d,
        "Bad_Name",
        &[("SKILL.md", "---\nname: Bad_Name\ndescription: x\n---\n")],
    );
    write_skill(
        d,
        "other",
        &[("SKILL.md", "---\nname: mismatch\ndescription: x\n---\n")],
    );
    write_skill(
        d,
        "no-desc",
        &[("SKILL.md", "---\nname: no-desc\n---\nbody")],
    );
    write_skill(
        d,
        "bad-yaml",
        &[("SKILL.md", "---\nname: [unclosed\n---\n")],
    );
    write_skill(d, "no-front", &[("SKILL.md", "# just markdown\n")]);
    write_skill(
        d,
        "bad-perm",
        &[
            (
                "manifest.json",
                r#"{"name":"bad-perm","description":"d","permissions":["http","camera"]}"#,
            ),
            ("prompt.md", "p"),
        ],
    );
    write_skill(
        d,
        "bad-json",
        &[("manifest.json", "{\"name\": "), ("prompt.md", "p")],
    );
    write_skill(
        d,
        "no-prompt",
        &[("manifest.json", r#"{"name":"no-prompt","description":"d"}"#)],
    );
    write_skill(
        d,
        "bad-tools",
        &[
            ("manifest.json", r#"{"name":"bad-tools","description":"d"}"#),
            ("prompt.md", "p"),
            (
                "tools.json",
                r#"[{"name":"t","description":"d","script":"../../evil.sh"}]"#,
            ),
        ],
    );
    write_skill(d, "empty", &[]);
    let library = Library::load(&roots(d, None)).unwrap();
    assert_eq!(library.skills.len(), 1, "the good one still loads");
    let reasons: Vec<(String, String)> = library
        .broken
        .iter()
        .map(|b| (b.folder.clone(), b.reason.clone()))
        .collect();
    let reason = |folder: &str| {
        reasons
            .iter()
            .find(|(f, _)| f == folder)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| panic!("{folder} not broken: {reasons:?}"))
    };
    assert!(reason("Bad_Name").starts_with("SKILL.md, field `name`: may hold only"));
    assert_eq!(
        reason("other"),
        "SKILL.md, field `name`: `mismatch` must equal the folder's name `other`"
    );
    assert_eq!(
        reason("no-desc"),
        "SKILL.md, field `description`: is missing"
    );
    assert!(reason("bad-yaml").starts_with("SKILL.md: the front matter is not valid YAML"));
    assert!(reason("no-front").starts_with("SKILL.md: must start with YAML front matter"));
    assert_eq!(
        reason("bad-perm"),
        "manifest.json, field `permissions`: \"camera\" is not a permission (http, cron, \
         notification or file)"
    );
    assert!(reason("bad-json").starts_with("manifest.json: is not valid JSON"));
    assert_eq!(reason("no-prompt"), "prompt.md: is missing");
    assert!(reason("bad-tools").starts_with("tools.json, field `tools[0].script`"));
    assert!(reason("empty").contains("neither SKILL.md nor manifest.json"));
    assert_eq!(library.broken.len(), 10);
}

#[test]
fn project_skills_need_trust_and_then_override_user_skills() {
    let data = data_dir_with(&["release-notes"]);
    let workspace = tempfile::tempdir().unwrap();
    let project = workspace.path().join(".agents/skills/release-notes");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("SKILL.md"),
        "---\nname: release-notes\ndescription: The project's own release notes.\n---\n",
    )
    .unwrap();
    let roots = roots(data.path(), Some(workspace.path()));

    let untrusted = Library::load(&roots).unwrap();
    let skill = untrusted.get("release-notes").unwrap();
    assert_eq!(skill.source, Source::User);
    assert_eq!(
        untrusted.untrusted_project,
        Some(workspace.path().join(".agents/skills"))
    );

    trust_folder(data.path(), workspace.path()).unwrap();
    let trusted = Library::load(&roots).unwrap();
    assert_eq!(trusted.skills.len(), 1);
    let skill = trusted.get("release-notes").unwrap();
    assert_eq!(skill.source, Source::Project);
    assert_eq!(skill.description, "The project's own release notes.");
    assert_eq!(trusted.untrusted_project, None);
}

#[test]
fn the_catalogue_stays_within_its_budget() {
    let data = tempfile::tempdir().unwrap();
    assert_eq!(prompt_catalogue(&[]), None, "no skills, no cost");
    for i in 0..200 {
        let name = format!("skill-{i:03}");
        let description = format!("Does task number {i}. ").repeat(40);
        write_skill(
            data.path(),
            &name,
            &[(
                "SKILL.md",
                &format!("---\nname: {name}\ndescription: {description}\n---\n"),
            )],
        );
    }
    let started = std::time::Instant::now();
    let library = Library::load(&roots(data.path(), None)).unwrap();
    let load_time = started.elapsed();
    assert_eq!(library.skills.len(), 200, "{:?}", library.broken);
    let catalogue = prompt_catalogue(&library.skills).unwrap();
    assert!(
        catalogue.len() / 4 <= CATALOGUE_TOKEN_BUDGET,
        "{}",
        catalogue.len()
    );
    for line in catalogue.lines().skip(1) {
        assert!(line.len() <= 400, "an entry past 100 tokens: {line}");
    }
    assert!(catalogue.contains("- skill-000: Does task number 0."));
    let listed = catalogue.lines().filter(|l| l.starts_with("- ")).count();
    assert!(
        catalogue.ends_with(&format!(
            "… and {} more skills: skills_list lists them all.",
            200 - listed
        )),
        "{catalogue}"
    );
    // Loose bound for a debug build on a shared machine; the target is 20 ms in release.
    assert!(load_time.as_millis() < 2000, "{load_time:?}");
}
