//! `hearth-cli providers detect`: which model servers run on this machine (Ollama, LM Studio,
//! llama.cpp, vLLM on their usual ports, or the ports given), with their models.

use std::process::ExitCode;

use crate::pipe::outln;
use anyhow::anyhow;
use clap::Subcommand;
use hearth_engine::{detect_local_servers, well_known_servers, LocalCandidate, DETECT_TIMEOUT};
use hearth_llm::ProviderKind;
use hearth_protocol::DetectedServer;

#[derive(Debug, Subcommand)]
pub enum ProvidersCommand {
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
    let ProvidersCommand::Detect { candidates, json } = command;
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
