//! `scripted-model-server`: the scripted model server as a process, for end-to-end tests
//! where the app under test runs separately.
#![allow(clippy::print_stdout)]

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use hearth_tests::model_server::{Reply, ScriptedServer, ServerOptions};

/// Serves the replies of a JSON script in order, then repeats the last one.
#[derive(Debug, Parser)]
#[command(name = "scripted-model-server")]
struct Args {
    /// JSON array of replies, e.g. `[{"text": "hi"}, {"tool_calls": [{"name": "x", "arguments": {}}]}]`.
    script: PathBuf,
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Append every request to this file as JSON lines.
    #[arg(long)]
    journal: Option<PathBuf>,
    /// Refuse OpenAI-format requests carrying `stream_options` with a 400, like servers that
    /// do not know the field.
    #[arg(long)]
    reject_stream_options: bool,
}

async fn stopped() -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            result = tokio::signal::ctrl_c() => result?,
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await?;
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let text = std::fs::read_to_string(&args.script)
        .with_context(|| format!("read {}", args.script.display()))?;
    let replies: Vec<Reply> = serde_json::from_str(&text)
        .with_context(|| format!("parse the script {}", args.script.display()))?;
    let options = ServerOptions {
        port: args.port,
        repeat_last: true,
        journal: args.journal,
        reject_stream_options: args.reject_stream_options,
        ..ServerOptions::default()
    };
    let server = ScriptedServer::start_with(options)
        .await
        .context("start the server")?;
    for reply in replies {
        server.push(reply);
    }
    let mut stdout = std::io::stdout();
    writeln!(stdout, "{}", server.url())?;
    stdout.flush()?;
    stopped().await
}
