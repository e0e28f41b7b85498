//! The typed `Tool` trait, the facts a tool gives about one call, the context a call runs in,
//! and the object-safe `DynTool` the registry stores.

use crate::conversation::Conversation;
use crate::error::ToolError;
use crate::images::ImageSink;
use crate::validate::{deserialize_args, schema_for};
use async_trait::async_trait;
use hearth_policy::{CanonicalTool, ToolFacts};
use hearth_protocol::Confirmation;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Where and for whom a call runs.
#[derive(Clone)]
pub struct ToolContext {
    /// The folder file tools are confined to.
    pub workspace: PathBuf,
    /// The data dir (`spill/`, `skills/`, `artifacts/` … live here).
    pub data_dir: PathBuf,
    pub session_id: String,
    /// Cancelled when the user stops the turn; the registry abandons the call then.
    pub cancel: CancellationToken,
    /// The images attached to this call's result ([`ToolContext::attach_image`]).
    pub images: ImageSink,
    /// The turn's front end; `None` when nobody is there to see or answer.
    pub conversation: Option<Arc<dyn Conversation>>,
    /// The sandbox the user chose for the programs tools start (Settings → Security).
    pub sandbox: hearth_sandbox::Settings,
}

impl ToolContext {
    /// A context for calls made outside a turn: nobody to ask, never cancelled from outside.
    pub fn new(workspace: PathBuf, data_dir: PathBuf, session_id: impl Into<String>) -> Self {
        ToolContext {
            workspace,
            data_dir,
            session_id: session_id.into(),
            cancel: CancellationToken::new(),
            images: ImageSink::default(),
            conversation: None,
            sandbox: Default::default(),
        }
    }
}

impl std::fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("workspace", &self.workspace)
            .field("session_id", &self.session_id)
            .field("conversation", &self.conversation.is_some())
            .finish_non_exhaustive()
    }
}

/// What a tool says about one call, decided from its parsed arguments: whether it is
/// high-risk, whether it changes anything, and whether it must be confirmed every time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallFacts {
    /// Asks for approval under `personal_cli`; needs a job authorization under `daemon`.
    pub high_risk: bool,
    /// Changes something. A batch whose calls all do not runs concurrently.
    pub mutates: bool,
    /// Asked every time: never let through by an earlier "allow for this session", an allow
    /// rule or a job authorization.
    pub always_ask: bool,
    /// What the user is shown when asked, instead of the bare policy reason.
    pub confirmation: Option<Confirmation>,
}

impl CallFacts {
    /// The catalogue entry's risk and mutability: what a call does unless its tool says
    /// otherwise.
    pub fn of(entry: &CanonicalTool) -> CallFacts {
        CallFacts {
            high_risk: entry.high_risk,
            mutates: entry.mutates,
            always_ask: false,
            confirmation: None,
        }
    }

    /// A call that only reads or lists: never asks, may run alongside other such calls.
    pub fn read_only() -> CallFacts {
        CallFacts {
            high_risk: false,
            mutates: false,
            always_ask: false,
            confirmation: None,
        }
    }

    /// The same call, confirmed by the user every time with `confirmation` shown.
    pub fn always_asked(self, confirmation: Confirmation) -> CallFacts {
        CallFacts {
            always_ask: true,
            confirmation: Some(confirmation),
            ..self
        }
    }
}

/// A tool with a typed argument struct. The JSON schema the model sees is generated from
/// `Args` (doc comments become descriptions), and the registry validates arguments against it
/// before `call_facts` and `run` see them.
#[async_trait]
pub trait Tool: Send + Sync + 'static {
    type Args: DeserializeOwned + JsonSchema + Send + Sync + 'static;

    /// The canonical tool this is: its catalogue entry holds the canonical name, capability
    /// tags, risk, default mutability and profile, declared nowhere else.
    fn entry(&self) -> &'static CanonicalTool;

    /// The name the model calls: the canonical name, unless a dialect names the tool its way.
    fn name(&self) -> &str {
        self.entry().name
    }

    fn description(&self) -> &str;

    /// What this call does (default: the entry's risk and mutability). A tool whose actions
    /// differ says so here, e.g. a `list` action is read-only; one whose confirmation shows
    /// stored data reads it here, through the store's `Db` (`cronjob authorize`).
    async fn call_facts(&self, _args: &Self::Args) -> CallFacts {
        CallFacts::of(self.entry())
    }

    async fn run(&self, ctx: &ToolContext, args: Self::Args) -> Result<Value, ToolError>;
}

/// The future of a call that was bound to its arguments.
pub type CallFuture<'a> = Pin<Box<dyn Future<Output = Result<Value, ToolError>> + Send + 'a>>;

/// A call bound to its parsed arguments, waiting for a context to run in.
pub type BoundCall = Box<dyn for<'a> FnOnce(&'a ToolContext) -> CallFuture<'a> + Send>;

/// Boxes `run` as a [`BoundCall`] (the bound lets the compiler see the closure's signature).
pub(crate) fn bind<F>(run: F) -> BoundCall
where
    F: for<'a> FnOnce(&'a ToolContext) -> CallFuture<'a> + Send + 'static,
{
    Box::new(run)
}

/// The object-safe form of a tool: arguments as JSON, parsed once by [`DynTool::prepare`].
#[async_trait]
pub trait DynTool: Send + Sync {
    fn name(&self) -> &str;

    fn description(&self) -> &str;

    /// The tool's own facts under the canonical name (its calls may be less risky).
    fn facts(&self) -> ToolFacts;

    /// JSON Schema of the arguments object.
    fn parameters(&self) -> Value;

    /// Deserializes arguments already validated against [`DynTool::parameters`] and says what
    /// this call does; the call runs later, when policy lets it.
    async fn prepare(self: Arc<Self>, args: Value) -> Result<(CallFacts, BoundCall), ToolError>;
}

/// Anything the registry can hold: a typed [`Tool`], or a dialect wrapper over one.
pub trait IntoDynTool {
    fn into_dyn(self) -> Arc<dyn DynTool>;
}

impl<T: Tool> IntoDynTool for T {
    fn into_dyn(self) -> Arc<dyn DynTool> {
        Arc::new(Typed(self))
    }
}

/// Erases a typed [`Tool`].
struct Typed<T>(T);

#[async_trait]
impl<T: Tool> DynTool for Typed<T> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn description(&self) -> &str {
        self.0.description()
    }

    fn facts(&self) -> ToolFacts {
        self.0.entry().facts()
    }

    fn parameters(&self) -> Value {
        schema_for::<T::Args>()
    }

    async fn prepare(self: Arc<Self>, args: Value) -> Result<(CallFacts, BoundCall), ToolError> {
        let args = deserialize_args::<T::Args>(args)?;
        let facts = self.0.call_facts(&args).await;
        Ok((
            facts,
            bind(move |ctx| Box::pin(async move { self.0.run(ctx, args).await })),
        ))
    }
}
