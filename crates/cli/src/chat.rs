//! `hearth-cli chat`: one turn to completion; the reply streams to stdout, tool activity and the
//! session id to stderr, with a progress indicator while waiting when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::anyhow;
use hearth_protocol::{ContentPart, EngineEvent, SubAgentStatus, TurnEnd};
use hearth_tools::Dialect;
use tokio_util::sync::CancellationToken;

use crate::pipe::outln;
use crate::setup::{open_home_with_mcp, settings_with_flags};
use crate::{approve, ApprovalArgs, GlobalArgs};

pub async fn run(
    global: &GlobalArgs,
    session_id: Option<&str>,
    approval: ApprovalArgs,
    message: &str,
    skill: Option<hearth_engine::SkillRun>,
) -> anyhow::Result<ExitCode> {
    if message.trim().is_empty() {
        return Err(anyhow!(
            "the message is empty: pass the text to send, e.g. hearth-cli chat \"hello\""
        ));
    }
    let (home, mcp) = open_home_with_mcp().await?;
    let settings = settings_with_flags(global, home.settings.clone())?;
    let builder = &home.builder;
    let choice = builder.model(&settings, None, global.api_key_env.as_deref())?;
    // A skill run: the skill's dialect, only what it declares, its instructions first.
    let registry = match &skill {
        Some(run) => builder.skill_registry(run, &settings, hearth_engine::attended(&settings)),
        None => builder.registry(Dialect::Hearth, &settings),
    };
    let mut runner = builder.tool_runner(
        Arc::new(registry),
        &settings,
        settings.security_profile,
        approve::approver(approval, approve::Stdin::Free),
    );
    let mut content = vec![ContentPart::text(message)];
    if let Some(run) = skill {
        content = run.content(content);
        runner = runner.with_skill_grant(run.skill.grant);
    }
    let engine = builder.engine(&settings, choice, Arc::new(runner));
    let session = match session_id {
        Some(id) => home.store.get_session(id)?.ok_or_else(|| {
            anyhow!("unknown session '{id}': list sessions with `hearth-cli sessions list`")
        })?,
        None => {
            let title = hearth_engine::title_from(message);
            engine.create_session("cli", title.as_deref()).await?
        }
    };
    eprintln!("session: {}", session.id);

    let cancel = CancellationToken::new();
    let on_interrupt = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_interrupt.cancel();
        }
    });
    let waiting = Arc::new(AtomicBool::new(true));
    let spinner = spawn_spinner(waiting.clone());
    let sink = move |event: EngineEvent| print_event(&event, &waiting);
    let outcome = engine.send(&session.id, content, &sink, cancel).await;
    spinner.abort();
    // Background sub-agents report into the chat when they end; Ctrl-C cancels them with the
    // turn's token.
    if let Some(agents) = engine.agents() {
        let running = agents.running().len();
        if running > 0 {
            eprintln!("\nwaiting for {running} background sub-agent(s) (Ctrl-C stops them)");
            agents.wait_idle().await;
        }
    }
    mcp.shutdown().await;
    outln!();
    let summary = outcome?;
    eprintln!(
        "[{} iteration(s), {}]",
        summary.iterations,
        tokens_line(summary.usage)
    );
    match summary.end {
        TurnEnd::Completed => {
            write_title(&engine, &session.id).await;
            Ok(ExitCode::SUCCESS)
        }
        TurnEnd::Cancelled => Err(anyhow!("cancelled; the partial reply is saved in session {}", session.id)),
        TurnEnd::MaxIterations => Err(anyhow!(
            "stopped after {} tool iterations (max_iterations in config.toml); continue with --session {}",
            engine.options().max_iterations,
            session.id
        )),
    }
}

/// The turn's token counts, or that the server reported none (as the window shows "—").
fn tokens_line(usage: hearth_protocol::Usage) -> String {
    if usage.reported() {
        format!(
            "{} input + {} output tokens",
            usage.input_tokens, usage.output_tokens
        )
    } else {
        "tokens not reported".to_string()
    }
}

/// After a chat's first reply, the model-written title the app would give it (the first words
/// stay when the model fails); later replies and titles the user chose are left alone.
async fn write_title(engine: &hearth_engine::Engine, session_id: &str) {
    match engine.write_title(session_id).await {
        Ok(Some(title)) => eprintln!("title: {title}"),
        Ok(None) => {}
        Err(error) => tracing::warn!(%error, session = session_id, "no model-written title"),
    }
}

fn print_event(event: &EngineEvent, waiting: &AtomicBool) {
    if waiting.swap(false, Ordering::SeqCst) && std::io::stderr().is_terminal() {
        eprint!("\r\x1b[2K");
    }
    match event {
        EngineEvent::TextDelta { text, .. } => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
        }
        EngineEvent::ToolCallStarted { call, .. } => {
            eprintln!("\n→ {} {}", call.name, preview(&call.arguments));
        }
        EngineEvent::ToolCallFinished { result, .. } => {
            let status = if result.is_error { "error" } else { "ok" };
            eprintln!(
                "← {} {status} ({} ms): {}",
                result.name,
                result.duration_ms,
                preview(&result.content)
            );
        }
        EngineEvent::ApprovalResolved { decision, .. } => eprintln!("  approval: {decision:?}"),
        EngineEvent::Compacted {
            summarized_through, ..
        } => {
            eprintln!("  (older messages up to #{summarized_through} were summarized to fit the context window)");
        }
        EngineEvent::AssistantStarted { .. } => waiting.store(true, Ordering::SeqCst),
        EngineEvent::TodoChanged { list } => eprintln!("{}", checklist(list)),
        EngineEvent::SubAgent { progress } if progress.status != SubAgentStatus::Running => {
            eprintln!(
                "  sub-agent {}: {} ({} in + {} out tokens, task {})",
                progress.goal.lines().next().unwrap_or_default(),
                progress.status.as_str(),
                progress.usage.input_tokens,
                progress.usage.output_tokens,
                progress.run_id
            );
        }
        _ => {}
    }
}

/// The session's checklist as the terminal shows it.
fn checklist(list: &hearth_protocol::TodoList) -> String {
    use hearth_protocol::TodoStatus;
    let mut text = format!("  checklist (revision {}):", list.revision);
    for item in &list.items {
        let mark = match item.status {
            TodoStatus::Pending => "[ ]",
            TodoStatus::InProgress => "[~]",
            TodoStatus::Done => "[x]",
        };
        text.push_str(&format!("\n    {mark} {}. {}", item.id, item.title));
    }
    text
}

fn preview(text: &str) -> String {
    let cut: String = text.chars().take(200).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// Shows a spinner on stderr while `waiting` is set and stderr is a terminal.
fn spawn_spinner(waiting: Arc<AtomicBool>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        if !std::io::stderr().is_terminal() {
            return;
        }
        let frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        for frame in frames.iter().cycle() {
            tick.tick().await;
            if waiting.load(Ordering::SeqCst) {
                eprint!("\r{frame} thinking…");
            }
        }
    })
}
