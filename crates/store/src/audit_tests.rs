//! Tests of the audit log.

use crate::test_support::TempStore;
use crate::{AuditDecision, AuditEntry};
use hearth_protocol::{AllowedFor, AuditReason, Confirmation, PolicyReason, SecurityProfile};

fn entry(tool: &str, decision: AuditDecision) -> AuditEntry {
    AuditEntry {
        session_id: Some("desktop:1".into()),
        tool: tool.into(),
        arguments: r#"{"command":"rm -rf build"}"#.into(),
        decision,
        reason: Some("high-risk call under personal_cli".into()),
        actor: "user".into(),
        reason_code: Some(AuditReason {
            reason: PolicyReason::NeedsApproval {
                tool: tool.into(),
                security: SecurityProfile::PersonalCli,
                every_time: false,
            },
            // As an older version stored it: a sentence.
            confirmation: Some(Confirmation::Text("Authorize job \"daily\"?".into())),
            allowed: Some(AllowedFor::Session),
        }),
    }
}

#[test]
fn records_are_listed_newest_first_and_persist() {
    let t = TempStore::new();
    let first = t
        .store
        .record_audit(&entry("exec", AuditDecision::Ask))
        .unwrap();
    let second = t
        .store
        .record_audit(&entry("exec", AuditDecision::Allow))
        .unwrap();
    let mut odd = entry("write_file", AuditDecision::Deny);
    odd.session_id = None;
    odd.reason = None;
    odd.reason_code = None;
    odd.arguments = "{not json".into();
    odd.actor = "timeout".into();
    let third = t.store.record_audit(&odd).unwrap();
    assert!(first.id < second.id && second.id < third.id);
    assert!(first.created_at > 0);
    assert_eq!(third.entry, odd);

    let t = t.reopen();
    let all = t.store.list_audit(10).unwrap();
    assert_eq!(all, vec![third.clone(), second.clone(), first]);
    assert_eq!(t.store.list_audit(2).unwrap(), vec![third, second]);
    assert!(t.store.list_audit(0).unwrap().is_empty());
    assert_eq!(t.store.list_audit(usize::MAX).unwrap().len(), 3);
}

#[test]
fn records_serialize_flat_with_snake_case_decisions() {
    let t = TempStore::new();
    let record = t
        .store
        .record_audit(&entry("exec", AuditDecision::Deny))
        .unwrap();
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(json["decision"], "deny");
    assert_eq!(json["tool"], "exec");
    assert_eq!(json["id"], record.id);
    let back: crate::AuditRecord = serde_json::from_value(json).unwrap();
    assert_eq!(back, record);
    for decision in [
        AuditDecision::Allow,
        AuditDecision::Deny,
        AuditDecision::Ask,
    ] {
        assert_eq!(AuditDecision::parse(decision.as_str()), Some(decision));
    }
    assert_eq!(AuditDecision::parse("maybe"), None);
}
