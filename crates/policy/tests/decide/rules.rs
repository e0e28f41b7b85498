//! `decide` with user rules: deny rules win over everything, allow rules turn an ask into allow
//! but never lift a deny, capability and wildcard matchers, and workspace-scoped rules.

use hearth_policy::SecurityProfile::{Daemon, PersonalCli, PublicGateway};
use hearth_policy::{Authority, Capability, Matcher, Rule, SecurityProfile};

use crate::decide::{allow, names, rule_deny, Case, Said};

#[test]
fn deny_rules_win_over_everything() {
    let rules = [
        Rule::allow(Matcher::ToolName("read_file".into())),
        Rule::deny(Matcher::ToolName("read_file".into())),
    ];
    for security in SecurityProfile::ALL {
        let mut case = Case::new("read_file", security);
        case.rules = &rules;
        assert_eq!(
            case.decide(),
            rule_deny(2, "user rule #2 (deny tool read_file) refuses read_file")
        );
    }
    let mut case = Case::new("exec", Daemon);
    let deny_exec = [Rule::deny(Matcher::Capability(Capability::ProcessExec))];
    case.rules = &deny_exec;
    case.job = Some(names(&["exec"]));
    assert_eq!(
        case.decide(),
        rule_deny(
            1,
            "user rule #1 (deny capability process.exec) refuses exec"
        )
    );
}

#[test]
fn allow_rules_turn_ask_into_allow_but_never_lift_a_deny() {
    let by_name = [Rule::allow(Matcher::ToolName("exec".into()))];
    let by_capability = [Rule::allow(Matcher::Capability(Capability::ProcessExec))];
    for rules in [&by_name[..], &by_capability[..]] {
        let mut case = Case::new("exec", PersonalCli);
        case.rules = rules;
        assert_eq!(case.decide(), allow(Authority::Rule { index: 1 }));
        case.security = Daemon;
        assert!(matches!(case.decide(), Said::Deny(..)));
        case.security = PublicGateway;
        assert!(matches!(case.decide(), Said::Deny(..)));
    }
}

#[test]
fn capability_rules_match_only_tagged_tools() {
    let rules = [Rule::deny(Matcher::Capability(Capability::NetworkOutbound))];
    for (tool, denied) in [
        ("web_fetch", true),
        ("browser", true),
        ("skill_install", true),
        ("read_file", false),
        // Untagged tools are only ever matched by name.
        ("read_document", false),
        ("delegate_task", false),
        ("calculator", false),
    ] {
        let mut case = Case::new(tool, PersonalCli);
        case.rules = &rules;
        assert_eq!(matches!(case.decide(), Said::Deny(..)), denied, "{tool}");
    }
    let by_name = [Rule::deny(Matcher::ToolName("delegate_task".into()))];
    let mut case = Case::new("delegate_task", PersonalCli);
    case.rules = &by_name;
    assert_eq!(
        case.decide(),
        rule_deny(
            1,
            "user rule #1 (deny tool delegate_task) refuses delegate_task"
        )
    );
}

#[test]
fn name_rules_support_a_trailing_wildcard() {
    let rules = [Rule::deny(Matcher::ToolName("mcp__github__*".into()))];
    let mut case = Case::new("mcp__github__create_issue", PersonalCli);
    case.rules = &rules;
    assert_eq!(
        case.decide(),
        rule_deny(
            1,
            "user rule #1 (deny tool mcp__github__*) refuses mcp__github__create_issue"
        )
    );
    let mut other = Case::new("mcp__gitlab__create_issue", PersonalCli);
    other.rules = &rules;
    assert!(matches!(other.decide(), Said::Ask(_)));
    let exact = [Rule::deny(Matcher::ToolName("read".into()))];
    let mut case = Case::new("read_file", PersonalCli);
    case.rules = &exact;
    assert_eq!(
        case.decide(),
        allow(Authority::Policy),
        "no implicit prefix match"
    );
}

#[test]
fn workspace_scoped_rules_apply_only_there() {
    let rules = [
        Rule::deny(Matcher::Capability(Capability::FsWrite)).in_workspace("/home/u/secret"),
        Rule::allow(Matcher::ToolName("exec".into())).in_workspace("/home/u/dev"),
    ];
    let cases = [
        ("write_file", "/home/u/secret", false),
        ("write_file", "/home/u/secret/sub/dir", false),
        ("write_file", "/home/u/secretive", true),
        ("write_file", "/home/u", true),
        ("exec", "/home/u/dev", true),
        ("exec", "/home/u/dev/project", true),
        ("exec", "/home/u/secret", false),
    ];
    for (tool, workspace, allowed) in cases {
        let mut case = Case::new(tool, PersonalCli);
        case.rules = &rules;
        case.workspace = Some(workspace);
        assert_eq!(
            matches!(case.decide(), Said::Allow(_)),
            allowed,
            "{tool} in {workspace}"
        );
    }
    // Without a workspace, scoped rules are not in force; unscoped ones are.
    let mut case = Case::new("write_file", PersonalCli);
    case.rules = &rules;
    case.workspace = None;
    assert_eq!(case.decide(), allow(Authority::Policy));
    let mut case = Case::new("exec", PersonalCli);
    case.rules = &rules;
    case.workspace = None;
    assert!(matches!(case.decide(), Said::Ask(_)));
    let unscoped = [Rule::deny(Matcher::ToolName("write_file".into()))];
    let mut case = Case::new("write_file", PersonalCli);
    case.rules = &unscoped;
    case.workspace = None;
    assert!(matches!(case.decide(), Said::Deny(..)));
    let mut case = Case::new("write_file", PersonalCli);
    case.rules = &rules;
    case.workspace = Some("/home/u/secret");
    assert_eq!(
        case.decide(),
        rule_deny(
            1,
            "user rule #1 (deny capability fs.write in /home/u/secret) refuses write_file"
        )
    );
}
