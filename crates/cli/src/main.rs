//! `hearth-cli`: the Hearth engine without a window — chat, sessions, tools, keys, local model
//! servers, scheduled jobs (and the daemon that runs them, with inbound channels), memories,
//! documents, the knowledge base, artifacts and channels.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod approve;
mod artifacts;
mod channels;
mod chat;
mod daemon;
mod documents;
#[cfg(unix)]
mod interrupt;
mod jobs;
mod keys;
mod knowledge;
mod mcp_cmd;
mod mcp_content;
mod mcp_login;
mod memory;
mod models;
mod models_download;
mod pipe;
mod provider_config;
mod providers;
mod sessions;
mod setup;
mod skills;
mod tasks;
mod tool_session;
mod tools_batch;
mod tools_cmd;

use clap::{Args, Parser, Subcommand};

/// Hearth's agent engine on the command line.
#[derive(Debug, Parser)]
#[command(name = "hearth-cli", version, about)]
struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

/// Provider selection; anything not given comes from `config.toml` in the data dir.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// The model provider: openai, anthropic, ollama, gemini, or local (a GGUF model of the
    /// models folder, run by Hearth itself).
    #[arg(long, global = true)]
    provider: Option<String>,
    /// Base URL of the provider (OpenAI-compatible servers include /v1).
    #[arg(long, global = true)]
    base_url: Option<String>,
    /// Model name.
    #[arg(long, global = true)]
    model: Option<String>,
    /// Read the API key from this environment variable.
    #[arg(long, global = true)]
    api_key_env: Option<String>,
}

/// How high-risk calls are approved when no one is asked.
#[derive(Debug, Clone, Copy, Args)]
pub struct ApprovalArgs {
    /// Approve every call that needs approval.
    #[arg(long, conflicts_with = "deny")]
    approve: bool,
    /// Deny every call that needs approval.
    #[arg(long)]
    deny: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run one turn to completion, streaming the reply to stdout.
    Chat {
        /// Continue this session instead of starting a new one.
        #[arg(long)]
        session: Option<String>,
        #[command(flatten)]
        approval: ApprovalArgs,
        /// The message to send.
        message: String,
    },
    /// List and show stored sessions.
    #[command(subcommand)]
    Sessions(sessions::SessionsCommand),
    /// List tools and call one through the registry and policy.
    #[command(subcommand)]
    Tools(tools_cmd::ToolsCommand),
    /// Store, remove or check a provider's API key in the OS keychain.
    #[command(subcommand)]
    Keys(keys::KeysCommand),
    /// List or remove the providers of config.toml; find model servers running on this machine
    /// (Ollama, LM Studio, llama.cpp, vLLM).
    #[command(subcommand)]
    Providers(providers::ProvidersCommand),
    /// List, describe, import and remove the GGUF models the `local` provider runs.
    #[command(subcommand)]
    Models(models::ModelsCommand),
    /// Run scheduled jobs without a window until Ctrl-C or SIGTERM (logs to stderr).
    Daemon {
        /// Seconds between wall-clock re-checks (1 to 30).
        #[arg(long, default_value_t = daemon::MAX_TICK_SECS)]
        tick: u64,
    },
    /// List, add, edit, enable, disable, run scheduled jobs and show their history.
    #[command(subcommand)]
    Jobs(jobs::JobsCommand),
    /// List, search, add and remove long-term memories.
    #[command(subcommand)]
    Memory(memory::MemoryCommand),
    /// Read the text of a document (pdf, docx, pptx, xlsx, xls, ods, csv, txt, md, html).
    #[command(subcommand)]
    Documents(documents::DocumentsCommand),
    /// List the artifacts models built (`artifact_*` tools) and export one to a file.
    #[command(subcommand)]
    Artifacts(artifacts::ArtifactsCommand),
    /// The knowledge base: add or remove folders, show its status, reindex, search it.
    #[command(subcommand)]
    Knowledge(knowledge::KnowledgeCommand),
    /// List MCP servers and their tools; add, remove or import servers.
    #[command(subcommand)]
    Mcp(mcp_cmd::McpCommand),
    /// List, show, install, remove and run skills.
    #[command(subcommand)]
    Skills(skills::SkillsCommand),
    /// List sub-agent runs, show one (status, result, transcript), cancel one.
    #[command(subcommand)]
    Tasks(tasks::TasksCommand),
    /// List, add, remove and test channels (webhook, Telegram); send a message to a chat.
    #[command(subcommand)]
    Channels(channels::ChannelsCommand),
}

fn main() -> std::process::ExitCode {
    // Started again as the document worker (when `hearth-document-worker` is not beside it):
    // parse one file and exit.
    hearth_documents::serve_worker_if_asked();
    let cli = Cli::parse();
    // Before any thread starts: what this command starts ends with it, however it ends.
    #[cfg(unix)]
    interrupt::keep_children();
    #[cfg(unix)]
    let graceful = interrupt::handled_by(&cli.command);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return fail(&anyhow::anyhow!("cannot start the async runtime: {e}")),
    };
    let result = runtime.block_on(async {
        #[cfg(unix)]
        interrupt::watch(graceful);
        // Every command stops on settings it cannot read, even one that does not use them
        // (`keys`): a misspelled value must never run under some other setting.
        setup::check_settings()?;
        match cli.command {
            Command::Chat {
                session,
                approval,
                message,
            } => chat::run(&cli.global, session.as_deref(), approval, &message, None).await,
            Command::Sessions(command) => sessions::run(command),
            Command::Tools(command) => tools_cmd::run(command).await,
            Command::Keys(command) => keys::run(command),
            Command::Providers(command) => providers::run(command).await,
            Command::Models(command) => models::run(command).await,
            Command::Daemon { tick } => daemon::run(&cli.global, tick).await,
            Command::Jobs(command) => jobs::run(command, &cli.global).await,
            Command::Memory(command) => memory::run(command),
            Command::Documents(command) => documents::run(command).await,
            Command::Artifacts(command) => artifacts::run(command),
            Command::Knowledge(command) => knowledge::run(command).await,
            Command::Mcp(command) => mcp_cmd::run(command).await,
            Command::Skills(command) => skills::run(command, &cli.global).await,
            Command::Tasks(command) => tasks::run(command).await,
            Command::Channels(command) => channels::run(command).await,
        }
    });
    hearth_children::end_all();
    match result {
        Ok(code) => code,
        Err(e) => fail(&e),
    }
}

/// Prints a one-line error and returns a failing exit code.
fn fail(error: &anyhow::Error) -> std::process::ExitCode {
    let line = format!("{error:#}").replace('\n', " ");
    eprintln!("hearth-cli: error: {line}");
    std::process::ExitCode::FAILURE
}
