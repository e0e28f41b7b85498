//! Each dialect's tool list and schemas (snapshots), dialect parsing, facts vs the catalogue,
//! profile filtering, and a dialect wrapper over a canonical handler.

use crate::tools::{context, registry, temp};
use hearth_policy::{canonical_tool, ToolProfile};
use hearth_tools::{Calculator, Dialect, DialectArgs, DialectTool, ErrorKind, Registry, ToolError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

#[test]
fn dialect_tool_lists_with_schemas() {
    for dialect in Dialect::ALL {
        let specs = registry(dialect).specs(ToolProfile::Full);
        insta::assert_json_snapshot!(dialect.as_str(), specs);
    }
}

/// The built-in tools of the hearth and echo dialects.
const CANONICAL_BUILTINS: &[&str] = &[
    "calculator",
    "edit_file",
    "exec",
    "execute_code",
    "get_device_info",
    "list_dir",
    "patch",
    "process",
    "pty",
    "read_document",
    "read_file",
    "read_spill",
    "search_files",
    "skill_manage",
    "skill_run",
    "skill_view",
    "skills_list",
    "write_file",
];

#[test]
fn each_dialect_has_its_builtin_tools() {
    let expected: [(Dialect, &[&str]); 4] = [
        (Dialect::Hearth, CANONICAL_BUILTINS),
        (
            Dialect::Ceecore,
            &["get_device_info", "read_file", "write_file"],
        ),
        (Dialect::Echo, CANONICAL_BUILTINS),
        (
            Dialect::Picobot,
            &[
                "bash",
                "calculator",
                "content_search",
                "file_edit",
                "file_read",
                "file_search",
                "file_write",
                "get_skill",
                "pty",
            ],
        ),
    ];
    for (dialect, names) in expected {
        let registry = registry(dialect);
        assert_eq!(registry.dialect(), dialect);
        let listed: Vec<String> = registry
            .specs(ToolProfile::Full)
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(listed, names, "{dialect}");
    }
}

#[test]
fn dialect_names_parse() {
    for dialect in Dialect::ALL {
        assert_eq!(Dialect::parse(dialect.as_str()), Some(dialect));
        assert_eq!(dialect.to_string(), dialect.as_str());
    }
    assert_eq!(Dialect::parse(" PicoBot "), Some(Dialect::Picobot));
    assert_eq!(Dialect::parse("CeeCore"), Some(Dialect::Ceecore));
    assert_eq!(Dialect::parse("openai"), None);
    assert_eq!(Dialect::parse(""), None);
}

#[test]
fn builtin_facts_match_the_policy_catalogue() {
    for dialect in Dialect::ALL {
        let registry = registry(dialect);
        for spec in registry.specs(ToolProfile::Full) {
            let facts = registry.facts(&spec.name);
            let canonical = facts.as_ref().and_then(|f| canonical_tool(&f.name));
            assert_eq!(facts, canonical.map(|c| c.facts()), "{}", spec.name);
        }
    }
    assert_eq!(registry(Dialect::Hearth).facts("no_such_tool"), None);
}

#[test]
fn specs_follow_the_tool_profile() {
    let registry = registry(Dialect::Hearth);
    for profile in ToolProfile::ALL {
        let names: Vec<String> = registry
            .specs(profile)
            .into_iter()
            .map(|s| s.name)
            .collect();
        // File reading from `minimal`, editing from `coding`; the execution tools are
        // high-risk: only the `full` profile exposes them.
        let read_only: &[&str] = &[
            "calculator",
            "get_device_info",
            "list_dir",
            "read_file",
            "read_spill",
            "search_files",
            "skill_view",
            "skills_list",
        ];
        let editing: &[&str] = &[
            "calculator",
            "edit_file",
            "get_device_info",
            "list_dir",
            "patch",
            "read_file",
            "read_spill",
            "search_files",
            "skill_view",
            "skills_list",
            "write_file",
        ];
        let expected = match profile {
            ToolProfile::Minimal | ToolProfile::Messaging => read_only,
            ToolProfile::Coding => editing,
            ToolProfile::Full => CANONICAL_BUILTINS,
        };
        assert_eq!(names, expected, "{profile}");
    }
}

#[test]
fn duplicate_registration_is_refused() {
    let mut registry = Registry::new(Dialect::Hearth);
    assert_eq!(registry.register(Calculator), Ok(()));
    let again = registry.register(Calculator).err().map(|e| e.to_string());
    assert_eq!(
        again.as_deref(),
        Some("tool calculator is already registered")
    );
    let mut ceecore = Registry::new(Dialect::Ceecore);
    assert_eq!(
        ceecore.register_for(&[Dialect::Picobot], Calculator),
        Ok(())
    );
    assert!(ceecore.specs(ToolProfile::Full).is_empty());
}

#[tokio::test]
async fn unknown_tool_names_the_available_ones() {
    let dir = temp();
    let result = registry(Dialect::Ceecore)
        .dispatch("calculator", "{}", &context(dir.path()))
        .await;
    let error = result.err();
    assert_eq!(error.as_ref().map(|e| e.kind), Some(ErrorKind::NotFound));
    assert_eq!(
        error.map(|e| e.message),
        Some(
            "no tool named `calculator` in dialect ceecore; available tools: get_device_info, \
             read_file, write_file"
                .to_string()
        )
    );
}

/// A dialect shape for the calculator: just an expression, answered with a bare number.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BareExpression {
    /// The arithmetic expression.
    #[schemars(length(min = 1))]
    input: String,
}

