//! Starting programs under a [`Sandbox`]. Landlock and seccomp restrict the calling *thread*
//! and what it forks afterwards, so each program is started from a fresh, short-lived thread
//! that restricts itself, spawns, and ends; Hearth's other threads stay unrestricted. Every
//! program is recorded with `hearth_children` so that it ends with Hearth.

use crate::{Mode, Sandbox, SandboxError};
use std::ffi::OsStr;
use std::io;

/// What confinement a program got, for tool results and approval cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Isolation {
    /// `landlock+netns`, `landlock+seccomp`, `landlock` (network on) or `none`.
    pub kind: &'static str,
    /// What is missing or partial, or why there is no sandbox.
    pub reason: Option<String>,
}

impl Isolation {
    fn off() -> Self {
        Isolation {
            kind: "none",
            reason: Some("the sandbox is off (Settings → Security): the program ran with all of the user's rights".to_string()),
        }
    }
}

/// How the caller starts its program, which decides how the network is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Launch {
    /// A `Command` the sandbox may add a pre-`exec` step to: a network namespace where user
    /// namespaces are allowed, else seccomp.
    Command,
    /// A spawner of a library (a terminal): seccomp only.
    Opaque,
}

/// Starts `command` (a tokio command) under `sandbox`, in a process group of its own.
pub async fn spawn(
    sandbox: &Sandbox,
    mut command: tokio::process::Command,
) -> Result<(tokio::process::Child, Isolation), SandboxError> {
    let program = program_name(command.as_std());
    let executable = command.as_std().get_program().to_os_string();
    if sandbox.mode == Mode::Off {
        let child =
            hearth_children::spawn(&mut command).map_err(|source| spawn_error(&program, source))?;
        return Ok((child, Isolation::off()));
    }
    let runtime = tokio::runtime::Handle::current();
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let sandbox = sandbox.clone();
    // A new thread, never a pooled one: the restriction stays with the thread until it ends.
    std::thread::Builder::new()
        .name("hearth-sandbox-spawn".to_string())
        .spawn(move || {
            let _runtime = runtime.enter();
            let started =
                restricted(&sandbox, Launch::Command, &executable).and_then(|(isolation, hook)| {
                    hook.install_tokio(&mut command);
                    let child = hearth_children::spawn(&mut command)
                        .map_err(|source| spawn_error(&program, source))?;
                    Ok((child, isolation))
                });
            // The caller only stops listening when it was cancelled; the child is then killed
            // on drop.
            let _ = sender.send(started);
        })
        .map_err(|e| SandboxError::Setup(format!("no thread to spawn from: {e}")))?;
    receiver
        .await
        .map_err(|_| SandboxError::Setup("the spawning thread ended without an answer".into()))?
}

/// Starts `command` (a std command) under `sandbox`, in a process group of its own; blocks
/// while the program is started.
pub fn spawn_std(
    sandbox: &Sandbox,
    mut command: std::process::Command,
) -> Result<(std::process::Child, Isolation), SandboxError> {
    let program = program_name(&command);
    let executable = command.get_program().to_os_string();
    if sandbox.mode == Mode::Off {
        let child = hearth_children::spawn_std(&mut command)
            .map_err(|source| spawn_error(&program, source))?;
        return Ok((child, Isolation::off()));
    }
    in_thread(move || {
        let (isolation, hook) = restricted(sandbox, Launch::Command, &executable)?;
        hook.install_std(&mut command);
        let child = hearth_children::spawn_std(&mut command)
            .map_err(|source| spawn_error(&program, source))?;
        Ok((child, isolation))
    })
}

/// Runs `start` (which starts a program through a library, e.g. on a terminal) under
/// `sandbox`; blocks while it runs. `what` names the program in errors.
pub fn confine<T: Send>(
    sandbox: &Sandbox,
    what: &str,
    start: impl FnOnce() -> io::Result<T> + Send,
) -> Result<(T, Isolation), SandboxError> {
    if sandbox.mode == Mode::Off {
        return start()
            .map(|started| (started, Isolation::off()))
            .map_err(|source| spawn_error(what, source));
    }
    in_thread(move || {
        let (isolation, _) = restricted(sandbox, Launch::Opaque, OsStr::new(what))?;
        let started = start().map_err(|source| spawn_error(what, source))?;
        Ok((started, isolation))
    })
}

/// What a command with the network off gets on this system, found by starting `/bin/sh -c :`
/// in such a sandbox; `none` with the reason when there is no sandbox here.
pub fn probe() -> Isolation {
    let sandbox = Sandbox::new(&crate::Settings::default(), None, None);
    let mut command = sandbox.command("/bin/sh");
    command
        .args(["-c", ":"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match spawn_std(&sandbox, command) {
        Ok((mut child, isolation)) => {
            let _ = child.wait();
            isolation
        }
        Err(error) => Isolation {
            kind: "none",
            reason: Some(error.to_string()),
        },
    }
}

/// Runs `job` on a fresh thread and waits for it.
fn in_thread<T: Send>(
    job: impl FnOnce() -> Result<T, SandboxError> + Send,
) -> Result<T, SandboxError> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("hearth-sandbox-spawn".to_string())
            .spawn_scoped(scope, job)
            .map_err(|e| SandboxError::Setup(format!("no thread to spawn from: {e}")))?
            .join()
            .map_err(|_| SandboxError::Setup("the spawning thread panicked".into()))?
    })
}

fn program_name(command: &std::process::Command) -> String {
    command.get_program().to_string_lossy().into_owned()
}

fn spawn_error(program: &str, source: io::Error) -> SandboxError {
    SandboxError::Spawn {
        program: program.to_string(),
        source,
    }
}

/// Restricts the calling thread to `sandbox` for starting `program` (the command's program) and
/// returns what applied with the step to add before `exec`.
#[cfg(target_os = "linux")]
fn restricted(
    sandbox: &Sandbox,
    launch: Launch,
    _program: &OsStr,
) -> Result<(Isolation, crate::linux::Hook), SandboxError> {
    crate::linux::restricted(sandbox, launch)
}

#[cfg(target_os = "macos")]
fn restricted(
    sandbox: &Sandbox,
    launch: Launch,
    program: &OsStr,
) -> Result<(Isolation, NoHook), SandboxError> {
    crate::macos::restricted(sandbox, launch, program).map(|isolation| (isolation, NoHook))
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn restricted(_: &Sandbox, _: Launch, _: &OsStr) -> Result<(Isolation, NoHook), SandboxError> {
    Err(SandboxError::Unavailable {
        reason: if cfg!(windows) {
            "commands are not sandboxed on Windows yet".to_string()
        } else {
            "Hearth has no sandbox on this operating system yet".to_string()
        },
    })
}

/// Nothing to add before `exec` where the sandbox is not applied by the spawning thread.
#[cfg(not(target_os = "linux"))]
struct NoHook;

#[cfg(not(target_os = "linux"))]
impl NoHook {
    fn install_tokio(&self, _: &mut tokio::process::Command) {}
    fn install_std(&self, _: &mut std::process::Command) {}
}
