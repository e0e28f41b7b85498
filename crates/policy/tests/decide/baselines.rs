//! `decide` under each security baseline: the tool profile's exposure first, personal CLI asking
//! until the session allows, MCP tools' risk, the daemon's job authorizations, and the public
//! gateway's refusals.

use hearth_policy::SecurityProfile::{Daemon, PersonalCli, PublicGateway};
use hearth_policy::{mcp_tool_facts, Authority, Matcher, Rule, ToolProfile};

use crate::decide::{allow, ask, deny, names, Case, Said};

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
