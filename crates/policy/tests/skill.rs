//! Skill declarations: CeeCore permissions map to capabilities, `allowed-tools` lists tools,
//! skill reading and the skill's own script tools stay allowed, and refusals name the skill and
//! its declaration.

use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_policy::{Declaration, SkillGrant, SkillPermission};

fn grant(declaration: Declaration, file: &str) -> SkillGrant {
    SkillGrant {
        skill: "daily-report".into(),
        file: file.into(),
        declaration,
        own_scripts: vec!["word_count".into()],
    }
}

fn permits(grant: &SkillGrant, tool: &CanonicalTool) -> Result<(), String> {
    grant
        .permits(&tool.facts(), tool.name)
        .map_err(|refusal| refusal.reason.to_string())
}

#[test]
fn ceecore_permissions_grant_their_capabilities_only() {
    let file_and_notify = grant(
        Declaration::Permissions(vec![SkillPermission::File, SkillPermission::Notification]),
        "manifest.json",
    );
    for allowed in [
        &catalogue::READ_FILE,
        &catalogue::WRITE_FILE,
        &catalogue::SEND_NOTIFICATION,
        &catalogue::MEMORY,
        &catalogue::CALCULATOR,
        &catalogue::SKILL_VIEW,
    ] {
        assert_eq!(
            permits(&file_and_notify, allowed),
            Ok(()),
            "{}",
            allowed.name
        );
    }
    let refused = permits(&file_and_notify, &catalogue::HTTP_REQUEST).unwrap_err();
    assert_eq!(
        refused,
        "skill `daily-report` may not use this tool: `http_request` needs the `http` permission \
         (network.outbound), and manifest.json declares permissions [file, notification]"
    );
    assert!(permits(&file_and_notify, &catalogue::CRONJOB)
        .unwrap_err()
        .contains("`cron`"));
    let all = grant(
        Declaration::Permissions(SkillPermission::ALL.to_vec()),
        "manifest.json",
    );
    assert_eq!(permits(&all, &catalogue::HTTP_REQUEST), Ok(()));
    assert_eq!(permits(&all, &catalogue::CRONJOB), Ok(()));
    for never in [&catalogue::EXEC, &catalogue::SKILL_RUN, &catalogue::BROWSER] {
        let message = permits(&all, never).unwrap_err();
        assert!(
            message.contains("no manifest permission grants"),
            "{message}"
        );
    }
    // The skill's own tools.json script tool runs as declared; `skill_run` itself does not, nor
    // does another skill's tool of that name.
    let facts = catalogue::SKILL_RUN.facts();
    assert_eq!(file_and_notify.permits(&facts, "word_count"), Ok(()));
    assert!(file_and_notify.permits(&facts, "skill_run").is_err());
    assert!(file_and_notify.permits(&facts, "other_tool").is_err());
}

#[test]
fn allowed_tools_is_the_list_of_tools_the_run_may_use() {
    let listed = grant(
        Declaration::AllowedTools(vec!["read_file".into(), "Write_File(reports/*)".into()]),
        "SKILL.md",
    );
    assert_eq!(permits(&listed, &catalogue::READ_FILE), Ok(()));
    assert_eq!(permits(&listed, &catalogue::WRITE_FILE), Ok(()));
    assert_eq!(permits(&listed, &catalogue::SKILL_VIEW), Ok(()));
    assert_eq!(
        permits(&listed, &catalogue::EXEC).unwrap_err(),
        "skill `daily-report` may not use this tool: `exec` is not in the allowed-tools of its \
         SKILL.md (read_file Write_File(reports/*))"
    );
    // A dialect's own name counts too.
    let picobot = grant(Declaration::AllowedTools(vec!["bash".into()]), "SKILL.md");
    assert_eq!(
        picobot
            .permits(&catalogue::EXEC.facts(), "bash")
            .map_err(|r| r.reason.to_string()),
        Ok(())
    );
}

#[test]
fn no_declaration_leaves_the_ordinary_policy() {
    let none = grant(Declaration::None, "SKILL.md");
    for tool in catalogue::CANONICAL_TOOLS {
        assert_eq!(permits(&none, tool), Ok(()), "{}", tool.name);
    }
}
