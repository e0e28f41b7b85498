//! Tool calls outside a turn, in one session: the flags `tools call` and `tools batch` share,
//! and the registry, policy and approvals they build once and run every call through.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::anyhow;
use clap::Args;
use hearth_engine::{CallScope, ToolRunner};
use hearth_mcp::McpManager;
use hearth_policy::{SecurityProfile, ToolProfile};
use hearth_protocol::{EngineEvent, Language, ToolCall, ToolResult};
use hearth_tools::Dialect;
use tokio_util::sync::CancellationToken;

use crate::setup::{open_home, open_home_with_mcp};
use crate::{approve, ApprovalArgs};

/// The session id tool calls from the command line run in.
const SESSION_ID: &str = "cli:tools";

/// How calls are run: dialect, workspace, security profile, tool profile and approvals.
#[derive(Debug, Clone, Args)]
pub struct CallFlags {
    /// hearth, ceecore, echo or picobot.
    #[arg(long, default_value = "hearth")]
    dialect: String,
    /// Folder the tool works in (default: the data dir's workspace).
    #[arg(long)]
    workspace: Option<PathBuf>,
    /// personal_cli, daemon or public_gateway.
    #[arg(long, default_value = "personal_cli")]
    security: String,
    /// Tool profile (default: the one in config.toml).
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    approval: ApprovalArgs,
}

pub fn dialect(name: &str) -> anyhow::Result<Dialect> {
    Dialect::parse(name)
        .ok_or_else(|| anyhow!("unknown dialect '{name}': use hearth, ceecore, echo or picobot"))
}

/// One registry, runner (with its "allow for this session" answers) and workspace for every
/// call; MCP servers, when started, stay up until [`ToolSession::finish`].
pub struct ToolSession {
    runner: ToolRunner,
    workspace: PathBuf,
    profile: ToolProfile,
    /// The language questions Hearth words itself are asked in (the settings' `language`).
    language: Language,
    mcp: Option<Arc<McpManager>>,
    cancel: CancellationToken,
}

impl ToolSession {
    /// Checks the flags and opens the data dir; `with_mcp` also starts the enabled MCP servers
    /// (and waits for them) so their tools can be called.
    pub async fn open(
        flags: CallFlags,
        with_mcp: bool,
        stdin: approve::Stdin,
    ) -> anyhow::Result<Self> {
        let dialect = dialect(&flags.dialect)?;
        let security: SecurityProfile = flags
            .security
            .parse()
            .map_err(|e| anyhow!("--security: {e}"))?;
        let (home, mcp) = if with_mcp {
            let (home, mcp) = open_home_with_mcp().await?;
            (home, Some(mcp))
        } else {
            (open_home()?, None)
        };
        let profile = match flags.profile {
            Some(name) => name.parse().map_err(|e| anyhow!("--profile: {e}"))?,
            None => home.settings.tool_profile,
        };
        let workspace = flags.workspace.unwrap_or_else(|| home.dir.workspace());
        if !workspace.is_dir() {
            return Err(anyhow!("workspace {} is not a folder", workspace.display()));
        }
        ensure_session(&home.store)?;
        let registry = Arc::new(home.builder.registry(dialect, &home.settings));
        let runner = home.builder.tool_runner(
            registry,
            &home.settings,
            security,
            approve::approver(flags.approval, stdin),
        );
        Ok(ToolSession {
            runner,
            workspace,
            profile,
            language: home.settings.language,
            mcp,
            cancel: CancellationToken::new(),
        })
    }

    /// Runs one call through policy and the registry; a tool error is a result, not an `Err`.
    pub async fn call(&self, name: String, arguments: String) -> anyhow::Result<ToolResult> {
        let scope = CallScope {
            session_id: SESSION_ID,
            workspace: &self.workspace,
            profile: self.profile,
            language: self.language,
        };
        let call = ToolCall {
            id: "cli".to_string(),
            name,
            arguments,
            signature: None,
        };
        let sink = |_: EngineEvent| {};
        self.runner
            .run_calls(&scope, 0, &[call], &sink, &self.cancel)
            .await?
            .pop()
            .ok_or_else(|| anyhow!("the tool produced no result"))
    }

    /// Stops the MCP servers this session started.
    pub async fn finish(self) {
        if let Some(mcp) = self.mcp {
            mcp.shutdown().await;
        }
    }
}

/// Makes the session the calls run in (`cli:tools`), so what they deliver to it
/// (`artifact_deliver`, `notify`) has somewhere to go.
fn ensure_session(store: &hearth_store::Store) -> anyhow::Result<()> {
    if store.get_session(SESSION_ID)?.is_none() {
        store.create_session(&hearth_store::NewSession {
            id: SESSION_ID.to_string(),
            title: "hearth-cli tools".to_string(),
            model: None,
            workspace: None,
            tool_profile: ToolProfile::Full.as_str().to_string(),
        })?;
    }
    Ok(())
}

/// A tool result's content as JSON (a text that is not JSON becomes a JSON string).
pub fn content_json(content: &str) -> serde_json::Value {
    serde_json::from_str(content).unwrap_or_else(|_| serde_json::Value::String(content.to_string()))
}
