//! The registry: the only dispatcher. It holds one dialect's tools, lists their specs for a
//! tool profile, prepares calls (lookup, argument checks, the call's own facts) and runs them
//! (cancellation, output cap).

use crate::dialect::Dialect;
use crate::error::{ErrorKind, ToolError};
use crate::output::spill_if_large;
use crate::tool::{BoundCall, DynTool, IntoDynTool, ToolContext};
use crate::validate::{check, compile, parse_arguments};
use hearth_policy::{exposed, ToolFacts, ToolProfile};
use hearth_protocol::Confirmation;
use jsonschema::Validator;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A tool as offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolSpecInfo {
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments object.
    pub parameters: Value,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    #[error("tool {0} is already registered")]
    Duplicate(String),
    #[error("tool {name} has an invalid argument schema: {message}")]
    Schema { name: String, message: String },
}

struct Entry {
    tool: Arc<dyn DynTool>,
    parameters: Value,
    validator: Validator,
    facts: ToolFacts,
    /// Callable, but not listed to the model (found through a search tool instead).
    deferred: bool,
}

pub struct Registry {
    dialect: Dialect,
    tools: BTreeMap<String, Entry>,
    /// Name prefixes of tools that cannot be called now (an MCP server that failed to start),
    /// each with the error a call of such a name gets instead of `not_found`.
    unavailable: Vec<(String, String)>,
}

impl Registry {
    pub fn new(dialect: Dialect) -> Self {
        Self {
            dialect,
            tools: BTreeMap::new(),
            unavailable: Vec::new(),
        }
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Registers a typed tool (or a dialect wrapper) under its name.
    pub fn register<T: IntoDynTool>(&mut self, tool: T) -> Result<(), RegistryError> {
        self.register_dyn(tool.into_dyn())
    }

    /// Registers `tool` when this registry's dialect is one of `dialects` (else does nothing).
    pub fn register_for<T: IntoDynTool>(
        &mut self,
        dialects: &[Dialect],
        tool: T,
    ) -> Result<(), RegistryError> {
        if dialects.contains(&self.dialect) {
            self.register(tool)?;
        }
        Ok(())
    }

    /// Registers an already type-erased tool (e.g. one discovered at run time).
    pub fn register_dyn(&mut self, tool: Arc<dyn DynTool>) -> Result<(), RegistryError> {
        self.insert(tool, false)
    }

    /// Registers a tool that can be called but is not listed in [`Registry::specs`]: the model
    /// finds it through a search tool (too many MCP schemas to send them all).
    pub fn register_deferred(&mut self, tool: Arc<dyn DynTool>) -> Result<(), RegistryError> {
        self.insert(tool, true)
    }

    /// Takes the tool `name` out (to register another in its place); whether there was one.
    pub fn remove(&mut self, name: &str) -> bool {
        self.tools.remove(name).is_some()
    }

    fn insert(&mut self, tool: Arc<dyn DynTool>, deferred: bool) -> Result<(), RegistryError> {
        let name = tool.name().to_string();
        if self.tools.contains_key(&name) {
            return Err(RegistryError::Duplicate(name));
        }
        let parameters = tool.parameters();
        let validator = compile(&parameters).map_err(|message| RegistryError::Schema {
            name: name.clone(),
            message,
        })?;
        let facts = tool.facts();
        let entry = Entry {
            tool,
            parameters,
            validator,
            facts,
            deferred,
        };
        self.tools.insert(name, entry);
        Ok(())
    }

    /// The tools `profile` exposes, sorted by name (exposure is decided on canonical names).
    pub fn specs(&self, profile: ToolProfile) -> Vec<ToolSpecInfo> {
        self.tools
            .iter()
            .filter(|(_, entry)| !entry.deferred && exposed(profile, &entry.facts.name))
            .map(|(name, entry)| ToolSpecInfo {
                name: name.clone(),
                description: entry.tool.description().to_string(),
                parameters: entry.parameters.clone(),
            })
            .collect()
    }

    /// Marks every unregistered tool whose name starts with `prefix` as unavailable: a call of
    /// one fails `unavailable` with `message` (why, e.g. the server's failure).
    pub fn mark_unavailable(&mut self, prefix: impl Into<String>, message: impl Into<String>) {
        self.unavailable.push((prefix.into(), message.into()));
    }

    /// Policy facts of the tool the model calls `name` (facts carry the canonical name).
    pub fn facts(&self, name: &str) -> Option<ToolFacts> {
        self.tools.get(name).map(|entry| entry.facts.clone())
    }

    /// Prepares one call: unknown tool → `not_found` (`unavailable` under a prefix marked so); the arguments are parsed and checked
    /// against the schema once, then the tool says what this call does. Nothing runs yet.
    pub async fn prepare(
        &self,
        name: &str,
        arguments_json: &str,
    ) -> Result<PreparedCall, ToolError> {
        let Some(entry) = self.tools.get(name) else {
            if let Some((_, message)) = self.unavailable.iter().find(|(p, _)| name.starts_with(p)) {
                return Err(ToolError::new(ErrorKind::Unavailable, message.clone()));
            }
            let available: Vec<&str> = self.tools.keys().map(String::as_str).collect();
            return Err(ToolError::new(
                ErrorKind::NotFound,
                format!(
                    "no tool named `{name}` in dialect {}; available tools: {}",
                    self.dialect,
                    available.join(", ")
                ),
            ));
        };
        let args = Value::Object(parse_arguments(arguments_json)?);
        check(&entry.validator, &entry.parameters, &args)?;
        let (call, bound) = Arc::clone(&entry.tool).prepare(args).await?;
        Ok(PreparedCall {
            name: name.to_string(),
            facts: ToolFacts {
                high_risk: call.high_risk,
                mutates: call.mutates,
                ..entry.facts.clone()
            },
            always_ask: call.always_ask,
            confirmation: call.confirmation,
            bound,
        })
    }

    /// Runs a prepared call: abandoned with `cancelled` when `ctx.cancel` fires; results over
    /// the model output cap are spilled. Policy must have been decided before.
    pub async fn run(&self, call: PreparedCall, ctx: &ToolContext) -> Result<Value, ToolError> {
        let name = call.name;
        let cancelled = || ToolError::new(ErrorKind::Cancelled, format!("{name} was cancelled"));
        if ctx.cancel.is_cancelled() {
            return Err(cancelled());
        }
        let result = tokio::select! {
            biased;
            () = ctx.cancel.cancelled() => Err(cancelled()),
            result = (call.bound)(ctx) => result,
        }?;
        spill_if_large(result, &ctx.data_dir).await
    }

    /// Prepares and runs one call, without policy (tests, benchmarks, trusted callers).
    pub async fn dispatch(
        &self,
        name: &str,
        arguments_json: &str,
        ctx: &ToolContext,
    ) -> Result<Value, ToolError> {
        let call = self.prepare(name, arguments_json).await?;
        self.run(call, ctx).await
    }
}

/// One call whose arguments were parsed and checked, with what policy decides on.
pub struct PreparedCall {
    name: String,
    /// The tool's canonical name and tags, with this call's risk and mutability.
    pub facts: ToolFacts,
    /// The tool says this call is confirmed every time (never remembered for the session).
    pub always_ask: bool,
    /// What the user is shown when asked, from the tool.
    pub confirmation: Option<Confirmation>,
    bound: BoundCall,
}

impl std::fmt::Debug for PreparedCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedCall")
            .field("name", &self.name)
            .field("facts", &self.facts)
            .field("always_ask", &self.always_ask)
            .field("confirmation", &self.confirmation)
            .finish_non_exhaustive()
    }
}