impl DialectArgs for BareExpression {
    type Canonical = hearth_tools::CalculatorArgs;

    fn into_canonical(self) -> Result<Self::Canonical, ToolError> {
        serde_json::from_value(json!({"action": "evaluate", "expression": self.input}))
            .map_err(|e| ToolError::internal(e.to_string()))
    }

    fn reshape(result: Value) -> Value {
        result["result"].clone()
    }
}

#[tokio::test]
async fn a_dialect_wrapper_reuses_the_canonical_handler_and_facts() {
    let mut registry = Registry::new(Dialect::Picobot);
    let wrapper: DialectTool<Calculator, BareExpression> =
        DialectTool::new("calc", "Evaluates arithmetic.", Calculator);
    assert_eq!(registry.register(wrapper), Ok(()));
    let dir = temp();
    let ctx = context(dir.path());
    let result = registry.dispatch("calc", r#"{"input": "6*7"}"#, &ctx).await;
    assert_eq!(result, Ok(json!(42)));
    let facts = registry.facts("calc");
    assert_eq!(facts.as_ref().map(|f| f.name.as_str()), Some("calculator"));
    let specs = registry.specs(ToolProfile::Minimal);
    assert_eq!(specs.len(), 1, "exposure follows the canonical name");
    assert_eq!(
        specs[0].parameters["required"],
        json!(["input"]),
        "the wrapper's own schema is shown"
    );
    let bad = registry.dispatch("calc", r#"{"input": "1/0"}"#, &ctx).await;
    assert_eq!(
        bad.err().and_then(|e| e.field),
        Some("expression".to_string())
    );
    let empty = registry.dispatch("calc", r#"{"input": ""}"#, &ctx).await;
    assert_eq!(empty.err().and_then(|e| e.field), Some("input".to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_registry_dispatches_from_many_tasks() {
    let registry = std::sync::Arc::new(registry(Dialect::Hearth));
    let dir = temp();
    let mut tasks = Vec::new();
    for n in 0..16 {
        let (registry, ctx) = (registry.clone(), context(dir.path()));
        tasks.push(tokio::spawn(async move {
            let args = json!({"action": "evaluate", "expression": format!("{n} * 2")});
            registry
                .dispatch("calculator", &args.to_string(), &ctx)
                .await
        }));
    }
    for (n, task) in tasks.into_iter().enumerate() {
        let result = task.await.ok().and_then(Result::ok);
        assert_eq!(result.map(|v| v["result"].clone()), Some(json!(n * 2)));
    }
}
