//! `hearth-cli skills list|show|install|remove|trust|run`: the skill library under
//! `<data dir>/skills/` (and the current folder's `.agents/skills/` once trusted), the same
//! one the skill tools read.

use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::Subcommand;
use hearth_engine::SkillRun;
use hearth_skills::{stage, trust_folder, Library, Skill, SkillRoots, Source};
use serde_json::json;

use crate::chat;
use crate::pipe::outln;
use crate::setup::open_home;
use crate::{ApprovalArgs, GlobalArgs};

#[derive(Debug, Subcommand)]
pub enum SkillsCommand {
    /// Installed skills, and broken ones with the reason.
    List {
        #[arg(long)]
        json: bool,
    },
    /// A skill's details, its instructions and its files.
    Show {
        name: String,
        #[arg(long)]
        json: bool,
    },
    /// Install from a folder, a .zip / .tar.gz file, a git repository URL or an archive URL.
    Install {
        source: String,
        /// The installed folder's name.
        #[arg(long)]
        name: Option<String>,
        /// A folder inside the source holding the skill.
        #[arg(long)]
        subdirectory: Option<String>,
        /// Install without asking.
        #[arg(long)]
        yes: bool,
    },
    /// Remove a user skill.
    Remove { name: String },
    /// Switch a skill on (listed in the catalogue, runnable).
    Enable { name: String },
    /// Switch a skill off: it leaves the catalogue and cannot be run until switched on.
    Disable { name: String },
    /// Trust a project folder (default: the current one) to supply skills from `.agents/skills/`.
    Trust { folder: Option<PathBuf> },
    /// One turn with the skill active: its tools, its declared permissions, its instructions.
    Run {
        name: String,
        /// What to ask (default: carry out the skill).
        message: Option<String>,
        #[command(flatten)]
        approval: ApprovalArgs,
    },
}

fn roots(data_dir: &Path) -> anyhow::Result<SkillRoots> {
    Ok(SkillRoots {
        data_dir: data_dir.to_path_buf(),
        workspace: Some(std::env::current_dir().context("the current folder is unreadable")?),
    })
}

/// `http, file` / `allowed-tools: a b` / `—`.
fn declares(skill: &Skill) -> String {
    match &skill.grant.declaration {
        hearth_policy::Declaration::None => "—".into(),
        hearth_policy::Declaration::Permissions(list) => {
            let names: Vec<&str> = list.iter().map(|p| p.as_str()).collect();
            format!(
                "permissions: {}",
                if names.is_empty() {
                    "none".into()
                } else {
                    names.join(", ")
                }
            )
        }
        hearth_policy::Declaration::AllowedTools(tools) => {
            format!("allowed-tools: {}", tools.join(" "))
        }
    }
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::User => "user",
        Source::Project => "project",
        Source::Imported => "imported",
    }
}

