//! The tools a CeeCore skill declares in `tools.json`, offered during a run of that skill: a
//! script tool runs its script like `skill_run` (the arguments as JSON on its stdin and in
//! `HEARTH_TOOL_ARGS`; policy facts of `skill_run`, permitted by the skill's own
//! declaration), an endpoint tool sends the arguments as a JSON body through the network
//! guard (policy facts of `http_request`: it needs the `http` permission).

use async_trait::async_trait;
use std::sync::Arc;
use std::time::Duration;

use hearth_policy::catalogue::{HTTP_REQUEST, SKILL_RUN};
use hearth_policy::ToolFacts;
use hearth_protocol::Confirmation;
use hearth_skills::{DeclaredTool, Skill, ToolRunner};
use reqwest::header::{HeaderMap, HeaderValue, CONTENT_TYPE};
use reqwest::Method;
use serde_json::{json, Value};

use crate::error::{ErrorKind, ToolError};
use crate::exec::{run_script, Script};
use crate::net::{GuardedClient, Outgoing, SystemResolver};
use crate::registry::{Registry, RegistryError};
use crate::tool::{bind, BoundCall, CallFacts, DynTool};

/// How long a declared tool may run or wait for its endpoint.
const TOOL_TIMEOUT: Duration = Duration::from_secs(60);

struct SkillTool {
    skill: Arc<Skill>,
    tool: DeclaredTool,
    client: Arc<GuardedClient>,
}

/// Registers the tools `skill`'s `tools.json` declares; endpoints are reached through the
/// guard with the user's `allow_local` hosts. A name another tool has is left out (error).
pub fn register_declared_tools(
    registry: &mut Registry,
    skill: &Skill,
    allow_local: &[String],
) -> Result<(), RegistryError> {
    if skill.tools.is_empty() {
        return Ok(());
    }
    let client = match GuardedClient::new(allow_local, Arc::new(SystemResolver)) {
        Ok(client) => Arc::new(client),
        Err(error) => {
            tracing::error!(%error, skill = %skill.name, "no HTTP client for the skill's tools");
            return Ok(());
        }
    };
    let shared = Arc::new(skill.clone());
    for tool in &skill.tools {
        registry.register_dyn(Arc::new(SkillTool {
            skill: Arc::clone(&shared),
            tool: tool.clone(),
            client: Arc::clone(&client),
        }))?;
    }
    Ok(())
}

#[async_trait]
impl DynTool for SkillTool {
    fn name(&self) -> &str {
        &self.tool.name
    }

    fn description(&self) -> &str {
        &self.tool.description
    }

    fn facts(&self) -> ToolFacts {
        match self.tool.runner {
            ToolRunner::Script(_) => SKILL_RUN.facts(),
            ToolRunner::Endpoint { .. } => HTTP_REQUEST.facts(),
        }
    }

    fn parameters(&self) -> Value {
        self.tool.parameters.clone()
    }

    async fn prepare(self: Arc<Self>, args: Value) -> Result<(CallFacts, BoundCall), ToolError> {
        if !args.is_object() {
            return Err(ToolError::new(
                ErrorKind::InvalidArguments,
                "the arguments must be a JSON object",
            ));
        }
        let facts = CallFacts {
            high_risk: true,
            mutates: true,
            always_ask: false,
            confirmation: Some(Confirmation::SkillTool {
                skill: self.skill.name.clone(),
                tool: self.tool.name.clone(),
            }),
        };
        Ok((
            facts,
            bind(move |ctx| Box::pin(async move { self.call(ctx, args).await })),
        ))
    }
}

impl SkillTool {
    async fn call(&self, ctx: &crate::ToolContext, args: Value) -> Result<Value, ToolError> {
        let body = args.to_string();
        match &self.tool.runner {
            ToolRunner::Script(path) => {
                let script = Script {
                    dir: &self.skill.dir,
                    path,
                    args: Vec::new(),
                    limit: TOOL_TIMEOUT,
                    tool_args: Some(body),
                };
                let mut result = run_script(ctx, script).await?;
                result.insert("skill".into(), json!(self.skill.name));
                result.insert("tool".into(), json!(self.tool.name));
                Ok(Value::Object(result))
            }
            ToolRunner::Endpoint { url, method } => {
                let method = Method::from_bytes(method.as_bytes()).map_err(|_| {
                    ToolError::new(
                        ErrorKind::Unavailable,
                        format!("tools.json: `{method}` is not an HTTP method"),
                    )
                })?;
                let mut headers = HeaderMap::new();
                headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                let fetched = self
                    .client
                    .send(Outgoing {
                        method,
                        url: url.clone(),
                        url_field: "endpoint",
                        headers,
                        body: Some(body.into_bytes()),
                        timeout: TOOL_TIMEOUT,
                    })
                    .await?;
                let text = String::from_utf8_lossy(&fetched.body).into_owned();
                let answer = serde_json::from_str::<Value>(&text).unwrap_or(Value::String(text));
                Ok(json!({
                    "tool": self.tool.name,
                    "status": fetched.status.as_u16(),
                    "body": answer,
                    "truncated": fetched.truncated,
                }))
            }
        }
    }
}
