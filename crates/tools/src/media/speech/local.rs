//! The `local` backend: `espeak-ng` from the operating system, the text on its standard input,
//! WAV on its standard output (whose streamed header gets its real sizes).

use crate::error::{ErrorKind, ToolError};
use crate::media::wav::fix_sizes;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio_util::sync::CancellationToken;

/// The program, found on `PATH`.
pub(super) const ESPEAK: &str = "espeak-ng";

/// How long one synthesis may take (4096 characters take a few seconds).
const SPEAK_TIMEOUT: Duration = Duration::from_secs(120);

/// The espeak-ng voice for `text`: the one asked for (checked to be a voice name, never an
/// option), else Mandarin for text with Chinese characters, else English.
pub(super) fn voice_for(requested: Option<&str>, text: &str) -> Result<String, ToolError> {
    match requested.map(str::trim).filter(|v| !v.is_empty()) {
        Some(voice) => {
            let named = voice
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '/'));
            if !named || voice.starts_with('-') || voice.len() > 64 {
                return Err(ToolError::invalid(
                    "voice",
                    "is not an espeak-ng voice name (letters, digits, - _ + /; e.g. en, en-us, \
                     cmn, de, en+f3)",
                ));
            }
            Ok(voice.to_string())
        }
        None if text.chars().any(is_han) => Ok("cmn".to_string()),
        None => Ok("en".to_string()),
    }
}

fn is_han(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}')
}

/// Speaks `text` with `voice`; the WAV bytes.
pub(super) async fn speak(
    program: &str,
    voice: &str,
    text: &str,
    cancel: &CancellationToken,
) -> Result<Vec<u8>, ToolError> {
    let mut child = hearth_children::spawn(
        tokio::process::Command::new(program)
            .args(["-b", "1", "--stdout", "-v", voice])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true),
    )
    .map_err(|e| not_installed(program, &e))?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| ToolError::internal("espeak-ng's standard input was not opened"))?;
    let text = text.to_string();
    let feed = async move {
        let written = stdin.write_all(text.as_bytes()).await;
        drop(stdin);
        written
    };
    let run = async {
        let (fed, output) = tokio::join!(feed, child.wait_with_output());
        (fed, output)
    };
    let (fed, output) = tokio::select! {
        finished = tokio::time::timeout(SPEAK_TIMEOUT, run) => finished.map_err(|_| {
            ToolError::new(
                ErrorKind::Timeout,
                format!("espeak-ng did not finish within {} s", SPEAK_TIMEOUT.as_secs()),
            )
        })?,
        () = cancel.cancelled() => {
            return Err(ToolError::new(ErrorKind::Cancelled, "the turn was stopped"));
        }
    };
    let output =
        output.map_err(|e| ToolError::internal(format!("espeak-ng could not be run: {e}")))?;
    let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
    if !output.status.success() {
        if stderr.contains("voice does not exist") {
            return Err(ToolError::invalid(
                "voice",
                format!("espeak-ng has no voice `{voice}` (`espeak-ng --voices` lists them)"),
            ));
        }
        return Err(ToolError::new(
            ErrorKind::Failed,
            format!("espeak-ng failed ({}): {stderr}", output.status),
        ));
    }
    fed.map_err(|e| ToolError::internal(format!("the text could not be given to espeak-ng: {e}")))?;
    let mut audio = output.stdout;
    if !fix_sizes(&mut audio) {
        return Err(ToolError::new(
            ErrorKind::Failed,
            format!("espeak-ng wrote no WAV audio: {stderr}"),
        ));
    }
    Ok(audio)
}

/// `unavailable` with the install steps when `program` cannot be started.
fn not_installed(program: &str, error: &std::io::Error) -> ToolError {
    if error.kind() == std::io::ErrorKind::NotFound {
        return ToolError::new(
            ErrorKind::Unavailable,
            format!(
                "the local backend needs espeak-ng, which is not installed (`{program}` was not \
                 found): install it (Debian/Ubuntu: `sudo apt-get install espeak-ng`; Fedora: \
                 `sudo dnf install espeak-ng`; macOS: `brew install espeak-ng`; Windows: the \
                 installer from the espeak-ng releases), or choose the openai backend in \
                 Settings → Media"
            ),
        );
    }
    ToolError::internal(format!("espeak-ng could not be started: {error}"))
}
