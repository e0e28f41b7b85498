//! A skill run (the user's `/skill` in the composer, a job bound to a skill, `hearth-cli skills
//! run`): the skill as a part of the message (its instructions for the model), the tools of its dialect with the job
//! tools binding new jobs to it and its own `tools.json` tools, and — applied by the caller through
//! [`crate::ToolRunner::with_skill_grant`] — only what it declares.

use std::path::Path;

use hearth_skills::{Library, Skill, SkillError, SkillRoots};
use hearth_tools::{bind_jobs_to_skill, register_declared_tools, Dialect, Registry};

use crate::builder::EngineBuilder;
use hearth_protocol::{ContentPart, Settings};

/// One skill, loaded for a run.
#[derive(Debug, Clone)]
pub struct SkillRun {
    pub skill: Skill,
    /// `SKILL.md` / `prompt.md` as written.
    pub instructions: String,
}

impl SkillRun {
    /// The enabled skill `name` of the library seen from `workspace` (the user's skills, and the
    /// workspace's once trusted).
    pub fn load(data_dir: &Path, workspace: &Path, name: &str) -> Result<SkillRun, SkillError> {
        let roots = SkillRoots {
            data_dir: data_dir.to_path_buf(),
            workspace: Some(workspace.to_path_buf()),
        };
        let library = Library::load(&roots)?;
        let skill = library.runnable(name)?.clone();
        let path = skill.dir.join(skill.instructions);
        let instructions =
            std::fs::read_to_string(&path).map_err(|e| SkillError::Io { path, source: e })?;
        Ok(SkillRun {
            skill,
            instructions,
        })
    }

    /// The dialect the skill's tools speak.
    pub fn dialect(&self) -> Dialect {
        Dialect::from(self.skill.dialect)
    }

    /// The content of a message of the run: the skill as a part of its own (the model reads its
    /// instructions there), then `parts` as the user gave them.
    pub fn content(&self, parts: Vec<ContentPart>) -> Vec<ContentPart> {
        let skill = &self.skill;
        let mut content = vec![ContentPart::Skill {
            name: skill.name.clone(),
            dialect: skill.dialect,
            folder: skill.dir.display().to_string(),
            instructions_file: skill.instructions.to_string(),
            instructions: self.instructions.clone(),
        }];
        content.extend(
            parts
                .into_iter()
                .filter(|part| !matches!(part, ContentPart::Skill { .. })),
        );
        content
    }
}

impl EngineBuilder {
    /// The registry of a run of `run`: its dialect's tools, with job tools whose new jobs are
    /// bound to the skill, and the tools its `tools.json` declares; `attended` as for
    /// [`crate::attended`].
    pub fn skill_registry(&self, run: &SkillRun, settings: &Settings, attended: bool) -> Registry {
        let mut registry = self.registry_for(run.dialect(), settings, attended);
        if let Err(error) = bind_jobs_to_skill(
            &mut registry,
            self.db().clone(),
            self.runner_signal(),
            &run.skill.name,
        ) {
            tracing::error!(%error, skill = %run.skill.name, "job tools left unbound");
        }
        let allow_local = &settings.allow_local_hosts;
        if let Err(error) = register_declared_tools(&mut registry, &run.skill, allow_local) {
            tracing::error!(%error, skill = %run.skill.name, "tools.json tools left out");
        }
        registry
    }
}
