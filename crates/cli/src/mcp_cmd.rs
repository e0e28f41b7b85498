//! `hearth-cli mcp list|tools|resources|read|prompts|add|remove|import`: the configured MCP
//! servers with their status, tools, resources and prompts, and changes to `[[mcp_servers]]` in
//! `config.toml` (secrets go to the keychain); `login`/`logout` are in `mcp_login`.

use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::Subcommand;
use hearth_core::{KeyringStore, SecretStore};
use hearth_engine::save_settings;
use hearth_mcp::{
    check_servers, env_secret_account, header_secret_account, import_servers, secret_accounts,
    McpManager, State,
};
use hearth_protocol::McpServerSettings;

use crate::pipe::outln;
use crate::setup::{open_home, start_mcp};

#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Start the configured servers and show each one's status and tool count.
    List {
        #[arg(long)]
        json: bool,
    },
    /// The tools one server offers (names as the model sees them).
    Tools {
        server: String,
        #[arg(long)]
        json: bool,
    },
    /// The resources and resource templates one server offers.
    Resources {
        server: String,
        #[arg(long)]
        json: bool,
    },
    /// Print one resource of a server (text; binary contents are saved and their path printed).
    Read {
        server: String,
        uri: String,
        #[arg(long)]
        json: bool,
    },
    /// The prompts one server offers, with their arguments.
    Prompts {
        server: String,
        #[arg(long)]
        json: bool,
    },
    /// Add a stdio server (`mcp add NAME -- COMMAND ARGS…`) or an HTTP one (`--url`).
    Add {
        name: String,
        /// The endpoint of a streamable HTTP server.
        #[arg(long, conflicts_with = "command")]
        url: Option<String>,
        /// A header sent with every request, `Name=value` (repeatable).
        #[arg(long = "header")]
        headers: Vec<String>,
        /// A header kept in the keychain, `Name=value` (repeatable).
        #[arg(long = "secret-header")]
        secret_headers: Vec<String>,
        /// An environment variable of the stdio server, `NAME=value` (repeatable).
        #[arg(long = "env")]
        env: Vec<String>,
        /// An environment variable kept in the keychain, `NAME=value` (repeatable).
        #[arg(long = "secret-env")]
        secret_env: Vec<String>,
        /// The command and its arguments, after `--`.
        #[arg(last = true)]
        command: Vec<String>,
    },
    /// Remove a server and its secrets.
    Remove { name: String },
    /// Add the servers of an `mcpServers` JSON file (Claude Desktop, Cursor, Jan); `-` reads
    /// standard input.
    Import { file: String },
    /// Sign in to a URL server with OAuth (opens the authorization page in the browser).
    Login { name: String },
    /// Forget a URL server's OAuth tokens.
    Logout { name: String },
}

pub async fn run(command: McpCommand) -> anyhow::Result<ExitCode> {
    match command {
        McpCommand::List { json } => list(json).await,
        McpCommand::Tools { server, json } => tools(&server, json).await,
        McpCommand::Resources { server, json } => {
            crate::mcp_content::resources(&server, json).await
        }
        McpCommand::Read { server, uri, json } => {
            crate::mcp_content::read(&server, &uri, json).await
        }
        McpCommand::Prompts { server, json } => crate::mcp_content::prompts(&server, json).await,
        McpCommand::Add {
            name,
            url,
            headers,
            secret_headers,
            env,
            secret_env,
            command,
        } => {
            let mut server = match (url, command.split_first()) {
                (Some(url), None) => McpServerSettings::http(&name, &url),
                (None, Some((program, args))) => McpServerSettings::stdio(&name, program, args),
                _ => return Err(anyhow!("give `--url URL` or `-- COMMAND [ARGS…]`")),
            };
            let mut secrets = Vec::new();
            for pair in headers {
                let (key, value) = split(&pair)?;
                server.headers.insert(key, value);
            }
            for pair in env {
                let (key, value) = split(&pair)?;
                server.env.insert(key, value);
            }
            for pair in secret_headers {
                let (key, value) = split(&pair)?;
                secrets.push((header_secret_account(&name, &key), value));
                server.secret_headers.push(key);
            }
            for pair in secret_env {
                let (key, value) = split(&pair)?;
                secrets.push((env_secret_account(&name, &key), value));
                server.secret_env.push(key);
            }
            add(vec![(server, secrets)])
        }
        McpCommand::Remove { name } => remove(&name),
        McpCommand::Login { name } => crate::mcp_login::login(&name).await,
        McpCommand::Logout { name } => crate::mcp_login::logout(&name),
        McpCommand::Import { file } => {
            let text = if file == "-" {
                std::io::read_to_string(std::io::stdin())?
            } else {
                std::fs::read_to_string(&file).with_context(|| format!("cannot read {file}"))?
            };
            let imported = import_servers(&text)?;
            add(imported
                .into_iter()
                .map(|i| (i.server, i.secrets))
                .collect())
        }
    }
}

