//! `register_network`: which dialect gets which network tool under which schema (snapshots),
//! facts matching the policy catalogue, and what `builtin_registry` leaves to the engine.

use crate::net_tools::net_with;
use hearth_policy::{canonical_tool, ToolProfile};
use hearth_tools::net::NetworkSetupError;
use hearth_tools::{builtin_registry, register_network, Dialect, NetworkConfig, Registry};

const NET_TOOLS: [&str; 4] = ["http_request", "skill_install", "web_fetch", "web_search"];

#[test]
fn each_dialect_gets_its_network_tools() {
    let expected: [(Dialect, &[&str]); 4] = [
        (
            Dialect::Hearth,
            &["http_request", "skill_install", "web_fetch", "web_search"],
        ),
        (
            Dialect::Echo,
            &["http_request", "skill_install", "web_fetch", "web_search"],
        ),
        (Dialect::Ceecore, &["http_request"]),
        (Dialect::Picobot, &["http_request", "web_fetch"]),
    ];
    for (dialect, names) in expected {
        let net = net_with(dialect, NetworkConfig::default());
        let specs = net.registry.specs(ToolProfile::Full);
        let listed: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(listed, names, "{dialect}");
        insta::assert_json_snapshot!(format!("net_{dialect}"), specs);
        for spec in &specs {
            let facts = net.registry.facts(&spec.name);
            let catalogue = facts.as_ref().and_then(|f| canonical_tool(&f.name));
            assert_eq!(
                facts,
                catalogue.map(|c| c.facts()),
                "{dialect} {}",
                spec.name
            );
        }
        // Network tools are for the full profile only.
        assert!(
            net.registry.specs(ToolProfile::Coding).is_empty(),
            "{dialect}"
        );
    }
}

#[test]
fn the_builtin_registry_leaves_network_tools_to_the_engine() {
    for dialect in Dialect::ALL {
        let registry = builtin_registry(dialect);
        for name in NET_TOOLS {
            assert_eq!(registry.facts(name), None, "{dialect} {name}");
        }
    }
}

#[test]
fn registering_twice_is_refused() {
    let mut registry = Registry::new(Dialect::Hearth);
    assert!(register_network(&mut registry, NetworkConfig::default()).is_ok());
    let again = register_network(&mut registry, NetworkConfig::default());
    assert!(
        matches!(&again, Err(NetworkSetupError::Registry(e)) if e.to_string() == "tool http_request is already registered"),
        "{again:?}"
    );
}
