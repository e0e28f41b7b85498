//! `hearth-cli channels list|add|remove|test|send`: the external channels of `config.toml`
//! (`[[channels]]`), their tokens in the keychain (read from stdin, never from the command
//! line), a test message, and a message to any chat target with the delivery result — exit 1
//! with the channel's reason when it was not delivered.

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::Subcommand;
use hearth_channels::{check_name, test_target, Adapters};
use hearth_core::{ChannelFactory, KeyringStore, SecretStore};
use hearth_engine::save_settings;
use hearth_protocol::{AllowedChat, ChannelKind, ChannelSettings, SecurityProfile, Settings};
use hearth_tools::{Dialect, ToolContext};
use serde_json::{json, Value};

use crate::pipe::outln;
use crate::setup::{open_home, Home};

#[derive(Debug, Subcommand)]
pub enum ChannelsCommand {
    /// The configured channels.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Add a webhook or Telegram channel; a token piped to stdin goes to the keychain.
    Add {
        /// Names the channel in targets (`NAME:<chat_id>`).
        name: String,
        /// webhook or telegram.
        #[arg(long)]
        kind: String,
        /// The webhook's URL.
        #[arg(long)]
        url: Option<String>,
        /// The Bot API server (default https://api.telegram.org).
        #[arg(long)]
        base_url: Option<String>,
        /// Read the token from this environment variable instead of the keychain.
        #[arg(long)]
        token_env: Option<String>,
        /// A chat allowed to write to Hearth (repeat for more); they run under public_gateway.
        #[arg(long = "allow-chat")]
        allow_chat: Vec<String>,
        /// Read messages from the channel (Telegram long polling) in the app and the daemon.
        #[arg(long)]
        inbound: bool,
    },
    /// Remove a channel and its keychain token.
    Remove { name: String },
    /// Send a test message (webhook: chat `test`; Telegram: the first allowed chat).
    Test { name: String },
    /// Send a message to `<channel>:<chat_id>[:<dialog_id>]` and wait for its delivery.
    Send {
        target: String,
        text: String,
        /// A workspace file to attach (repeat for more).
        #[arg(long = "file")]
        files: Vec<String>,
    },
}

pub async fn run(command: ChannelsCommand) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    match command {
        ChannelsCommand::List { json } => list(&home.settings, json),
        ChannelsCommand::Add {
            name,
            kind,
            url,
            base_url,
            token_env,
            allow_chat,
            inbound,
        } => {
            let kind: ChannelKind = kind.parse()?;
            let channel = ChannelSettings {
                url,
                base_url,
                token_env,
                inbound,
                allowed_chats: allow_chat
                    .into_iter()
                    .map(|id| AllowedChat {
                        id,
                        profile: SecurityProfile::PublicGateway,
                    })
                    .collect(),
                ..ChannelSettings::new(name, kind)
            };
            add(home, channel)
        }
        ChannelsCommand::Remove { name } => remove(home, &name),
        ChannelsCommand::Test { name } => {
            let channel = find(&home.settings, &name)?;
            let target = test_target(channel).map_err(|why| anyhow!(why))?;
            let text = "Hearth: a test message from `hearth-cli channels test`.";
            send(&home, &target, text, Vec::new()).await
        }
        ChannelsCommand::Send {
            target,
            text,
            files,
        } => send(&home, &target, &text, files).await,
    }
}

fn find<'a>(settings: &'a Settings, name: &str) -> anyhow::Result<&'a ChannelSettings> {
    settings
        .channels
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| anyhow!("no channel `{name}` (see `hearth-cli channels list`)"))
}

