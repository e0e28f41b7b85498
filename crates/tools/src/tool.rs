//! The typed `Tool` trait, the context a call runs in, and the object-safe `DynTool` the
//! registry stores.

use crate::error::ToolError;
use crate::validate::{deserialize_args, schema_for};
use async_trait::async_trait;
use hearth_policy::{Capability, ToolFacts};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::PathBuf;
use tokio_util::sync::CancellationToken;

/// Where and for whom a call runs.
#[derive(Debug, Clone)]
pub struct ToolContext {
    /// The folder file tools are confined to.
    pub workspace: PathBuf,
    /// The data dir (`spill/`, `skills/`, `artifacts/` … live here).
    pub data_dir: PathBuf,
    pub session_id: String,
    /// Cancelled when the user stops the turn; the registry abandons the call then.
    pub cancel: CancellationToken,
}

/// A tool with a typed argument struct. The JSON schema the model sees is generated from
/// `Args` (doc comments become descriptions), and the registry validates arguments against it
/// before `run` is called.
#[async_trait]
pub trait Tool: Send + Sync + 'static {
    type Args: DeserializeOwned + JsonSchema + Send;

    /// The name the model calls (dialect-specific for dialect wrappers).
    fn name(&self) -> &str;

    /// The canonical (dialect `hearth`) name policy decides on.
    fn canonical_name(&self) -> &str {
        self.name()
    }

    fn description(&self) -> &str;

    fn capabilities(&self) -> &[Capability];

    fn mutates(&self) -> bool;

    fn high_risk(&self) -> bool {
        false
    }

    async fn run(&self, ctx: &ToolContext, args: Self::Args) -> Result<Value, ToolError>;
}

/// The object-safe form of a tool: arguments and results as JSON.
#[async_trait]
pub trait DynTool: Send + Sync {
    fn name(&self) -> &str;

    fn description(&self) -> &str;

    /// Facts under the canonical name.
    fn facts(&self) -> ToolFacts;

    /// JSON Schema of the arguments object.
    fn parameters(&self) -> Value;

    /// Runs with arguments already validated against [`DynTool::parameters`].
    async fn call(&self, ctx: &ToolContext, args: Value) -> Result<Value, ToolError>;
}

/// Erases a typed [`Tool`].
pub(crate) struct Typed<T>(pub(crate) T);

#[async_trait]
impl<T: Tool> DynTool for Typed<T> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn description(&self) -> &str {
        self.0.description()
    }

    fn facts(&self) -> ToolFacts {
        ToolFacts {
            name: self.0.canonical_name().to_string(),
            capabilities: self.0.capabilities().to_vec(),
            high_risk: self.0.high_risk(),
            mutates: self.0.mutates(),
        }
    }

    fn parameters(&self) -> Value {
        schema_for::<T::Args>()
    }

    async fn call(&self, ctx: &ToolContext, args: Value) -> Result<Value, ToolError> {
        let args = deserialize_args::<T::Args>(args)?;
        self.0.run(ctx, args).await
    }
}
