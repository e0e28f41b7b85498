//! The tool definitions each profile exposes, built once and shared by every request.

use std::sync::Arc;

use hearth_llm::ToolSpec;
use hearth_policy::ToolProfile;
use hearth_tools::Registry;

/// What each profile exposes, as the model sees it: built once, shared by every request.
#[derive(Clone)]
pub(super) struct ProfileSpecs {
    minimal: Arc<[ToolSpec]>,
    messaging: Arc<[ToolSpec]>,
    coding: Arc<[ToolSpec]>,
    full: Arc<[ToolSpec]>,
}

impl ProfileSpecs {
    pub(super) fn build(registry: &Registry) -> ProfileSpecs {
        let exposed = |profile| -> Arc<[ToolSpec]> {
            registry
                .specs(profile)
                .into_iter()
                .map(|s| ToolSpec {
                    name: s.name,
                    description: s.description,
                    parameters: s.parameters,
                })
                .collect()
        };
        ProfileSpecs {
            minimal: exposed(ToolProfile::Minimal),
            messaging: exposed(ToolProfile::Messaging),
            coding: exposed(ToolProfile::Coding),
            full: exposed(ToolProfile::Full),
        }
    }

    /// Keeps only the tools `keep` accepts (by the name the model calls).
    pub(super) fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        let only = |specs: &Arc<[ToolSpec]>| -> Arc<[ToolSpec]> {
            specs.iter().filter(|s| keep(&s.name)).cloned().collect()
        };
        *self = ProfileSpecs {
            minimal: only(&self.minimal),
            messaging: only(&self.messaging),
            coding: only(&self.coding),
            full: only(&self.full),
        };
    }

    pub(super) fn of(&self, profile: ToolProfile) -> &Arc<[ToolSpec]> {
        match profile {
            ToolProfile::Minimal => &self.minimal,
            ToolProfile::Messaging => &self.messaging,
            ToolProfile::Coding => &self.coding,
            ToolProfile::Full => &self.full,
        }
    }
}
