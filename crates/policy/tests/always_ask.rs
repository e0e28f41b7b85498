//! `decide_always_ask` (for calls their tool says are always asked, like `cronjob authorize`): asked under `personal_cli` even when the
//! session allowed the tool or an allow rule matches; still denied by whatever denies.
#![allow(clippy::expect_used)]

use hearth_policy::{
    canonical_tool, decide, decide_always_ask, Authority, Decision, Matcher, PolicyInput, Rule,
    SecurityProfile, ToolFacts, ToolProfile,
};
use std::collections::HashSet;
use std::path::Path;

fn cronjob() -> ToolFacts {
    canonical_tool("cronjob")
        .expect("cronjob is catalogued")
        .facts()
}

fn input<'a>(
    tool: &'a ToolFacts,
    security: SecurityProfile,
    rules: &'a [Rule],
    session: &'a HashSet<String>,
    job: Option<&'a HashSet<String>>,
) -> PolicyInput<'a> {
    PolicyInput {
        tool,
        tool_profile: ToolProfile::Full,
        security,
        rules,
        workspace: Some(Path::new("/home/u/ws")),
        session_allowances: session,
        job_authorization: job,
    }
}

fn allow_cronjob() -> Rule {
    Rule::allow(Matcher::ToolName("cronjob".to_string()))
}

#[test]
fn a_session_allowance_does_not_skip_the_question() {
    let tool = cronjob();
    let session: HashSet<String> = ["cronjob".to_string()].into();
    let input = input(&tool, SecurityProfile::PersonalCli, &[], &session, None);
    assert_eq!(
        decide(&input),
        Decision::Allow {
            by: Authority::SessionAllowance
        },
        "the ordinary decision remembers"
    );
    assert!(matches!(decide_always_ask(&input), Decision::Ask { .. }));
}

#[test]
fn an_allow_rule_does_not_skip_the_question() {
    let tool = cronjob();
    let rules = [allow_cronjob()];
    let none = HashSet::new();
    let input = input(&tool, SecurityProfile::PersonalCli, &rules, &none, None);
    assert_eq!(
        decide(&input),
        Decision::Allow {
            by: Authority::Rule { index: 1 }
        },
        "the ordinary decision obeys the rule"
    );
    match decide_always_ask(&input) {
        Decision::Ask { reason } => assert!(reason.to_string().contains("cronjob"), "{reason}"),
        other => panic!("expected Ask, got {other:?}"),
    }
}

#[test]
fn what_denies_still_denies() {
    let tool = cronjob();
    let none = HashSet::new();
    let job: HashSet<String> = ["cronjob".to_string()].into();
    for security in [SecurityProfile::Daemon, SecurityProfile::PublicGateway] {
        let input = input(&tool, security, &[], &none, Some(&job));
        assert!(
            matches!(decide_always_ask(&input), Decision::Deny { .. }),
            "{security} must refuse even with a job authorization naming cronjob"
        );
    }
    let rules = [Rule::deny(Matcher::ToolName("cronjob".to_string()))];
    let input = input(&tool, SecurityProfile::PersonalCli, &rules, &none, None);
    match decide_always_ask(&input) {
        Decision::Deny { reason, by } => {
            assert!(reason.to_string().contains("rule #1"), "{reason}");
            assert_eq!(by, Authority::Rule { index: 1 });
        }
        other => panic!("expected Deny, got {other:?}"),
    }
    let mut hidden = input;
    hidden.tool_profile = ToolProfile::Messaging;
    assert!(matches!(decide_always_ask(&hidden), Decision::Deny { .. }));
}
