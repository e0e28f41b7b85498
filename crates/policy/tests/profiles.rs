//! Tool profile membership (derived from each catalogue entry), parsing and the catalogue's
//! invariants.

use hearth_policy::{
    canonical_tool, exposed, Capability, SecurityProfile, ToolProfile, CANONICAL_TOOLS,
};
use std::collections::HashSet;

#[test]
fn profiles_are_cumulative_for_every_catalogue_tool() {
    for tool in CANONICAL_TOOLS {
        let mut seen = false;
        for profile in ToolProfile::ALL {
            let now = exposed(profile, tool.name);
            assert!(!seen || now, "{} drops out of {profile}", tool.name);
            seen |= now;
        }
        assert!(seen, "{} is exposed nowhere", tool.name);
    }
}

#[test]
fn exposure_is_the_catalogue_entrys_profile_and_up() {
    for tool in CANONICAL_TOOLS {
        assert_eq!(hearth_policy::smallest_exposing(tool.name), tool.profile);
        for profile in ToolProfile::ALL {
            assert_eq!(
                exposed(profile, tool.name),
                profile >= tool.profile,
                "{} in {profile}",
                tool.name
            );
        }
    }
    assert!(CANONICAL_TOOLS
        .iter()
        .all(|tool| exposed(ToolProfile::Full, tool.name)));
}

#[test]
fn membership_table() {
    let cases = [
        ("read_file", ToolProfile::Minimal, true),
        ("calculator", ToolProfile::Minimal, true),
        ("get_device_info", ToolProfile::Minimal, true),
        ("artifact_deliver", ToolProfile::Minimal, true),
        ("memory", ToolProfile::Minimal, false),
        ("memory", ToolProfile::Messaging, true),
        ("send_message", ToolProfile::Messaging, true),
        ("write_file", ToolProfile::Messaging, false),
        ("write_file", ToolProfile::Coding, true),
        ("cronjob", ToolProfile::Coding, true),
        ("exec", ToolProfile::Coding, false),
        ("exec", ToolProfile::Full, true),
        ("read_document", ToolProfile::Coding, false),
        ("mcp__github__create_issue", ToolProfile::Coding, false),
        ("mcp__github__create_issue", ToolProfile::Full, true),
        ("made_up_tool", ToolProfile::Coding, false),
        ("made_up_tool", ToolProfile::Full, true),
        // Exposure is by exact canonical name: dialect names do not match.
        ("file_read", ToolProfile::Minimal, false),
    ];
    for (name, profile, expected) in cases {
        assert_eq!(exposed(profile, name), expected, "{name} in {profile}");
    }
}

#[test]
fn catalogue_names_are_unique_and_findable() {
    let names: HashSet<_> = CANONICAL_TOOLS.iter().map(|t| t.name).collect();
    assert_eq!(names.len(), CANONICAL_TOOLS.len());
    for tool in CANONICAL_TOOLS {
        assert_eq!(canonical_tool(tool.name), Some(tool));
        assert_eq!(tool.facts().name, tool.name);
    }
    assert_eq!(canonical_tool("nope"), None);
}

#[test]
fn the_high_risk_tools_are_the_executing_scheduling_and_skill_tools() {
    let mut high: Vec<_> = CANONICAL_TOOLS
        .iter()
        .filter(|t| t.facts().is_high_risk())
        .map(|t| t.name)
        .collect();
    high.sort_unstable();
    assert_eq!(
        high,
        [
            "cronjob",
            "exec",
            "execute_code",
            "process",
            "pty",
            "skill_install",
            "skill_manage",
            "skill_run"
        ]
    );
    assert!(CANONICAL_TOOLS.iter().all(|t| !t.high_risk || t.mutates));
}

#[test]
fn only_tools_without_a_typed_effect_are_untagged() {
    let mut untagged: Vec<_> = CANONICAL_TOOLS
        .iter()
        .filter(|t| t.capabilities.is_empty())
        .map(|t| t.name)
        .collect();
    untagged.sort_unstable();
    assert_eq!(
        untagged,
        [
            "calculator",
            "delegate_task",
            "get_device_info",
            "read_document",
            "spawn_task"
        ]
    );
}

#[test]
fn names_parse_and_print_round_trip() {
    for profile in ToolProfile::ALL {
        assert_eq!(profile.as_str().parse::<ToolProfile>(), Ok(profile));
        assert_eq!(
            serde_json::to_value(profile).ok(),
            Some(serde_json::json!(profile.as_str()))
        );
    }
    for profile in SecurityProfile::ALL {
        assert_eq!(profile.as_str().parse::<SecurityProfile>(), Ok(profile));
        assert_eq!(profile.to_string(), profile.as_str());
    }
    for capability in Capability::ALL {
        assert_eq!(capability.as_str().parse::<Capability>(), Ok(capability));
        assert_eq!(
            serde_json::to_value(capability).ok(),
            Some(serde_json::json!(capability.as_str()))
        );
    }
}

#[test]
fn unknown_names_are_refused_with_the_choices() {
    let err = "everything"
        .parse::<ToolProfile>()
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some(
            "unknown tool profile `everything` (expected one of: minimal, messaging, coding, full)"
        )
    );
    let err = "root"
        .parse::<SecurityProfile>()
        .err()
        .map(|e| e.to_string());
    assert!(err.is_some_and(|e| e.contains("personal_cli, daemon, public_gateway")));
    let err = "fs.delete"
        .parse::<Capability>()
        .err()
        .map(|e| e.to_string());
    assert!(err.is_some_and(|e| e.starts_with("unknown capability `fs.delete`")));
    assert!("".parse::<Capability>().is_err());
    assert!("Coding".parse::<ToolProfile>().is_err());
    assert!("daemon ".parse::<SecurityProfile>().is_err());
    assert!("FS.READ".parse::<Capability>().is_err());
    assert!(serde_json::from_str::<ToolProfile>("\"Full\"").is_err());
}
