//! The audit log: who decided each call, each reason kept as data beside its text, and bad
//! arguments refused before anyone is asked or anything is decided.

use hearth_policy::Matcher;

use super::*;

#[tokio::test]
async fn the_audit_log_names_who_decided() {
    let exec = r#"{"command":"true"}"#;
    let rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowSession),
        Vec::new(),
    );
    assert!(!rig.one("exec", exec).await.is_error);
    assert!(!rig.one("exec", exec).await.is_error);
    assert_eq!(
        rig.questions(),
        1,
        "the second call is the session allowance"
    );

    let rules = vec![
        Rule::deny(Matcher::ToolName("write_file".into())),
        Rule::allow(Matcher::ToolName("exec".into())),
    ];
    let ruled = Rig::new(Dialect::Hearth, None, rules);
    assert!(!ruled.one("exec", exec).await.is_error);
    let write = ruled
        .one("write_file", r#"{"path":"a.txt","content":"x"}"#)
        .await;
    assert_eq!(error_kind(&write), "not_permitted");

    let silent = Rig::new(Dialect::Hearth, None, Vec::new());
    let timed_out = silent.one("exec", exec).await;
    assert_eq!(error_kind(&timed_out), "denied_by_user");
    assert!(
        timed_out.content.contains("timeout"),
        "{}",
        timed_out.content
    );

    let actors = |rig: &Rig| -> Vec<(String, String)> {
        rig.audit()
            .into_iter()
            .map(|(_, decision, actor)| (decision, actor))
            .collect()
    };
    let pair = |d: &str, a: &str| (d.to_string(), a.to_string());
    assert_eq!(
        actors(&rig),
        [pair("allow", "user"), pair("allow", "user (this session)")]
    );
    assert_eq!(
        actors(&ruled),
        [pair("allow", "rule 2"), pair("deny", "rule 1")]
    );
    assert_eq!(actors(&silent), [pair("deny", "timeout")]);
}

#[tokio::test]
async fn the_audit_log_keeps_each_reason_as_data_beside_its_text() {
    let exec = r#"{"command":"true"}"#;
    let rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowSession),
        vec![Rule::deny(Matcher::ToolName("write_file".into()))],
    );
    assert!(!rig.one("exec", exec).await.is_error);
    let write = rig
        .one("write_file", r#"{"path":"a.txt","content":"x"}"#)
        .await;
    assert_eq!(error_kind(&write), "not_permitted");
    let mut records = rig.store.list_audit(10).unwrap();
    records.reverse();
    let [asked, refused] = &records[..] else {
        panic!("{records:?}")
    };
    let asked_reason = AuditReason {
        reason: PolicyReason::NeedsApproval {
            tool: "exec".into(),
            security: SecurityProfile::PersonalCli,
            every_time: false,
        },
        confirmation: None,
        allowed: Some(hearth_protocol::AllowedFor::Session),
    };
    assert_eq!(asked.entry.reason_code.as_ref(), Some(&asked_reason));
    assert_eq!(
        asked.entry.reason.as_deref(),
        Some(
            "allowed for this session: security profile personal_cli: exec is high-risk and \
             needs your approval"
        )
    );
    let Some(AuditReason {
        reason: PolicyReason::RuleRefuses { tool, index, rule },
        allowed: None,
        ..
    }) = &refused.entry.reason_code
    else {
        panic!("{refused:?}")
    };
    assert_eq!((tool.as_str(), *index), ("write_file", 1));
    assert_eq!(rule, "deny tool write_file");
    // The model reads the same English the audit log keeps.
    assert!(
        write
            .content
            .contains(refused.entry.reason.as_deref().unwrap()),
        "{}",
        write.content
    );
}

#[tokio::test]
async fn bad_arguments_are_refused_without_asking() {
    let rig = Rig::new(
        Dialect::Hearth,
        Some(ApprovalDecision::AllowOnce),
        Vec::new(),
    );
    let result = rig.one("exec", r#"{"command":42}"#).await;
    assert_eq!(error_kind(&result), "invalid_arguments");
    assert_eq!(rig.questions(), 0);
    let unknown = rig.one("no_such_tool", "{}").await;
    assert_eq!(error_kind(&unknown), "not_found");
    assert!(
        rig.audit().is_empty(),
        "nothing was decided: {:?}",
        rig.audit()
    );
}