fn split(pair: &str) -> anyhow::Result<(String, String)> {
    pair.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.to_string()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| anyhow!("`{pair}` is not NAME=value"))
}

/// Adds `servers` to `config.toml` after checking them; their secrets go to the keychain.
fn add(servers: Vec<(McpServerSettings, Vec<(String, String)>)>) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    let mut settings = home.settings.clone();
    let keychain = KeyringStore::new();
    let mut names = Vec::new();
    for (server, _) in &servers {
        settings.mcp_servers.push(server.clone());
        names.push(server.name.clone());
    }
    check_servers(&settings.mcp_servers)?;
    for (account, value) in servers.iter().flat_map(|(_, secrets)| secrets) {
        keychain
            .set(account, value)
            .with_context(|| format!("cannot store {account} in the keychain"))?;
    }
    save_settings(&home.dir.config(), &settings)?;
    outln!("added {}", names.join(", "));
    Ok(ExitCode::SUCCESS)
}

fn remove(name: &str) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    let mut settings = home.settings.clone();
    let Some(index) = settings.mcp_servers.iter().position(|s| s.name == name) else {
        return Err(anyhow!("no MCP server named `{name}`"));
    };
    let server = settings.mcp_servers.remove(index);
    let keychain = KeyringStore::new();
    for account in secret_accounts(&server) {
        if let Err(error) = keychain.delete(&account) {
            tracing::warn!(%error, %account, "MCP secret not removed");
        }
    }
    save_settings(&home.dir.config(), &settings)?;
    outln!("removed {name}");
    Ok(ExitCode::SUCCESS)
}

async fn list(json: bool) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    let manager = start_mcp(&home, &home.settings.mcp_servers).await;
    let statuses = manager.statuses();
    manager.shutdown().await;
    if json {
        outln!("{}", serde_json::to_string_pretty(&statuses)?);
        return Ok(ExitCode::SUCCESS);
    }
    if statuses.is_empty() {
        outln!("no MCP servers configured (add one with `hearth-cli mcp add`)");
    }
    for status in statuses {
        let state = match &status.state {
            State::Ready => format!("ready, {} tools", status.tools),
            State::Failed { reason } => format!("failed: {reason}"),
            State::Disabled => "disabled".to_string(),
            State::Starting => "starting".to_string(),
            State::NeedsSignIn => format!("needs sign-in (`hearth-cli mcp login {}`)", status.name),
            State::Stopped => "stopped".to_string(),
        };
        outln!("{}\t{}\t{}", status.name, status.transport, state);
    }
    Ok(ExitCode::SUCCESS)
}

async fn tools(server: &str, json: bool) -> anyhow::Result<ExitCode> {
    let (home, manager) = start_one(server).await?;
    let result = report_tools(&manager, json);
    manager.shutdown().await;
    drop(home);
    result
}

/// Starts the configured server `server` alone (even when it is switched off) and waits for
/// it; fails with the reason when it does not start.
pub async fn start_one(
    server: &str,
) -> anyhow::Result<(crate::setup::Home, std::sync::Arc<McpManager>)> {
    let home = open_home()?;
    let Some(settings) = home.settings.mcp_servers.iter().find(|s| s.name == server) else {
        return Err(anyhow!("no MCP server named `{server}`"));
    };
    let settings = McpServerSettings {
        enabled: true,
        ..settings.clone()
    };
    let manager = start_mcp(&home, &[settings]).await;
    if let Some(status) = manager.statuses().first() {
        if let State::Failed { reason } = &status.state {
            let error = anyhow!("MCP server `{}` failed: {reason}", status.name);
            manager.shutdown().await;
            return Err(error);
        }
    }
    Ok((home, manager))
}

fn report_tools(manager: &McpManager, json: bool) -> anyhow::Result<ExitCode> {
    let tools = manager.tool_infos();
    if json {
        outln!("{}", serde_json::to_string_pretty(&tools)?);
    } else {
        for tool in tools {
            let flags = match (tool.read_only, tool.unasked) {
                (_, true) => " (runs without asking)",
                (true, false) => " (read-only)",
                _ => "",
            };
            outln!("{}{}\n  {}\n", tool.name, flags, tool.description);
        }
    }
    Ok(ExitCode::SUCCESS)
}
