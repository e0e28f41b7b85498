//! `hearth-cli documents read PATH`: the text of a document, as `read_document` gives it to the
//! model (units with markers, the cut said), for any file the user names.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use hearth_documents::{load, read_unit, Limits};
use serde_json::json;

use crate::pipe::outln;

#[derive(Debug, Subcommand)]
pub enum DocumentsCommand {
    /// Print the text of a pdf, docx, pptx, xlsx, xls, ods, csv, txt, md or html file.
    Read {
        path: PathBuf,
        /// A page, slide or sheet: its number from 1, a range such as 2-4, or its name.
        #[arg(long)]
        unit: Option<String>,
        /// Most characters to print (default: all).
        #[arg(long)]
        max_chars: Option<usize>,
        /// Print the result as JSON (format, unit_count, units_returned, text, truncated).
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(command: DocumentsCommand) -> anyhow::Result<ExitCode> {
    let DocumentsCommand::Read {
        path,
        unit,
        max_chars,
        json,
    } = command;
    let limits = Limits::default();
    let name = path.display().to_string();
    let bytes = load(&path, &limits).with_context(|| name.clone())?;
    let document = read_unit(bytes, name.clone(), unit.clone(), limits)
        .await
        .with_context(|| name.clone())?;
    let extract = document
        .extract(unit.as_deref(), max_chars.unwrap_or(usize::MAX))
        .with_context(|| name.clone())?;
    if json {
        outln!("{}", json!({"path": name, "result": extract}));
    } else {
        outln!("{}", extract.text.trim_end());
        if extract.truncated {
            eprintln!(
                "hearth-cli: cut at {} characters (of {} {}s, {} returned); pass --unit or a larger --max-chars",
                extract.chars,
                extract.unit_count,
                extract.unit_kind.as_str(),
                extract.units_returned.len()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
