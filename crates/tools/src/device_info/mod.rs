//! `get_device_info`: version, uptime, storage, memory, network and skills, with no
//! private data (no host or user names, addresses, MACs or device serials).

mod collect;

use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The device information tool.
pub struct DeviceInfo;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeviceField {
    Version,
    Uptime,
    Storage,
    Memory,
    Network,
    Skills,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeviceInfoArgs {
    /// Which sections to return (default: all). `version`: Hearth's version; `uptime`: seconds
    /// since boot; `storage`: bytes per mounted volume and in total; `memory`: RAM and swap in
    /// bytes; `network`: interface count and bytes moved; `skills`: installed skills (count and names) and broken skill folders.
    #[schemars(length(min = 1))]
    pub fields: Option<Vec<DeviceField>>,
}

const ALL_FIELDS: [DeviceField; 6] = [
    DeviceField::Version,
    DeviceField::Uptime,
    DeviceField::Storage,
    DeviceField::Memory,
    DeviceField::Network,
    DeviceField::Skills,
];

impl DeviceField {
    fn as_str(self) -> &'static str {
        match self {
            Self::Version => "version",
            Self::Uptime => "uptime",
            Self::Storage => "storage",
            Self::Memory => "memory",
            Self::Network => "network",
            Self::Skills => "skills",
        }
    }
}

#[async_trait]
impl Tool for DeviceInfo {
    type Args = DeviceInfoArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::GET_DEVICE_INFO
    }

    fn description(&self) -> &str {
        "Information about this computer and Hearth: version, uptime, storage, memory, network \
         totals and the installed skills. Contains no private data."
    }

    async fn run(&self, ctx: &ToolContext, args: DeviceInfoArgs) -> Result<Value, ToolError> {
        let fields = args.fields.unwrap_or_else(|| ALL_FIELDS.to_vec());
        let skill_roots = crate::skills::roots(ctx);
        // sysinfo reads /proc, the registry or IOKit synchronously: keep it off the runtime.
        tokio::task::spawn_blocking(move || {
            let mut out = Map::new();
            for field in fields {
                let value = match field {
                    DeviceField::Version => Value::from(env!("CARGO_PKG_VERSION")),
                    DeviceField::Uptime => Value::from(sysinfo::System::uptime()),
                    DeviceField::Storage => collect::storage(),
                    DeviceField::Memory => collect::memory(),
                    DeviceField::Network => collect::network(),
                    DeviceField::Skills => collect::skills(&skill_roots)?,
                };
                out.insert(field.as_str().to_string(), value);
            }
            Ok(Value::Object(out))
        })
        .await
        .map_err(|e| ToolError::internal(format!("device information task failed: {e}")))?
    }
}
