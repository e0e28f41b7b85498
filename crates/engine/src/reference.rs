//! `docs/tools.md`: the tool reference generated from the registries every front end uses (all
//! four dialects, with the store-backed families), and the test that keeps the file current.

use std::sync::Arc;

use hearth_store::Store;
use hearth_tools::media::{DesktopDelivery, NoVisionModels};
use hearth_tools::{Background, Dialect, MediaConfig, NetworkConfig};

use crate::agents::{register_agents, Agents};
use crate::media::add_media_tools;
use crate::notify::OsNotifier;
use crate::registry::{register_browser_tools, tool_registry};
use crate::EngineError;

/// How to bring `docs/tools.md` up to date.
pub const REGENERATE_TOOLS_DOC: &str =
    "UPDATE_TOOLS_DOC=1 cargo test -p hearth-engine tools_reference";

/// The tool reference as Markdown, from registries over a private database and the default
/// network settings (nothing is called while it is built).
pub async fn tools_reference() -> Result<String, EngineError> {
    let store = Arc::new(Store::open_in_memory()?);
    let background = Background::new();
    let agents = Arc::new(Agents::new(store.clone()));
    let registries: Vec<_> = Dialect::ALL
        .into_iter()
        .map(|dialect| reference_registry(dialect, &store, &background, &agents))
        .collect::<Result<_, _>>()
        .map_err(|error| EngineError::Config(error.to_string()))?;
    Ok(format!(
        "# Tool reference\n\n\
         Every tool Hearth offers, in each dialect (`hearth` is what chats use; `ceecore`, `echo` \
         and `picobot` are what skills written for those agents speak): its parameters, the \
         capability tags rules match, its risk and the tool profiles exposing it. *High-risk* \
         calls ask first under the `personal_cli` security profile, need a job authorization \
         under `daemon` and are refused under `public_gateway`; a tool may say that some of its \
         calls (listing, reading) are read-only, and those never ask. See the README's \"Rules\" \
         section for profiles and rules.\n\n\
         Generated from the tool registry; do not edit by hand. Regenerate with \
         `{REGENERATE_TOOLS_DOC}` or `hearth-cli tools reference > docs/tools.md`.\n\n{}",
        hearth_tools::reference(&registries).await
    ))
}

/// `dialect`'s registry as every front end builds it: media, browser and delegation tools
/// included (nothing starts).
fn reference_registry(
    dialect: Dialect,
    store: &Arc<Store>,
    background: &Background,
    agents: &Arc<Agents>,
) -> Result<hearth_tools::Registry, hearth_tools::RegistryError> {
    let mut registry = tool_registry(
        dialect,
        store,
        Arc::new(OsNotifier),
        NetworkConfig::default(),
        background,
    );
    add_media_tools(
        &mut registry,
        MediaConfig::default(),
        Arc::new(NoVisionModels),
        Arc::new(DesktopDelivery),
    );
    let browsers = hearth_browser::Browsers::new(&std::env::temp_dir().join("hearth-reference"));
    register_browser_tools(
        &mut registry,
        &browsers,
        &hearth_protocol::BrowserSettings::default(),
        &[],
        true,
    );
    let no_servers: Arc<dyn hearth_tools::McpResources> = Arc::new(hearth_tools::NoMcpServers);
    registry.register(hearth_tools::McpResourceList(no_servers.clone()))?;
    registry.register(hearth_tools::McpResourceRead(no_servers))?;
    hearth_tools::register_artifacts(
        &mut registry,
        store.clone(),
        Arc::new(crate::channels::Channels::new(store.clone())),
        hearth_protocol::ArtifactSettings::default(),
    )?;
    hearth_knowledge::register_knowledge(
        &mut registry,
        &hearth_knowledge::Knowledge::new(store.clone()),
    )?;
    register_agents(&mut registry, agents).map(|()| registry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hearth_policy::{canonical_tool, ToolProfile};
    use hearth_tools::{minimal_arguments, reference_difference};

    const TOOLS_DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/tools.md");

    #[tokio::test]
    async fn tools_reference_matches_docs_tools_md() {
        let generated = tools_reference().await.unwrap();
        if std::env::var_os("UPDATE_TOOLS_DOC").is_some() {
            std::fs::write(TOOLS_DOC, &generated).unwrap();
        }
        let on_disk = std::fs::read_to_string(TOOLS_DOC).unwrap_or_default();
        if let Some(difference) = reference_difference(&on_disk, &generated) {
            panic!("docs/tools.md is out of date ({difference}); run: {REGENERATE_TOOLS_DOC}");
        }
    }

    #[tokio::test]
    async fn every_registered_tool_reports_its_catalogue_entry_and_takes_its_smallest_call() {
        let store = Arc::new(Store::open_in_memory().unwrap());
        let background = Background::new();
        let agents = Arc::new(Agents::new(store.clone()));
        for dialect in Dialect::ALL {
            let registry = reference_registry(dialect, &store, &background, &agents).unwrap();
            let specs = registry.specs(ToolProfile::Full);
            assert!(!specs.is_empty(), "{dialect}");
            for spec in specs {
                let facts = registry.facts(&spec.name).unwrap();
                let entry = canonical_tool(&facts.name)
                    .unwrap_or_else(|| panic!("{dialect} {} has no catalogue entry", spec.name));
                assert_eq!(facts, entry.facts(), "{dialect} {}", spec.name);
                // The reference judges each tool's calls on these arguments: they must pass.
                let args = minimal_arguments(&spec.parameters);
                let prepared = registry.prepare(&spec.name, &args.to_string()).await;
                assert!(
                    prepared.is_ok(),
                    "{dialect} {} {args}: {prepared:?}",
                    spec.name
                );
            }
        }
    }
}
