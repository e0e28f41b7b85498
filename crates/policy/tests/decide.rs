//! Table tests of `decide`: security baselines, session allowances, job authorizations, rules.

use hearth_policy::{
    canonical_tool, decide, mcp_tool_facts, Authority, Capability, Decision, Matcher, PolicyInput,
    PolicyReason, Rule, SecurityProfile, ToolFacts, ToolProfile,
};
use std::collections::HashSet;
use std::path::Path;

fn facts(name: &str) -> ToolFacts {
    match canonical_tool(name) {
        Some(tool) => tool.facts(),
        None => panic!("{name} is not in the catalogue"),
    }
}

fn names(list: &[&str]) -> HashSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

struct Case<'a> {
    tool: ToolFacts,
    profile: ToolProfile,
    security: SecurityProfile,
    rules: &'a [Rule],
    workspace: Option<&'a str>,
    session: HashSet<String>,
    job: Option<HashSet<String>>,
}

impl<'a> Case<'a> {
    fn new(tool: &str, security: SecurityProfile) -> Self {
        let tool = if tool.starts_with("mcp__") {
            mcp_tool_facts(tool)
        } else {
            facts(tool)
        };
        Case {
            tool,
            profile: ToolProfile::Full,
            security,
            rules: &[],
            workspace: Some("/home/u/ws"),
            session: HashSet::new(),
            job: None,
        }
    }

    fn decide(&self) -> Said {
        Said::from(decide(&PolicyInput {
            tool: &self.tool,
            tool_profile: self.profile,
            security: self.security,
            rules: self.rules,
            workspace: self.workspace.map(Path::new),
            session_allowances: &self.session,
            job_authorization: self.job.as_ref(),
        }))
    }
}

/// A decision with its reason as the English text the model and the CLI read.
#[derive(Debug, PartialEq)]
enum Said {
    Allow(Authority),
    Ask(String),
    Deny(String, Authority),
}

impl From<Decision> for Said {
    fn from(decision: Decision) -> Said {
        match decision {
            Decision::Allow { by } => Said::Allow(by),
            Decision::Ask { reason } => Said::Ask(reason.to_string()),
            Decision::Deny { reason, by } => Said::Deny(reason.to_string(), by),
        }
    }
}

fn ask(reason: &str) -> Said {
    Said::Ask(reason.to_string())
}

fn deny(reason: &str) -> Said {
    Said::Deny(reason.to_string(), Authority::Policy)
}

fn rule_deny(index: usize, reason: &str) -> Said {
    Said::Deny(reason.to_string(), Authority::Rule { index })
}

fn allow(by: Authority) -> Said {
    Said::Allow(by)
}

use SecurityProfile::{Daemon, PersonalCli, PublicGateway};

#[test]
fn profile_exposure_comes_first() {
    let mut case = Case::new("exec", PersonalCli);
    case.profile = ToolProfile::Coding;
    case.session = names(&["exec"]);
    assert_eq!(
        case.decide(),
        deny("tool profile coding does not expose exec")
    );
    let allow_all = [Rule::allow(Matcher::ToolName("exec".into()))];
    case.rules = &allow_all;
    assert!(matches!(case.decide(), Said::Deny(..)));
}

#[test]
fn personal_cli_asks_for_high_risk_until_the_session_allows_it() {
    let mut case = Case::new("exec", PersonalCli);
    assert_eq!(
        case.decide(),
        ask("security profile personal_cli: exec is high-risk and needs your approval")
    );
    case.session = names(&["process"]);
    assert!(matches!(case.decide(), Said::Ask(_)));
    case.session = names(&["exec"]);
    assert_eq!(case.decide(), allow(Authority::SessionAllowance));
    assert_eq!(
        Case::new("write_file", PersonalCli).decide(),
        allow(Authority::Policy)
    );
    assert_eq!(
        Case::new("calculator", PersonalCli).decide(),
        allow(Authority::Policy)
    );
}

#[test]
fn mcp_tools_are_high_risk_through_their_capability() {
    let mut tool = mcp_tool_facts("mcp__fs__delete");
    tool.high_risk = false;
    let mut case = Case::new("calculator", PersonalCli);
    case.tool = tool;
    assert_eq!(
        case.decide(),
        ask("security profile personal_cli: mcp__fs__delete is high-risk and needs your approval")
    );
    case.profile = ToolProfile::Coding;
    assert!(matches!(case.decide(), Said::Deny(..)));
}

#[test]
fn daemon_needs_a_job_authorization_covering_the_tool() {
    let mut case = Case::new("exec", Daemon);
    let refused = deny(
        "security profile daemon refuses high-risk tool exec without a job authorization covering it",
    );
    assert_eq!(case.decide(), refused);
    case.session = names(&["exec"]);
    assert_eq!(
        case.decide(),
        refused,
        "session allowances mean nothing to daemon runs"
    );
    case.job = Some(names(&["cronjob"]));
    assert_eq!(case.decide(), refused);
    case.job = Some(names(&["exec", "cronjob"]));
    assert_eq!(case.decide(), allow(Authority::JobAuthorization));
    let policy = allow(Authority::Policy);
    assert_eq!(Case::new("write_file", Daemon).decide(), policy);

    // An authorization naming an MCP server covers that server's tools, no other's.
    let mut mcp = Case::new("mcp__github__create_issue", Daemon);
    assert!(matches!(mcp.decide(), Said::Deny(..)));
    mcp.job = Some(names(&["exec", &hearth_policy::mcp_server_scope("github")]));
    assert_eq!(mcp.decide(), allow(Authority::JobAuthorization));
    let mut other = Case::new("mcp__gitlab__create_issue", Daemon);
    other.job = mcp.job.clone();
    assert!(matches!(other.decide(), Said::Deny(..)));
    assert_eq!(Case::new("http_request", Daemon).decide(), policy);
}

#[test]
fn public_gateway_refuses_high_risk_writes_and_execution() {
    let cases = [
        (
            "exec",
            "security profile public_gateway refuses high-risk tool exec",
        ),
        (
            "cronjob",
            "security profile public_gateway refuses high-risk tool cronjob",
        ),
        (
            "write_file",
            "security profile public_gateway refuses write_file (tagged fs.write)",
        ),
        (
            "edit_file",
            "security profile public_gateway refuses edit_file (tagged fs.write)",
        ),
        (
            "patch",
            "security profile public_gateway refuses patch (tagged fs.write)",
        ),
    ];
    for (tool, reason) in cases {
        let mut case = Case::new(tool, PublicGateway);
        case.job = Some(names(&[tool]));
        case.session = names(&[tool]);
        assert_eq!(case.decide(), deny(reason), "{tool}");
    }
    for tool in [
        "artifact_create",
        "artifact_append",
        "artifact_deliver",
        "read_file",
        "message",
    ] {
        assert_eq!(
            Case::new(tool, PublicGateway).decide(),
            allow(Authority::Policy),
            "{tool}"
        );
    }
}

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
