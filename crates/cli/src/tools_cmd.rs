//! `hearth-cli tools list|call|reference`: the exposed tools of a dialect and profile, one call
//! run through the registry and policy exactly as the agent would, and the tool reference
//! (`docs/tools.md`) generated from the registry.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::anyhow;
use clap::Subcommand;
use hearth_engine::CallScope;
use hearth_policy::{SecurityProfile, ToolProfile};
use hearth_protocol::{EngineEvent, ToolCall};
use hearth_tools::Dialect;
use tokio_util::sync::CancellationToken;

use crate::pipe::outln;
use crate::setup::{open_home, open_home_with_mcp};
use crate::{approve, ApprovalArgs};

#[derive(Debug, Subcommand)]
pub enum ToolsCommand {
    /// Names and JSON schemas of the tools a dialect exposes under a profile.
    List {
        /// hearth, ceecore, echo or picobot.
        #[arg(long, default_value = "hearth")]
        dialect: String,
        /// minimal, messaging, coding or full.
        #[arg(long, default_value = "full")]
        profile: String,
        #[arg(long)]
        json: bool,
    },
    /// Run one tool and print its JSON result (a tool error prints the error JSON, exit 1).
    Call {
        name: String,
        /// The arguments as a JSON object.
        arguments: String,
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
    },
    /// Print the tool reference (docs/tools.md) as Markdown: every tool in every dialect, its
    /// parameters, capabilities, risk per call and profiles.
    Reference,
}

fn dialect(name: &str) -> anyhow::Result<Dialect> {
    Dialect::parse(name)
        .ok_or_else(|| anyhow!("unknown dialect '{name}': use hearth, ceecore, echo or picobot"))
}

fn profile(name: &str) -> anyhow::Result<ToolProfile> {
    name.parse().map_err(|e| anyhow!("--profile: {e}"))
}

pub async fn run(command: ToolsCommand) -> anyhow::Result<ExitCode> {
    match command {
        ToolsCommand::Reference => {
            print!("{}", hearth_engine::tools_reference()?);
            Ok(ExitCode::SUCCESS)
        }
        ToolsCommand::List {
            dialect: d,
            profile: p,
            json,
        } => {
            let (home, mcp) = open_home_with_mcp().await?;
            let registry = home.builder.registry(dialect(&d)?, &home.settings);
            mcp.shutdown().await;
            let specs = registry.specs(profile(&p)?);
            if json {
                outln!("{}", serde_json::to_string_pretty(&specs)?);
            } else {
                for spec in specs {
                    outln!(
                        "{}\n  {}\n  {}\n",
                        spec.name,
                        spec.description,
                        spec.parameters
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        ToolsCommand::Call {
            name,
            arguments,
            dialect: d,
            workspace,
            security,
            profile: p,
            approval,
        } => {
            let dialect = dialect(&d)?;
            let security: SecurityProfile =
                security.parse().map_err(|e| anyhow!("--security: {e}"))?;
            // MCP servers are started only for an MCP tool.
            let (home, mcp) = if name.starts_with("mcp__") {
                let (home, mcp) = open_home_with_mcp().await?;
                (home, Some(mcp))
            } else {
                (open_home()?, None)
            };
            let registry = Arc::new(home.builder.registry(dialect, &home.settings));
            let tool_profile = match p {
                Some(name) => profile(&name)?,
                None => home.settings.tool_profile,
            };
            let workspace = workspace.unwrap_or_else(|| home.dir.workspace());
            if !workspace.is_dir() {
                return Err(anyhow!("workspace {} is not a folder", workspace.display()));
            }
            let runner = home.builder.tool_runner(
                registry,
                &home.settings,
                security,
                approve::approver(approval),
            );
            let scope = CallScope {
                session_id: "cli:tools",
                workspace: &workspace,
                profile: tool_profile,
            };
            let call = ToolCall {
                id: "cli".to_string(),
                name,
                arguments,
                signature: None,
            };
            let sink = |_: EngineEvent| {};
            let mut results = runner
                .run_calls(&scope, 0, &[call], &sink, &CancellationToken::new())
                .await?;
            if let Some(mcp) = mcp {
                mcp.shutdown().await;
            }
            let result = results
                .pop()
                .ok_or_else(|| anyhow!("the tool produced no result"))?;
            let value: serde_json::Value = serde_json::from_str(&result.content)
                .unwrap_or(serde_json::Value::String(result.content.clone()));
            outln!("{}", serde_json::to_string_pretty(&value)?);
            Ok(if result.is_error {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
    }
}
