//! The generated tool reference: a schema change shows up as a difference naming the line, the
//! same registry gives the same text.

use async_trait::async_trait;
use hearth_policy::{catalogue, CanonicalTool};
use hearth_tools::{
    reference, reference_difference, Dialect, Registry, Tool, ToolContext, ToolError,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

// Only the schemas of these two matter: the fields are never read.
#[allow(dead_code)]
#[derive(Deserialize, JsonSchema)]
struct Before {
    /// What to compute.
    expression: String,
}

#[allow(dead_code)]
#[derive(Deserialize, JsonSchema)]
struct After {
    /// What to compute.
    expression: String,
    /// Digits after the decimal point.
    precision: Option<u8>,
}

/// A calculator whose argument struct is `A`.
struct Calc<A>(std::marker::PhantomData<fn() -> A>);

#[async_trait]
impl<A: serde::de::DeserializeOwned + JsonSchema + Send + Sync + 'static> Tool for Calc<A> {
    type Args = A;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::CALCULATOR
    }

    fn description(&self) -> &str {
        "Computes."
    }

    async fn run(&self, _ctx: &ToolContext, _args: A) -> Result<Value, ToolError> {
        Ok(json!({}))
    }
}

async fn generated<A: serde::de::DeserializeOwned + JsonSchema + Send + Sync + 'static>() -> String
{
    let mut registry = Registry::new(Dialect::Hearth);
    assert_eq!(
        registry.register(Calc::<A>(std::marker::PhantomData)),
        Ok(())
    );
    reference(&[registry]).await
}

#[tokio::test]
async fn a_schema_change_without_regenerating_is_a_difference() {
    let before = generated::<Before>().await;
    assert_eq!(
        reference_difference(&before, &generated::<Before>().await),
        None
    );
    let after = generated::<After>().await;
    let difference = reference_difference(&before, &after);
    let difference = difference.unwrap_or_default();
    assert!(difference.starts_with("line "), "{difference}");
    assert!(difference.contains("`precision`"), "{difference}");
    assert!(after.contains("| `precision` | integer | no | Digits after the decimal point. |"));
    assert_eq!(
        reference_difference(&before.replace('\n', "\r\n"), &before).as_deref(),
        Some("they differ only in line endings or a final newline")
    );
}
