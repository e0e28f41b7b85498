//! The skill library: every skill folder under `<data dir>/skills/` and, once the user trusts
//! the workspace, `<workspace>/.agents/skills/` (a project skill overrides a user skill of the
//! same name). A folder that fails to load is listed as broken with the reason.

use crate::error::SkillError;
use crate::skill::{load_skill, Skill, Source};
use crate::trust::is_trusted;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Where to look for skills.
#[derive(Debug, Clone)]
pub struct SkillRoots {
    /// The data dir: skills live in its `skills/`, trust in its `trusted-skill-folders.json`.
    pub data_dir: PathBuf,
    /// The workspace, whose `.agents/skills/` is read once trusted.
    pub workspace: Option<PathBuf>,
}

impl SkillRoots {
    pub fn user(&self) -> PathBuf {
        self.data_dir.join("skills")
    }

    pub fn project(&self) -> Option<PathBuf> {
        self.workspace
            .as_ref()
            .map(|w| w.join(".agents").join("skills"))
    }
}

/// A skill folder that did not load.
#[derive(Debug, Clone, Serialize)]
pub struct Broken {
    /// The folder's name.
    pub folder: String,
    pub dir: PathBuf,
    pub source: Source,
    /// What is wrong, naming the file and field.
    pub reason: String,
}

/// The loaded library.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Library {
    /// Sorted by name.
    pub skills: Vec<Skill>,
    pub broken: Vec<Broken>,
    /// The workspace's `.agents/skills/` when it exists but is not trusted yet.
    pub untrusted_project: Option<PathBuf>,
}

impl Library {
    /// Loads every skill under `roots`.
    pub fn load(roots: &SkillRoots) -> Result<Library, SkillError> {
        let mut library = Library::default();
        library.scan(&roots.user(), Source::User)?;
        if let (Some(project), Some(workspace)) = (roots.project(), &roots.workspace) {
            if project.is_dir() {
                if is_trusted(&roots.data_dir, workspace)? {
                    library.scan(&project, Source::Project)?;
                } else {
                    library.untrusted_project = Some(project);
                }
            }
        }
        let state = crate::SkillState::load(&roots.data_dir)?;
        for skill in &mut library.skills {
            skill.enabled = !state.disabled.contains(&skill.name);
            if skill.source == Source::User && state.imported.contains_key(&skill.name) {
                skill.source = Source::Imported;
            }
        }
        library.skills.sort_by(|a, b| a.name.cmp(&b.name));
        library.broken.sort_by(|a, b| a.folder.cmp(&b.folder));
        Ok(library)
    }

    /// The skills switched on.
    pub fn enabled(&self) -> impl Iterator<Item = &Skill> {
        self.skills.iter().filter(|s| s.enabled)
    }

    /// The skill called `name`, to run: a skill switched off is refused.
    pub fn runnable(&self, name: &str) -> Result<&Skill, SkillError> {
        let skill = self.get(name)?;
        if !skill.enabled {
            return Err(SkillError::Disabled(name.to_string()));
        }
        Ok(skill)
    }

    /// The skill called `name`.
    pub fn get(&self, name: &str) -> Result<&Skill, SkillError> {
        self.skills
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| SkillError::NotFound(name.to_string()))
    }

    /// Loads each folder of `root` (missing: none). A later source's skill replaces an
    /// earlier one of the same name; two of one source with one name are both broken.
    fn scan(&mut self, root: &Path, source: Source) -> Result<(), SkillError> {
        let entries = match std::fs::read_dir(root) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(SkillError::io(root, e)),
        };
        let mut found: Vec<Skill> = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| SkillError::io(root, e))?;
            let folder = entry.file_name().to_string_lossy().into_owned();
            let dir = entry.path();
            if folder.starts_with('.') || !dir.is_dir() {
                continue;
            }
            match load_skill(&dir, source) {
                Ok(skill) => match found.iter().position(|s| s.name == skill.name) {
                    Some(index) => {
                        let first = found.remove(index);
                        for twin in [first, skill] {
                            self.broken.push(Broken {
                                folder: folder_name(&twin.dir),
                                reason: format!(
                                    "another skill folder here is also named `{}`",
                                    twin.name
                                ),
                                dir: twin.dir,
                                source,
                            });
                        }
                    }
                    None => found.push(skill),
                },
                Err(error) => self.broken.push(Broken {
                    folder,
                    dir,
                    source,
                    reason: error.to_string(),
                }),
            }
        }
        self.skills
            .retain(|existing| !found.iter().any(|s| s.name == existing.name));
        self.skills.extend(found);
        Ok(())
    }
}

fn folder_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
