//! `hearth-cli sessions list|show`: stored conversations, as text or JSON.

use std::process::ExitCode;

use anyhow::anyhow;
use clap::Subcommand;
use hearth_protocol::Message;

use crate::pipe::outln;
use crate::setup::open_home;

#[derive(Debug, Subcommand)]
pub enum SessionsCommand {
    /// List sessions, pinned first, then most recent.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Show one session with every message.
    Show {
        id: String,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: SessionsCommand) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    match command {
        SessionsCommand::List { json } => {
            let sessions = home.store.list_sessions()?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&sessions)?);
            } else if sessions.is_empty() {
                outln!("no sessions yet: start one with `hearth-cli chat \"hello\"`");
            } else {
                for s in sessions {
                    outln!("{}\t{} messages\t{}", s.id, s.message_count, s.title);
                }
            }
        }
        SessionsCommand::Show { id, json } => {
            let session = home.store.get_session(&id)?.ok_or_else(|| {
                anyhow!("unknown session '{id}': list sessions with `hearth-cli sessions list`")
            })?;
            let messages = home.store.list_messages(&id)?;
            if json {
                let value = serde_json::json!({ "session": session, "messages": messages });
                outln!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                outln!("# {} ({})", session.title, session.id);
                for m in &messages {
                    print_message(m);
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn print_message(m: &Message) {
    outln!("\n[{} · {}]", m.role.as_str(), m.status.as_str());
    let text = m.text();
    if !text.is_empty() {
        outln!("{text}");
    }
    for call in &m.tool_calls {
        outln!("→ {} {}", call.name, call.arguments);
    }
    if let Some(result) = &m.tool_result {
        outln!("← {} {}", result.name, result.content);
    }
    if let Some(error) = &m.error {
        outln!("error: {error}");
    }
}
