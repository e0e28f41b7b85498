//! How `hearth-cli` ends its children: it keeps every process it starts (see `hearth-children`),
//! and SIGINT, SIGTERM or SIGHUP end them all before the command exits — except the first
//! signal a command stops on by itself (Ctrl-C stopping a chat's turn, the daemon's SIGINT and
//! SIGTERM), which it handles; a second one ends everything at once.

use tokio::signal::unix::{signal, SignalKind};

use crate::Command;

/// Makes this process the keeper of its children, with their ledger in the data dir (nothing
/// when the data dir cannot be found: the command then fails on it with its own error).
pub fn keep_children() {
    let Ok(dir) = hearth_core::DataDir::resolve() else {
        return;
    };
    if let Err(error) = hearth_children::install(&dir.run()) {
        eprintln!("hearth-cli: warning: child processes are not tracked: {error}");
    }
}

/// The signals `command` stops on by itself the first time.
pub fn handled_by(command: &Command) -> &'static [SignalKind] {
    const CHAT: [SignalKind; 1] = [SignalKind::interrupt()];
    const DAEMON: [SignalKind; 2] = [SignalKind::interrupt(), SignalKind::terminate()];
    match command {
        Command::Chat { .. } => &CHAT,
        Command::Daemon { .. } => &DAEMON,
        _ => &[],
    }
}

/// Listens for SIGINT, SIGTERM and SIGHUP: the first of `graceful` is left to the command;
/// any other ends every child and exits with 128 + the signal's number.
pub fn watch(graceful: &'static [SignalKind]) {
    let listen = |kind: SignalKind| {
        signal(kind)
            .map_err(|error| tracing::warn!(%error, ?kind, "cannot listen for a signal"))
            .ok()
    };
    let (Some(mut int), Some(mut term), Some(mut hup)) = (
        listen(SignalKind::interrupt()),
        listen(SignalKind::terminate()),
        listen(SignalKind::hangup()),
    ) else {
        return;
    };
    tokio::spawn(async move {
        let mut first = true;
        loop {
            let kind = tokio::select! {
                _ = int.recv() => SignalKind::interrupt(),
                _ = term.recv() => SignalKind::terminate(),
                _ = hup.recv() => SignalKind::hangup(),
            };
            if first && graceful.contains(&kind) {
                first = false;
                continue;
            }
            hearth_children::end_all();
            std::process::exit(128 + kind.as_raw_value());
        }
    });
}