fn list(settings: &Settings, json: bool) -> anyhow::Result<ExitCode> {
    if json {
        outln!("{}", serde_json::to_string_pretty(&settings.channels)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!("desktop\tdesktop\t(built in)");
    for channel in &settings.channels {
        let place = match channel.kind {
            ChannelKind::Webhook => channel.url.clone().unwrap_or_default(),
            ChannelKind::Telegram => channel
                .base_url
                .clone()
                .unwrap_or_else(|| hearth_channels::DEFAULT_BASE_URL.to_string()),
        };
        let chats: Vec<String> = channel
            .allowed_chats
            .iter()
            .map(|c| format!("{} ({})", c.id, c.profile))
            .collect();
        outln!(
            "{}\t{}\t{place}\tinbound: {}\tallowed chats: {}{}",
            channel.name,
            channel.kind,
            if channel.inbound { "on" } else { "off" },
            if chats.is_empty() {
                "none".to_string()
            } else {
                chats.join(", ")
            },
            if channel.enabled { "" } else { "\t(disabled)" },
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The token piped to stdin, if any.
fn token_from_stdin(name: &str) -> anyhow::Result<Option<String>> {
    if std::io::stdin().is_terminal() {
        return Ok(None);
    }
    let mut token = String::new();
    std::io::stdin()
        .read_to_string(&mut token)
        .with_context(|| format!("cannot read the token of `{name}` from stdin"))?;
    Ok(Some(token.trim().to_string()).filter(|t| !t.is_empty()))
}

fn add(home: Home, channel: ChannelSettings) -> anyhow::Result<ExitCode> {
    check_name(&channel.name).map_err(|why| anyhow!(why))?;
    let mut settings = home.settings;
    if settings.channels.iter().any(|c| c.name == channel.name) {
        return Err(anyhow!(
            "a channel `{}` exists; remove it first",
            channel.name
        ));
    }
    let token = token_from_stdin(&channel.name)?;
    let env_token = channel
        .token_env
        .as_deref()
        .and_then(|var| std::env::var(var).ok());
    // Opening it checks the URL, headers and token the way the app will.
    Adapters
        .open(
            &channel,
            &settings.allow_local_hosts,
            token
                .clone()
                .or(env_token)
                .or_else(|| channel.token_env.clone()),
        )
        .map_err(|why| anyhow!(why))?;
    if let Some(token) = &token {
        KeyringStore::new()
            .set(&channel.token_account(), token)
            .context("cannot store the token in the OS keychain")?;
        outln!("stored the token of `{}` in the OS keychain", channel.name);
    }
    let name = channel.name.clone();
    settings.channels.push(channel);
    save_settings(&home.dir.config(), &settings)?;
    outln!("added channel `{name}`");
    Ok(ExitCode::SUCCESS)
}

fn remove(home: Home, name: &str) -> anyhow::Result<ExitCode> {
    let mut settings = home.settings;
    let channel = find(&settings, name)?.clone();
    settings.channels.retain(|c| c.name != name);
    save_settings(&home.dir.config(), &settings)?;
    if let Err(error) = KeyringStore::new().delete(&channel.token_account()) {
        tracing::warn!(%error, "the channel's keychain token could not be removed");
    }
    outln!("removed channel `{name}`");
    Ok(ExitCode::SUCCESS)
}

/// `send_message` through the registry, from the session `cli:channels`; prints the result.
async fn send(
    home: &Home,
    target: &str,
    text: &str,
    files: Vec<String>,
) -> anyhow::Result<ExitCode> {
    let registry = home.builder.registry(Dialect::Hearth, &home.settings);
    let context = ToolContext::new(
        home.dir.workspace(),
        home.dir.root().to_path_buf(),
        "cli:channels",
    );
    let args = json!({"target_chat_id": target, "content": text, "files": files});
    match registry
        .dispatch("send_message", &args.to_string(), &context)
        .await
    {
        Ok(result) => {
            outln!("{}", delivered_line(&result));
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("hearth-cli: {}: {}", error.kind.as_str(), error.message);
            Ok(ExitCode::FAILURE)
        }
    }
}

fn delivered_line(result: &Value) -> String {
    format!(
        "delivered to {} ({}; message ids: {})",
        result["target"].as_str().unwrap_or_default(),
        result["channel_kind"].as_str().unwrap_or_default(),
        result["message_ids"]
    )
}
