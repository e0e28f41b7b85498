//! Processes a test looks for in `/proc`: the model workers a Hearth program left running.

use std::path::Path;

/// Process ids of `program`'s model workers still running (zombies, already ended but not yet
/// reaped, not counted).
pub fn live_model_workers(program: &Path) -> Vec<u32> {
    let program = program.to_string_lossy().into_owned();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline =
                std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|s| s.split_whitespace().next());
            cmdline.starts_with(&program)
                && cmdline.contains(hearth_local::WORKER_ARG)
                && state != Some("Z")
        })
        .collect()
}
