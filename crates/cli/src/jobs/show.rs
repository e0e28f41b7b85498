//! How `hearth-cli jobs` prints jobs and runs: tab-separated lines, or JSON with `--json`.

use crate::pipe::outln;
use hearth_scheduler::{JobView, RunView, SchedulerStatus};
use hearth_tools::NOT_RUNNING;
use serde_json::json;

/// Output excerpts in text listings are cut to this many characters.
const EXCERPT_CHARS: usize = 120;

fn excerpt(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = line.chars().take(EXCERPT_CHARS).collect();
    if cut.chars().count() < line.chars().count() {
        format!("{cut}…")
    } else {
        cut
    }
}

pub fn job_list(views: &[JobView], scheduler: &SchedulerStatus, json: bool) -> anyhow::Result<()> {
    if json {
        let value = json!({"jobs": views, "count": views.len(), "scheduler": scheduler});
        outln!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    if views.is_empty() {
        outln!(
            "no jobs yet: add one with `hearth-cli jobs add --name … --schedule … --instruction …`"
        );
    }
    for view in views {
        outln!("{}", job_line(view));
    }
    if !scheduler.alive {
        eprintln!("note: no scheduler is running; {NOT_RUNNING}");
    }
    Ok(())
}

/// `name  enabled|disabled  next: <RFC 3339>|-  <authorization>  <schedule>  -> <target>`.
fn job_line(view: &JobView) -> String {
    format!(
        "{}\t{}\tnext: {}\t{}\t{} ({})\t-> {}\t{}",
        view.name,
        if view.enabled { "enabled" } else { "disabled" },
        view.next_run.as_deref().unwrap_or("-"),
        view.authorization.as_str(),
        view.schedule_description,
        view.tz,
        view.target.as_deref().unwrap_or("(own session)"),
        view.id,
    )
}

pub fn job(view: &JobView, json: bool) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(view)?);
    } else {
        outln!("{}", job_line(view));
    }
    Ok(())
}

pub fn history(runs: &[RunView], json: bool) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(runs)?);
        return Ok(());
    }
    if runs.is_empty() {
        outln!("no runs yet");
    }
    for run in runs {
        outln!("{}", run_line(run));
    }
    Ok(())
}

/// `#id  status  [catch-up] [manual]  started  <output or error excerpt>`.
pub fn run_line(run: &RunView) -> String {
    let mut flags = Vec::new();
    if run.catch_up {
        flags.push("catch-up");
    }
    if run.manual {
        flags.push("manual");
    }
    if !run.authorized {
        flags.push("unauthorized");
    }
    let text = match (&run.output, &run.error) {
        (_, Some(error)) => format!("error: {}", excerpt(error)),
        (Some(output), None) => excerpt(output),
        (None, None) => String::new(),
    };
    format!(
        "#{}\t{}\t{}\t{}\t{}",
        run.id,
        run.status.as_str(),
        if flags.is_empty() {
            "-".to_string()
        } else {
            flags.join(",")
        },
        run.started_at.as_deref().unwrap_or("-"),
        text
    )
}