pub async fn run(command: SkillsCommand, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    let data_dir = home.dir.root().to_path_buf();
    match command {
        SkillsCommand::List { json } => {
            let library = Library::load(&roots(&data_dir)?)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&library)?);
                return Ok(ExitCode::SUCCESS);
            }
            if library.skills.is_empty() && library.broken.is_empty() {
                outln!("no skills installed (install one with `hearth-cli skills install FOLDER`)");
            }
            for skill in &library.skills {
                outln!(
                    "{}\t{}\t{}\t{}\t{}",
                    skill.name,
                    source_name(skill.source),
                    skill.dialect.as_str(),
                    declares(skill),
                    skill.description
                );
            }
            for broken in &library.broken {
                outln!("{}\tbroken\t{}", broken.folder, broken.reason);
            }
            if let Some(folder) = &library.untrusted_project {
                eprintln!(
                    "{} holds project skills; trust it with `hearth-cli skills trust`",
                    folder.display()
                );
            }
        }
        SkillsCommand::Show { name, json } => {
            let library = Library::load(&roots(&data_dir)?)?;
            let skill = library.get(&name)?;
            let instructions = std::fs::read_to_string(skill.dir.join(skill.instructions))?;
            let files = hearth_skills::skill_files(&skill.dir)?;
            if json {
                let out = json!({"skill": skill, "instructions": instructions, "files": files});
                outln!("{}", serde_json::to_string_pretty(&out)?);
            } else {
                outln!(
                    "{} ({}, {})",
                    skill.name,
                    source_name(skill.source),
                    skill.dialect.as_str()
                );
                outln!("{}", skill.description);
                outln!("declares: {}", declares(skill));
                outln!("folder: {}", skill.dir.display());
                outln!("files: {}", files.join(", "));
                outln!();
                outln!("{instructions}");
            }
        }
        SkillsCommand::Install {
            source,
            name,
            subdirectory,
            yes,
        } => {
            let user_root = data_dir.join("skills");
            let fetched = fetch(&source, &home.settings.allow_local_hosts).await?;
            let path = fetched
                .as_ref()
                .map_or_else(|| PathBuf::from(&source), |(_, path)| path.clone());
            let staged = stage(&user_root, &path, name.as_deref(), subdirectory.as_deref())?;
            let skill = &staged.skill;
            eprintln!("{}: {}", skill.name, skill.description);
            eprintln!("declares: {}", declares(skill));
            if !yes && !confirmed()? {
                return Err(anyhow!("not installed"));
            }
            let skill = staged.commit()?;
            outln!("installed {} in {}", skill.name, skill.dir.display());
        }
        SkillsCommand::Remove { name } => {
            let library = Library::load(&roots(&data_dir)?)?;
            let skill = library.get(&name)?;
            if skill.source != Source::User {
                return Err(anyhow!(
                    "{name} is a project skill in {}; remove it there",
                    skill.dir.display()
                ));
            }
            std::fs::remove_dir_all(&skill.dir)
                .with_context(|| format!("cannot remove {}", skill.dir.display()))?;
            hearth_skills::forget(&data_dir, &name)?;
            outln!("removed {name}");
        }
        SkillsCommand::Enable { name } => switch(&data_dir, &name, true)?,
        SkillsCommand::Disable { name } => switch(&data_dir, &name, false)?,
        SkillsCommand::Trust { folder } => {
            let folder = match folder {
                Some(folder) => folder,
                None => std::env::current_dir()?,
            };
            trust_folder(&data_dir, &folder)?;
            outln!(
                "trusted {} to supply skills from .agents/skills/",
                folder.display()
            );
        }
        SkillsCommand::Run {
            name,
            message,
            approval,
        } => {
            let workspace = std::env::current_dir().context("the current folder is unreadable")?;
            let run = SkillRun::load(&data_dir, &workspace, &name)?;
            let message = message.unwrap_or_else(|| format!("Carry out the skill `{name}`."));
            drop(home);
            return chat::run(global, None, approval, &message, Some(run)).await;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Switches the installed skill `name` on or off.
fn switch(data_dir: &Path, name: &str, enabled: bool) -> anyhow::Result<()> {
    Library::load(&roots(data_dir)?)?.get(name)?;
    hearth_skills::set_enabled(data_dir, name, enabled)?;
    outln!("{name} switched {}", if enabled { "on" } else { "off" });
    Ok(())
}

/// Asks on stderr/stdin; refuses without a terminal (pass --yes).
fn confirmed() -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() {
        return Err(anyhow!(
            "not installed: confirm with --yes when not at a terminal"
        ));
    }
    eprint!("Install? [y/N] ");
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes"))
}

/// A git URL cloned, or an archive URL downloaded through the network guard (its
/// `allow_local_hosts`), into a temporary folder; `None` for a local path.
async fn fetch(
    source: &str,
    allow_local: &[String],
) -> anyhow::Result<Option<(tempfile::TempDir, PathBuf)>> {
    if Path::new(source).exists() {
        return Ok(None);
    }
    let dir = tempfile::tempdir()?;
    if hearth_skills::is_git_url(source) {
        let repo = hearth_skills::clone_git(source, dir.path())?;
        return Ok(Some((dir, repo)));
    }
    if source.starts_with("http://") || source.starts_with("https://") {
        let archive = hearth_tools::download_skill_archive(allow_local, source, dir.path())
            .await
            .map_err(|e| anyhow!("{source}: {}", e.message))?;
        return Ok(Some((dir, archive)));
    }
    Ok(None)
}
