//! Dialects (each tool's name per dialect is in `docs/tools.md`): the tool names and schemas a
//! skill or chat speaks, and the wrapper that exposes a canonical handler under a dialect's own
//! name and argument shape.

use crate::error::ToolError;
use crate::tool::{bind, BoundCall, CallFacts, DynTool, IntoDynTool, Tool};
use crate::validate::{deserialize_args, schema_for};
use async_trait::async_trait;
use hearth_policy::ToolFacts;
use hearth_protocol::SkillDialect;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// Canonical names and schemas; what chats use.
    Hearth,
    /// CeeCore device agent skills (`prompt.md` + `manifest.json`).
    Ceecore,
    /// Echo Agent: the canonical set exactly.
    Echo,
    /// PicoBot gateway tools.
    Picobot,
}

impl Dialect {
    pub const ALL: [Dialect; 4] = [Self::Hearth, Self::Ceecore, Self::Echo, Self::Picobot];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hearth => "hearth",
            Self::Ceecore => "ceecore",
            Self::Echo => "echo",
            Self::Picobot => "picobot",
        }
    }

    /// Parses a dialect name as written in a skill manifest (case-insensitive).
    pub fn parse(name: &str) -> Option<Dialect> {
        Self::ALL
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(name.trim()))
    }
}

impl From<SkillDialect> for Dialect {
    /// The dialect a skill written for that agent speaks.
    fn from(dialect: SkillDialect) -> Dialect {
        match dialect {
            SkillDialect::Echo => Self::Echo,
            SkillDialect::Ceecore => Self::Ceecore,
            SkillDialect::Picobot => Self::Picobot,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A dialect's argument struct for a canonical tool: how it converts into the canonical
/// arguments, and how the canonical result is reshaped for that dialect.
pub trait DialectArgs: DeserializeOwned + JsonSchema + Send + 'static {
    type Canonical: Send;

    fn into_canonical(self) -> Result<Self::Canonical, ToolError>;

    /// Reshapes the canonical result (default: unchanged).
    fn reshape(result: Value) -> Value {
        result
    }
}

/// A canonical tool `T` exposed under a dialect's name with the argument struct `A`. Policy
/// facts (capabilities, risk, canonical name) are the canonical tool's, and so are the facts of
/// each call: the arguments are converted into the canonical ones first, then `T` judges them.
pub struct DialectTool<T, A> {
    name: &'static str,
    description: &'static str,
    inner: T,
    args: PhantomData<fn() -> A>,
}

impl<T, A> DialectTool<T, A> {
    pub fn new(name: &'static str, description: &'static str, inner: T) -> Self {
        Self {
            name,
            description,
            inner,
            args: PhantomData,
        }
    }
}

impl<T, A> IntoDynTool for DialectTool<T, A>
where
    T: Tool,
    A: DialectArgs<Canonical = T::Args>,
{
    fn into_dyn(self) -> Arc<dyn DynTool> {
        Arc::new(self)
    }
}

#[async_trait]
impl<T, A> DynTool for DialectTool<T, A>
where
    T: Tool,
    A: DialectArgs<Canonical = T::Args>,
{
    fn name(&self) -> &str {
        self.name
    }

    fn description(&self) -> &str {
        self.description
    }

    fn facts(&self) -> ToolFacts {
        self.inner.entry().facts()
    }

    fn parameters(&self) -> Value {
        schema_for::<A>()
    }

    async fn prepare(self: Arc<Self>, args: Value) -> Result<(CallFacts, BoundCall), ToolError> {
        let canonical = deserialize_args::<A>(args)?.into_canonical()?;
        let facts = self.inner.call_facts(&canonical).await;
        Ok((
            facts,
            bind(move |ctx| {
                Box::pin(async move { self.inner.run(ctx, canonical).await.map(A::reshape) })
            }),
        ))
    }
}
