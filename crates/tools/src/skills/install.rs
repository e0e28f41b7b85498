//! `skill_install`: a skill from a local folder or `.zip` / `.tar.gz` file, a git repository, or
//! an archive URL fetched through the network tools' guard (no private addresses unless
//! allowed, pinned resolution, no redirects, capped body); staged, validated, shown to the user
//! and only then moved into `<data dir>/skills/` (its install script run only when asked for and
//! approved on its own), leaving nothing behind on failure.

use super::review::{review, run_install};
use super::{skill_error, summary};
use crate::error::{ErrorKind, ToolError};
use crate::net::{GuardedClient, Network, Outgoing, SystemResolver};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_skills::{clone_git, stage};
use reqwest::header::HeaderMap;
use reqwest::Method;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How long an archive download may take.
const DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(120);

/// `skill_install` (registered with the network tools, whose guarded client it uses).
pub struct SkillInstall(pub(crate) Arc<Network>);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InstallSource {
    /// A folder or a `.zip` / `.tar.gz` file on this machine (relative to the workspace, or
    /// absolute).
    Local,
    /// A git repository URL, cloned shallowly.
    Git,
    /// An `http(s)` URL of a `.zip` or `.tar.gz` archive.
    Url,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillInstallArgs {
    /// Where the skill comes from.
    pub source: InstallSource,
    /// The path, repository URL or archive URL.
    #[schemars(length(min = 1, max = 4096))]
    pub location: String,
    /// The installed folder's name (default: the source's).
    pub name: Option<String>,
    /// A folder inside the source that holds the skill.
    pub subdirectory: Option<String>,
    /// Also run the skill's install script once installed (the user approves it separately;
    /// default false).
    #[serde(default)]
    pub run_install: bool,
}

/// Runs blocking install work off the runtime threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, hearth_skills::SkillError> + Send + 'static,
) -> Result<T, ToolError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ToolError::internal(format!("the install stopped: {e}")))?
        .map_err(|e| skill_error(e, "location"))
}

/// Downloads the skill archive at `url` (ending in `.zip`, `.tar.gz` or `.tgz`) into `folder`
/// through the network tools' guard: private and local addresses are refused unless
/// `allow_local` allows them (`allow_local_hosts`), no redirects, the body capped. For front
/// ends that install with a preview first (the Skills page, `hearth-cli skills install`).
pub async fn download_skill_archive(
    allow_local: &[String],
    url: &str,
    folder: &Path,
) -> Result<PathBuf, ToolError> {
    let client = GuardedClient::new(allow_local, Arc::new(SystemResolver))
        .map_err(|e| ToolError::internal(format!("no HTTP client: {e}")))?;
    download(&client, url, folder).await
}

/// Downloads an archive URL into `folder`, named as its URL's path ends (the name the skill
/// folder gets when the archive does not wrap one).
async fn download(client: &GuardedClient, url: &str, folder: &Path) -> Result<PathBuf, ToolError> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let ext = [".zip", ".tar.gz", ".tgz"]
        .into_iter()
        .find(|ext| path.ends_with(ext))
        .ok_or_else(|| {
            ToolError::invalid("location", "the URL must end in .zip, .tar.gz or .tgz")
        })?;
    let last = path.rsplit('/').next().unwrap_or_default();
    let plain = last.len() > ext.len()
        && !last.starts_with('.')
        && last
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    let file_name = if plain {
        last.to_string()
    } else {
        format!("download{ext}")
    };
    let fetched = client
        .send(Outgoing {
            method: Method::GET,
            url: url.to_string(),
            url_field: "location",
            headers: HeaderMap::new(),
            body: None,
            timeout: DOWNLOAD_TIMEOUT,
        })
        .await?;
    if !fetched.status.is_success() {
        return Err(ToolError::new(
            ErrorKind::Network,
            format!("{url} answered {}", fetched.status),
        ));
    }
    if fetched.truncated {
        return Err(ToolError::new(
            ErrorKind::TooLarge,
            format!("the archive at {url} is over the network tools' download limit"),
        ));
    }
    let path = folder.join(file_name);
    tokio::fs::write(&path, &fetched.body)
        .await
        .map_err(|e| ToolError::internal(format!("{}: {e}", path.display())))?;
    Ok(path)
}

#[async_trait]
impl Tool for SkillInstall {
    type Args = SkillInstallArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::SKILL_INSTALL
    }

    fn description(&self) -> &str {
        "Installs a skill: source `local` (a folder or .zip/.tar.gz file), `git` (a repository \
         URL) or `url` (a .zip/.tar.gz URL). The skill is validated before it lands; archives \
         with absolute or `..` paths, links, or too many or too large files are refused; the \
         user sees its name, description and permissions first. `run_install` also runs its \
         install script, which the user approves separately. Returns the installed skill's \
         {name, description, format, source, dialect, declares}."
    }

    async fn run(&self, ctx: &ToolContext, args: SkillInstallArgs) -> Result<Value, ToolError> {
        let user_root = ctx.data_dir.join("skills");
        tokio::fs::create_dir_all(&user_root)
            .await
            .map_err(|e| ToolError::internal(format!("{}: {e}", user_root.display())))?;
        // Downloads and clones go to a hidden folder removed whatever happens.
        let scratch = user_root.join(format!(".fetch-{}", uuid::Uuid::new_v4()));
        tokio::fs::create_dir_all(&scratch)
            .await
            .map_err(|e| ToolError::internal(format!("{}: {e}", scratch.display())))?;
        let outcome = async {
            let source = match args.source {
                InstallSource::Local => ctx.workspace.join(&args.location),
                InstallSource::Url => download(&self.0.client, &args.location, &scratch).await?,
                InstallSource::Git => {
                    let (url, into) = (args.location.clone(), scratch.clone());
                    blocking(move || clone_git(&url, &into)).await?
                }
            };
            let (name, subdirectory) = (args.name.clone(), args.subdirectory.clone());
            let staged = blocking(move || {
                stage(
                    &user_root,
                    &source,
                    name.as_deref(),
                    subdirectory.as_deref(),
                )
            })
            .await?;
            // Shown before anything lands; dropping the staged skill removes it.
            review(ctx, &staged.skill).await?;
            blocking(move || staged.commit()).await
        }
        .await;
        let _ = tokio::fs::remove_dir_all(&scratch).await;
        let skill = outcome?;
        let mut out = summary(&skill);
        out["installed"] = json!(skill.dir.display().to_string());
        if args.run_install {
            match run_install(ctx, &skill).await {
                Ok(ran) if ran["exit_code"] == 0 => out["install_script"] = ran,
                outcome => {
                    // A failed install leaves nothing behind.
                    let _ = tokio::fs::remove_dir_all(&skill.dir).await;
                    return Err(match outcome {
                        Ok(ran) => ToolError::new(
                            ErrorKind::Unavailable,
                            format!("the install script failed, so the skill was removed: {ran}"),
                        ),
                        Err(error) => error,
                    });
                }
            }
        }
        Ok(out)
    }
}
