//! `hearth-cli providers list|remove|detect`: the providers of `config.toml` (so a person who
//! cannot use the window can still fix them: removing one keeps the rest of the file as written
//! and deletes its key from the keychain when one is stored), and which model servers run on
//! this machine (Ollama, LM Studio, llama.cpp, vLLM on their usual ports, or the ports given).

use std::process::ExitCode;

use crate::pipe::outln;
use anyhow::{anyhow, Context};
use clap::Subcommand;
use hearth_core::{DataDir, KeyringStore, SecretStore};
use hearth_engine::{
    detect_local_servers, load_settings, provider_account, well_known_servers, LocalCandidate,
    DETECT_TIMEOUT,
};
use hearth_llm::ProviderKind;
use hearth_protocol::{DetectedServer, Settings};
use serde_json::json;

#[derive(Debug, Subcommand)]
pub enum ProvidersCommand {
    /// The providers in config.toml (id, name, kind, URL, default model; the default marked).
    List {
        #[arg(long)]
        json: bool,
    },
    /// Remove a provider from config.toml (the rest of the file stays as written) and its API key
    /// from the OS keychain when one is stored.
    Remove { id: String },
    /// Look for model servers on 127.0.0.1 and list each one found with its models.
    Detect {
        /// Look here instead of the usual ports: `ollama:PORT` or `openai:PORT` (repeatable).
        #[arg(long = "candidate", value_name = "KIND:PORT", value_parser = parse_candidate)]
        candidates: Vec<LocalCandidate>,
        /// Print the servers found as JSON.
        #[arg(long)]
        json: bool,
    },
}

fn parse_candidate(text: &str) -> Result<LocalCandidate, String> {
    let (kind, port) = text
        .split_once(':')
        .ok_or_else(|| format!("'{text}': expected KIND:PORT, e.g. ollama:11434"))?;
    let port: u16 = port
        .parse()
        .map_err(|_| format!("'{port}' is not a port number"))?;
    match kind.parse().ok() {
        Some(ProviderKind::Ollama) => Ok(LocalCandidate::new(
            "Ollama",
            &format!("ollama-{port}"),
            ProviderKind::Ollama,
            port,
        )),
        Some(ProviderKind::Openai) => Ok(LocalCandidate::new(
            "OpenAI-compatible server",
            &format!("local-{port}"),
            ProviderKind::Openai,
            port,
        )),
        _ => Err(format!("'{kind}': local servers are ollama or openai")),
    }
}

pub async fn run(command: ProvidersCommand) -> anyhow::Result<ExitCode> {
    match command {
        ProvidersCommand::List { json } => list(json),
        ProvidersCommand::Remove { id } => remove(&id),
        ProvidersCommand::Detect { candidates, json } => detect(candidates, json).await,
    }
}

fn list(json: bool) -> anyhow::Result<ExitCode> {
    let settings = load_settings(&DataDir::resolve()?.config())?;
    let is_default =
        |id: &str| hearth_engine::default_provider(&settings).is_some_and(|p| p.id == id);
    if json {
        let listed: Vec<_> = settings
            .providers
            .iter()
            .map(|p| {
                json!({
                    "id": p.id,
                    "name": p.name,
                    "kind": p.kind,
                    "base_url": p.base_url,
                    "default_model": p.default_model,
                    "default": is_default(&p.id),
                })
            })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&listed)?);
        return Ok(ExitCode::SUCCESS);
    }
    if settings.providers.is_empty() {
        outln!("no providers in config.toml (add one in Settings, or see `hearth-cli providers detect`)");
    }
    for p in &settings.providers {
        let url = if p.base_url.is_empty() {
            "(default URL)"
        } else {
            &p.base_url
        };
        outln!(
            "{}\t{}\t{}\t{url}\t{}{}",
            p.id,
            p.name,
            p.kind,
            p.default_model.as_deref().unwrap_or("(no default model)"),
            if is_default(&p.id) { "\t(default)" } else { "" },
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn remove(id: &str) -> anyhow::Result<ExitCode> {
    let path = DataDir::resolve()?.config();
    let settings = load_settings(&path)?;
    known(&settings, id)?;
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let edited = crate::provider_config::without_provider(&text, id)?;
    // Written beside it and checked the way every start checks it before it replaces the file.
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, edited).with_context(|| format!("cannot write {}", tmp.display()))?;
    if let Err(error) = load_settings(&tmp) {
        let _ = std::fs::remove_file(&tmp);
        return Err(anyhow!(
            "config.toml left unchanged: without `{id}` it would not load ({error})"
        ));
    }
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot replace {}", path.display()))?;
    outln!("removed provider `{id}` from {}", path.display());
    let keychain = KeyringStore::new();
    let account = provider_account(id);
    match keychain.get(&account) {
        Ok(Some(_)) => {
            keychain
                .delete(&account)
                .context("the provider is removed, but its key stayed in the OS keychain")?;
            outln!("removed its API key from the OS keychain");
        }
        Ok(None) => {}
        Err(error) => {
            tracing::warn!(%error, provider = id, "the keychain could not be read");
            eprintln!("hearth-cli: the OS keychain could not be read, so a key stored for `{id}` may remain: `hearth-cli keys delete {id}` removes it once the keychain is reachable");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Fails with the ids there are when `id` names no provider.
fn known(settings: &Settings, id: &str) -> anyhow::Result<()> {
    if settings.providers.iter().any(|p| p.id == id) {
        return Ok(());
    }
    let ids: Vec<&str> = settings.providers.iter().map(|p| p.id.as_str()).collect();
    Err(anyhow!(
        "no provider `{id}` in config.toml (providers: {}); see `hearth-cli providers list`",
        if ids.is_empty() {
            "none".to_string()
        } else {
            ids.join(", ")
        }
    ))
}

async fn detect(candidates: Vec<LocalCandidate>, json: bool) -> anyhow::Result<ExitCode> {
    let candidates = if candidates.is_empty() {
        well_known_servers()
    } else {
        candidates
    };
    let found = detect_local_servers(&candidates, DETECT_TIMEOUT).await;
    if json {
        outln!("{}", serde_json::to_string_pretty(&found)?);
        return Ok(ExitCode::SUCCESS);
    }
    if found.is_empty() {
        let looked: Vec<String> = candidates
            .iter()
            .map(|c| format!("{} on port {}", c.name, c.port))
            .collect();
        return Err(anyhow!(
            "no model server found on 127.0.0.1 (looked for {}); start one, or pass --candidate KIND:PORT",
            looked.join(", ")
        ));
    }
    for server in &found {
        print_server(server);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_server(server: &DetectedServer) {
    let count = match server.models.len() {
        1 => "1 model".to_string(),
        n => format!("{n} models"),
    };
    outln!("{} on {} — {count}", server.name, server.address);
    for model in &server.models {
        outln!("  {model}");
    }
    let model = server.models.first().map_or("MODEL", String::as_str);
    outln!(
        "  use it: hearth-cli --provider {} --base-url {} --model {model} chat \"hello\"",
        server.kind,
        server.base_url
    );
}
