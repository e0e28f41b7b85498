//! Rules and decisions as config and audit JSON, and authorities as audit actors.

use hearth_policy::{Authority, Capability, Decision, Matcher, PolicyReason, Rule, ToolProfile};

#[test]
fn rules_and_decisions_serialise_for_config_and_audit() {
    let json = r#"[
        {"effect": "deny", "tool": "exec"},
        {"effect": "allow", "capability": "fs.write", "workspace": "/w"}
    ]"#;
    let rules: Vec<Rule> = serde_json::from_str(json).unwrap_or_default();
    assert_eq!(
        rules,
        [
            Rule::deny(Matcher::ToolName("exec".into())),
            Rule::allow(Matcher::Capability(Capability::FsWrite)).in_workspace("/w"),
        ]
    );
    let back = serde_json::to_value(&rules).unwrap_or_default();
    assert_eq!(
        back,
        serde_json::from_str::<serde_json::Value>(json).unwrap_or_default()
    );
    for bad in [
        r#"{"effect": "deny", "capability": "fs.delete"}"#,
        r#"{"effect": "maybe", "tool": "exec"}"#,
        r#"{"effect": "deny"}"#,
    ] {
        assert!(serde_json::from_str::<Rule>(bad).is_err(), "{bad}");
    }
    let asked = Decision::Ask {
        reason: PolicyReason::AlwaysConfirm {
            tool: "cronjob".into(),
        },
    };
    assert_eq!(
        serde_json::to_value(asked).unwrap_or_default(),
        serde_json::json!({"decision": "ask", "reason": {"code": "always_confirm", "params": {"tool": "cronjob"}}})
    );
    let allowed = serde_json::to_value(Decision::Allow {
        by: Authority::Rule { index: 2 },
    })
    .unwrap_or_default();
    assert_eq!(
        allowed,
        serde_json::json!({"decision": "allow", "by": {"kind": "rule", "index": 2}})
    );
    let denied = serde_json::to_value(Decision::Deny {
        reason: PolicyReason::NotExposed {
            tool: "exec".into(),
            profile: ToolProfile::Coding,
        },
        by: Authority::Policy,
    })
    .unwrap_or_default();
    assert_eq!(
        denied,
        serde_json::json!({"decision": "deny", "reason": {"code": "not_exposed", "params": {"tool": "exec", "profile": "coding"}}, "by": {"kind": "policy"}})
    );
}

#[test]
fn authorities_print_as_audit_actors() {
    let shown: Vec<String> = [
        Authority::Policy,
        Authority::Rule { index: 3 },
        Authority::JobAuthorization,
        Authority::SessionAllowance,
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    assert_eq!(
        shown,
        [
            "policy",
            "rule 3",
            "job authorization",
            "user (this session)"
        ]
    );
}
