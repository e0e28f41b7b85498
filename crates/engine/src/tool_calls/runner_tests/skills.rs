//! A skill's declaration on the runner: tools it does not permit are neither offered nor run.

use super::*;

impl Rig {
    fn with_skill(mut self, declaration: hearth_policy::Declaration, file: &str) -> Rig {
        self.runner = self.runner.with_skill_grant(SkillGrant {
            skill: "daily-report".into(),
            file: file.into(),
            declaration,
            own_scripts: Vec::new(),
        });
        self
    }

    fn offered(&self) -> Vec<String> {
        self.runner
            .specs(ToolProfile::Full)
            .iter()
            .map(|s| s.name.clone())
            .collect()
    }
}

#[tokio::test]
async fn a_skill_without_http_gets_no_http_request_and_nothing_reaches_the_server() {
    use hearth_policy::{Declaration, SkillPermission};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}/status", listener.local_addr().unwrap());
    let rig = Rig::new(
        Dialect::Ceecore,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    )
    .with_skill(
        Declaration::Permissions(vec![SkillPermission::File, SkillPermission::Notification]),
        "manifest.json",
    );
    let offered = rig.offered();
    assert!(
        !offered.contains(&"http_request".to_string()),
        "{offered:?}"
    );
    assert!(offered.contains(&"read_file".to_string()), "{offered:?}");
    assert!(offered.contains(&"write_file".to_string()), "{offered:?}");

    let args = serde_json::json!({"url": url, "method": "GET"}).to_string();
    let refused = rig.one("http_request", &args).await;
    assert_eq!(error_kind(&refused), "not_permitted", "{}", refused.content);
    assert!(
        refused.content.contains(
            "skill `daily-report` may not use this tool: `http_request` needs the `http` \
             permission (network.outbound), and manifest.json declares permissions [file, \
             notification]"
        ),
        "{}",
        refused.content
    );
    // Also with arguments the tool would reject: the declaration is checked first.
    let forced = rig.one("http_request", r#"{"nonsense":1}"#).await;
    assert_eq!(error_kind(&forced), "not_permitted", "{}", forced.content);
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "a request reached the local server"
    );
    assert_eq!(rig.questions(), 0, "a refused call asks nobody");
    let audit = rig.audit();
    assert_eq!(
        audit,
        [
            (
                "http_request".into(),
                "deny".into(),
                "skill daily-report".into()
            ),
            (
                "http_request".into(),
                "deny".into(),
                "skill daily-report".into()
            ),
        ]
    );
}

#[tokio::test]
async fn allowed_tools_without_exec_hide_and_refuse_exec() {
    use hearth_policy::Declaration;
    let rig = Rig::new(Dialect::Echo, Some(ApprovalDecision::AllowOnce), Vec::new()).with_skill(
        Declaration::AllowedTools(vec!["read_file".into(), "skill_run".into()]),
        "SKILL.md",
    );
    let offered = rig.offered();
    assert!(!offered.contains(&"exec".to_string()), "{offered:?}");
    assert!(offered.contains(&"skill_run".to_string()), "{offered:?}");
    assert!(
        offered.contains(&"skill_view".to_string()),
        "skill reading stays: {offered:?}"
    );
    let refused = rig.one("exec", r#"{"command":"touch pwned"}"#).await;
    assert_eq!(error_kind(&refused), "not_permitted", "{}", refused.content);
    assert!(
        refused
            .content
            .contains("`exec` is not in the allowed-tools of its SKILL.md (read_file skill_run)"),
        "{}",
        refused.content
    );
    assert!(!rig.dir.path().join("workspace/pwned").exists());
    // Within the declaration the call reaches the tool.
    let listed = rig.one("read_file", r#"{"path":"missing.txt"}"#).await;
    assert_ne!(error_kind(&listed), "not_permitted", "{}", listed.content);
}
