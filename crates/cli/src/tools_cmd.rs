//! `hearth-cli tools list|call|batch|reference`: the exposed tools of a dialect and profile, calls
//! run through the registry and policy exactly as the agent would (one, or a batch in one
//! session), and the tool reference (`docs/tools.md`) generated from the registry.

use std::process::ExitCode;

use anyhow::anyhow;
use clap::Subcommand;
use hearth_policy::ToolProfile;

use crate::approve::Stdin;
use crate::pipe::outln;
use crate::setup::open_home_with_mcp;
use crate::tool_session::{content_json, dialect, CallFlags, ToolSession};

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
        #[command(flatten)]
        flags: CallFlags,
    },
    /// Run many calls in one process and one session: FILE holds a JSON array or JSON lines of
    /// `{"name": …, "arguments": {…}}`; `-` reads JSON lines from stdin and answers each line
    /// before reading the next. Prints one JSON line per call; exit 1 if any failed.
    Batch {
        /// The calls: a file, or `-` for stdin.
        file: String,
        #[command(flatten)]
        flags: CallFlags,
    },
    /// Print the tool reference (docs/tools.md) as Markdown: every tool in every dialect, its
    /// parameters, capabilities, risk per call and profiles.
    Reference,
}

fn profile(name: &str) -> anyhow::Result<ToolProfile> {
    name.parse().map_err(|e| anyhow!("--profile: {e}"))
}

pub async fn run(command: ToolsCommand) -> anyhow::Result<ExitCode> {
    match command {
        ToolsCommand::Reference => {
            print!("{}", hearth_engine::tools_reference().await?);
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
            flags,
        } => {
            // MCP servers are started only for an MCP tool.
            let with_mcp = name.starts_with("mcp__");
            let session = ToolSession::open(flags, with_mcp, Stdin::Free).await?;
            let result = session.call(name, arguments).await?;
            session.finish().await;
            let value = content_json(&result.content);
            outln!("{}", serde_json::to_string_pretty(&value)?);
            Ok(if result.is_error {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        ToolsCommand::Batch { file, flags } => crate::tools_batch::run(&file, flags).await,
    }
}
