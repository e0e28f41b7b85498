//! `config.toml` through the real `hearth-cli`: a deny rule by tool name or capability refuses
//! the call as `not_permitted` naming the rule and changes nothing; a rule scoped to another
//! workspace leaves calls elsewhere alone; a malformed rule, a misspelled value of any enumerated
//! setting or an unknown key stops every command with one line naming the file, the key, the bad
//! value and the allowed values — nothing runs under some other setting; so do `[subagents]`
//! bounds, durations and counts out of range, and values that would silently mean nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use tokio::process::Command;

async fn hearth(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hearth-cli"))
        .env("HEARTH_HOME", home)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap()
}

fn configure(home: &Path, rules: &str) {
    std::fs::create_dir_all(home.join("workspace")).unwrap();
    std::fs::write(home.join("config.toml"), rules).unwrap();
}

const SUM: &str = r#"{"action":"evaluate","expression":"6*7"}"#;

#[tokio::test(flavor = "multi_thread")]
async fn deny_rules_refuse_by_name_and_capability_and_name_the_rule() {
    let home = tempfile::tempdir().unwrap();
    configure(
        home.path(),
        "[[rules]]\neffect = \"deny\"\ntool = \"calculator\"\n\n\
         [[rules]]\neffect = \"deny\"\ncapability = \"fs.write\"\n",
    );
    let out = hearth(home.path(), &["tools", "call", "calculator", SUM]).await;
    assert_eq!(out.status.code(), Some(1));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["error"]["kind"], "not_permitted", "{value}");
    let message = value["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("user rule #1 (deny tool calculator)"),
        "{message}"
    );

    let write = r#"{"path":"note.txt","content":"hello"}"#;
    let out = hearth(home.path(), &["tools", "call", "write_file", write]).await;
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["error"]["kind"], "not_permitted", "{value}");
    assert!(value.to_string().contains("user rule #2"), "{value}");
    assert!(
        !home.path().join("workspace/note.txt").exists(),
        "nothing written"
    );

    // Reading is not `fs.write`: still allowed.
    std::fs::write(home.path().join("workspace/seen.txt"), "visible").unwrap();
    let read = r#"{"path":"seen.txt"}"#;
    let out = hearth(home.path(), &["tools", "call", "read_file", read]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rule_scoped_to_another_workspace_does_not_apply() {
    let home = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let rules = format!(
        "[[rules]]\neffect = \"deny\"\ntool = \"calculator\"\nworkspace = \"{}\"\n",
        elsewhere.path().display()
    );
    configure(home.path(), &rules);
    let out = hearth(home.path(), &["tools", "call", "calculator", SUM]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(value.to_string().contains("42"), "{value}");

    let inside = elsewhere.path().display().to_string();
    let args = ["tools", "call", "calculator", SUM, "--workspace", &inside];
    let out = hearth(home.path(), &args).await;
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["error"]["kind"], "not_permitted", "{value}");
}

/// Runs `args` under `config` and returns the one error line, asserting it names the file.
async fn refused(config: &str, args: &[&str]) -> String {
    let home = tempfile::tempdir().unwrap();
    configure(home.path(), config);
    let out = hearth(home.path(), args).await;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?} ran under {config:?}");
    assert!(out.stdout.is_empty(), "{args:?} printed output");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    let file = home.path().join("config.toml").display().to_string();
    assert!(lines[0].contains(&file), "{stderr}");
    lines[0].to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_malformed_rule_is_a_one_line_error_naming_it() {
    for (rules, expected) in [
        (
            "[[rules]]\neffect = \"deny\"\ncapability = \"fs.wrte\"\n",
            "rules[0].capability: unknown capability `fs.wrte` (expected one of: fs.read, fs.write,",
        ),
        (
            "[[rules]]\neffect = \"perhaps\"\ntool = \"exec\"\n",
            "rules[0].effect: unknown rule effect `perhaps` (expected one of: allow, deny) (line 2)",
        ),
        (
            "[[rules]]\neffect = \"deny\"\n",
            "rule 1 of [[rules]]: give exactly one of `tool` or `capability`",
        ),
    ] {
        let line = refused(rules, &["tools", "call", "calculator", SUM]).await;
        assert!(line.contains(expected), "{line}");
    }
}

const PROVIDER: &str = "[[providers]]\nid = \"local\"\nname = \"Local\"\n";

#[tokio::test(flavor = "multi_thread")]
async fn a_misspelled_setting_or_an_unknown_key_stops_every_command() {
    let cases = [
        (
            "tool_profile = \"ful\"\n".to_string(),
            "tool_profile: unknown tool profile `ful` (expected one of: minimal, messaging, coding, full)",
        ),
        (
            "security_profile = \"public_gatway\"\n".to_string(),
            "security_profile: unknown security profile `public_gatway` (expected one of: personal_cli, daemon, public_gateway)",
        ),
        (
            "language = \"fr\"\n".to_string(),
            "language: unknown language `fr` (expected one of: en, zh-CN)",
        ),
        (
            "theme = \"blue\"\n".to_string(),
            "theme: unknown theme `blue` (expected one of: light, dark, system)",
        ),
        (
            "[search]\nbackend = \"bing\"\n".to_string(),
            "search.backend: unknown web search backend `bing` (expected one of: searxng, brave, tavily)",
        ),
        (
            format!("{PROVIDER}kind = \"openaii\"\n"),
            "providers[0].kind: unknown provider kind `openaii` (expected one of: openai, anthropic, ollama, gemini, local)",
        ),
        (
            "colour = \"red\"\n".to_string(),
            "colour: unknown field `colour`, expected one of `providers`,",
        ),
        (
            format!("{PROVIDER}kind = \"openai\"\napi_key = \"sk-secret\"\n"),
            "providers[0].api_key: unknown field `api_key`, expected one of `id`, `name`, `kind`, `base_url`, `default_model`",
        ),
    ];
    let commands: [&[&str]; 6] = [
        &["tools", "call", "calculator", SUM],
        &["chat", "hi"],
        &["sessions", "list"],
        &["jobs", "list"],
        &["memory", "list"],
        &["keys", "status", "local"],
    ];
    for (config, expected) in &cases {
        for args in commands {
            let line = refused(config, args).await;
            assert!(line.contains(expected), "{args:?}: {line}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn sub_agent_bounds_out_of_range_stop_every_command_before_anything_runs() {
    let cases = [
        (
            "[subagents]\nmax_running = 0\n",
            "subagents.max_running: must be at least 1",
        ),
        (
            "[subagents]\nmax_per_turn = 0\n",
            "subagents.max_per_turn: must be at least 1",
        ),
        (
            "[subagents]\nmax_depth = 4\n",
            "subagents.max_depth: 4 is out of range: sub-agents nest 1 to 3 deep",
        ),
        (
            "[subagents]\nmax_depth = 0\n",
            "subagents.max_depth: 0 is out of range",
        ),
        (
            "[subagents]\nmax_runing = 2\n",
            "subagents.max_runing: unknown field `max_runing`",
        ),
        (
            "[subagents]\nmax_running = -1\n",
            "subagents.max_running: invalid value: integer `-1`",
        ),
    ];
    let commands: [&[&str]; 3] = [&["tasks", "list"], &["chat", "hi"], &["sessions", "list"]];
    for (config, expected) in cases {
        for args in commands {
            let line = refused(config, args).await;
            assert!(line.contains(expected), "{args:?}: {line}");
        }
    }
    // At the edges of the ranges the bounds load.
    let home = tempfile::tempdir().unwrap();
    configure(
        home.path(),
        "[subagents]\nmax_running = 1\nmax_per_turn = 1\nmax_depth = 3\n",
    );
    let out = hearth(home.path(), &["tasks", "list", "--json"]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_empty_search_backend_written_by_earlier_versions_still_loads() {
    let home = tempfile::tempdir().unwrap();
    configure(
        home.path(),
        "[search]\nbackend = \"\"\nsearxng_url = \"\"\n",
    );
    let out = hearth(home.path(), &["tools", "call", "calculator", SUM]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const MCP: &str = "[[mcp_servers]]\nname = \"files\"\ncommand = \"true\"\n";
const CHANNEL: &str = "[[channels]]\nkind = \"webhook\"\nurl = \"http://127.0.0.1:9/\"\n";

#[tokio::test(flavor = "multi_thread")]
async fn durations_out_of_range_and_settings_that_mean_nothing_stop_every_command() {
    let cases = [
        (
            format!("{MCP}startup_timeout_secs = 18446744073709551615\n"),
            "mcp_servers[0].startup_timeout_secs: 18446744073709551615 is out of range: 1 to 3600 seconds (line 4)",
        ),
        (
            format!("{MCP}startup_timeout_secs = 0\n"),
            "mcp_servers[0].startup_timeout_secs: 0 is out of range: 1 to 3600 seconds",
        ),
        (
            format!("{MCP}call_timeout_secs = 86401\n"),
            "mcp_servers[0].call_timeout_secs: 86401 is out of range: 1 to 86400 seconds",
        ),
        (
            "[subagents]\ntimeout_secs = 0\n".to_string(),
            "subagents.timeout_secs: 0 is out of range: 1 to 86400 seconds",
        ),
        (
            "[subagents]\ntimeout_secs = 9223372036854775807\n".to_string(),
            "subagents.timeout_secs: 9223372036854775807 is out of range: 1 to 86400 seconds",
        ),
        (
            "[browser]\nidle_minutes = 0\n".to_string(),
            "browser.idle_minutes: 0 is out of range: 1 to 1440 minutes",
        ),
        (
            "[browser]\nidle_minutes = 4294967295\n".to_string(),
            "browser.idle_minutes: 4294967295 is out of range: 1 to 1440 minutes",
        ),
        (
            format!("{CHANNEL}name = \"hook\"\ntimeout_secs = 601\n"),
            "channels[0].timeout_secs: 601 is out of range: 1 to 600 seconds",
        ),
        (
            "max_iterations = 0\n".to_string(),
            "max_iterations: 0 is out of range: 1 to 10000 (line 1)",
        ),
        (
            "allow_local_hosts = [\"*\"]\n".to_string(),
            "allow_local_hosts: `*` is a wildcard, which allows nothing",
        ),
        (
            "allow_local_hosts = [\"127.0.0.1:11434\", \"192.168.0.0/16\"]\n".to_string(),
            "allow_local_hosts: `192.168.0.0/16` is an address range, which allows nothing",
        ),
        (
            "allow_local_hosts = [\"http://127.0.0.1:8080/\"]\n".to_string(),
            "allow_local_hosts: `http://127.0.0.1:8080/` is a URL: give its `host` or `host:port`",
        ),
        (
            format!("{CHANNEL}name = \"desktop\"\n"),
            "channels[0].name: `desktop` is taken by Hearth's own sessions",
        ),
        (
            format!("{CHANNEL}name = \"Team Chat\"\n"),
            "channels[0].name: `Team Chat` is not a channel name",
        ),
    ];
    let commands: [&[&str]; 3] = [&["sessions", "list"], &["mcp", "list"], &["chat", "hi"]];
    for (config, expected) in &cases {
        for args in commands {
            let line = refused(config, args).await;
            assert!(line.contains(expected), "{args:?}: {line}");
        }
    }
    // At the edges of the ranges the settings load.
    let home = tempfile::tempdir().unwrap();
    configure(
        home.path(),
        &format!(
            "max_iterations = 1\nallow_local_hosts = [\"127.0.0.1:11434\", \"[::1]\", \"nas.lan\"]\n\
             [browser]\nidle_minutes = 1440\n[subagents]\ntimeout_secs = 86400\n\
             {MCP}startup_timeout_secs = 3600\ncall_timeout_secs = 1\nenabled = false\n\
             {CHANNEL}name = \"hook\"\ntimeout_secs = 600\n"
        ),
    );
    let out = hearth(home.path(), &["sessions", "list"]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
