//! `hearth-cli skills list|show|install|remove|trust|run`: the skill library under
//! `<data dir>/skills/` (and the current folder's `.agents/skills/` once trusted), the same
//! one the skill tools read.

use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::Subcommand;
use hearth_skills::{stage, trust_folder, Library, Skill, SkillDialect, SkillRoots, Source};
use hearth_tools::Dialect;
use serde_json::json;

use crate::chat::{self, SkillTurn};
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
    /// Install from a folder, a .zip / .tar.gz file, or a git repository URL.
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
            let clone = clone_if_git(&source)?;
            let path = clone
                .as_ref()
                .map_or_else(|| PathBuf::from(&source), |(_, repo)| repo.clone());
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
            outln!("removed {name}");
        }
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
            let library = Library::load(&roots(&data_dir)?)?;
            let skill = library.get(&name)?;
            let instructions = std::fs::read_to_string(skill.dir.join(skill.instructions))?;
            let turn = SkillTurn {
                dialect: match skill.dialect {
                    SkillDialect::Echo => Dialect::Echo,
                    SkillDialect::Ceecore => Dialect::Ceecore,
                    SkillDialect::Picobot => Dialect::Picobot,
                },
                grant: skill.grant.clone(),
                instructions: format!(
                    "Use the skill `{}` (its folder: {}). Its instructions ({}):\n\n{instructions}",
                    skill.name,
                    skill.dir.display(),
                    skill.instructions
                ),
            };
            let message = message.unwrap_or_else(|| format!("Carry out the skill `{name}`."));
            drop(home);
            return chat::run(global, None, approval, &message, Some(turn)).await;
        }
    }
    Ok(ExitCode::SUCCESS)
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

/// A git URL cloned into a temporary folder (see [`hearth_skills::clone_git`]); `None` for
/// anything else.
fn clone_if_git(source: &str) -> anyhow::Result<Option<(tempfile::TempDir, PathBuf)>> {
    if !hearth_skills::is_git_url(source) || Path::new(source).is_dir() {
        if source.starts_with("http://") || source.starts_with("https://") {
            return Err(anyhow!(
                "installing an archive from a URL is not supported by the CLI yet: download it \
                 and pass the file"
            ));
        }
        return Ok(None);
    }
    let dir = tempfile::tempdir()?;
    let repo = hearth_skills::clone_git(source, dir.path())?;
    Ok(Some((dir, repo)))
}
