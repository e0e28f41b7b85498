//! `http_request` (CeeCore shape): one guarded HTTP request returning
//! `{status, headers, body}`; and the PicoBot variant (no HEAD, string bodies only).

use super::body::{body_fields, headers_json};
use super::client::Outgoing;
use super::Network;
use crate::dialect::DialectArgs;
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};
use reqwest::Method;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// Default and largest `timeout`, in seconds.
pub(crate) const DEFAULT_TIMEOUT_SECS: u64 = 30;
pub(crate) const MAX_TIMEOUT_SECS: u64 = 60;

pub(crate) struct HttpRequest(pub(crate) Arc<Network>);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub(crate) enum HttpMethod {
    #[default]
    Get,
    Post,
    Put,
    Delete,
    Patch,
    Head,
}

impl From<HttpMethod> for Method {
    fn from(method: HttpMethod) -> Method {
        match method {
            HttpMethod::Get => Method::GET,
            HttpMethod::Post => Method::POST,
            HttpMethod::Put => Method::PUT,
            HttpMethod::Delete => Method::DELETE,
            HttpMethod::Patch => Method::PATCH,
            HttpMethod::Head => Method::HEAD,
        }
    }
}

/// A request body: text as is, or JSON.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum RequestBody {
    Text(String),
    Object(Map<String, Value>),
    Array(Vec<Value>),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HttpRequestArgs {
    /// The URL (http or https). Local and private addresses are refused unless the user
    /// allowed them in settings.
    #[schemars(length(min = 1, max = 8192))]
    url: String,
    /// The HTTP method (default GET).
    method: Option<HttpMethod>,
    /// Request headers, name → value.
    headers: Option<BTreeMap<String, String>>,
    /// The request body: a string is sent as is; an object or array is sent as JSON (with
    /// `content-type: application/json` unless a content-type header is given).
    #[serde(default)]
    #[schemars(schema_with = "body_schema")]
    body: Option<RequestBody>,
    /// Seconds to wait for the whole response (default 30, at most 60).
    #[schemars(range(min = 1, max = 60))]
    timeout: Option<u64>,
}

/// The schema of `body`: one flat type list rather than nested `anyOf`s.
fn body_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut schema = schemars::Schema::default();
    schema.insert("type".into(), json!(["string", "object", "array", "null"]));
    schema
}

#[async_trait]
impl Tool for HttpRequest {
    type Args = HttpRequestArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::HTTP_REQUEST
    }

    fn description(&self) -> &str {
        "Sends one HTTP request and returns {status, headers, body}: JSON bodies parsed, other \
         text as a string, binary as base64 (bodies over 5 MB are cut). Redirects (3xx) are \
         returned as they are with their Location header, never followed. Local and private \
         network addresses are refused unless the user allowed them."
    }

    async fn run(&self, _ctx: &ToolContext, args: HttpRequestArgs) -> Result<Value, ToolError> {
        let method = args.method.unwrap_or_default();
        let mut headers = header_map(args.headers.unwrap_or_default())?;
        let body = match args.body {
            None => None,
            Some(RequestBody::Text(text)) => Some(text.into_bytes()),
            Some(RequestBody::Object(object)) => {
                Some(json_body(&mut headers, Value::Object(object)))
            }
            Some(RequestBody::Array(items)) => Some(json_body(&mut headers, Value::Array(items))),
        };
        let timeout = args.timeout.unwrap_or(DEFAULT_TIMEOUT_SECS);
        let fetched = self
            .0
            .client
            .send(Outgoing {
                method: method.into(),
                url: args.url,
                url_field: "url",
                headers,
                body,
                timeout: Duration::from_secs(timeout.min(MAX_TIMEOUT_SECS)),
            })
            .await?;
        let mut result = Map::new();
        result.insert("status".into(), fetched.status.as_u16().into());
        result.insert("headers".into(), headers_json(&fetched));
        let mut notes = Vec::new();
        if method == HttpMethod::Head {
            result.insert("body".into(), Value::String(String::new()));
        } else {
            notes = body_fields(&fetched, &mut result);
        }
        if fetched.status.is_redirection() {
            notes.insert(
                0,
                "redirects are not followed: the location header says where this one points; \
                 request that URL yourself if you want it"
                    .to_string(),
            );
        }
        if !notes.is_empty() {
            result.insert("note".into(), Value::String(notes.join("; ")));
        }
        Ok(Value::Object(result))
    }
}

/// Header arguments as a header map; a bad name or value names the header.
fn header_map(headers: BTreeMap<String, String>) -> Result<HeaderMap, ToolError> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        let field = format!("headers.{name}");
        let header = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| ToolError::invalid(&field, format!("`{name}` is not a header name")))?;
        let value = HeaderValue::from_str(&value).map_err(|_| {
            ToolError::invalid(&field, "the value has characters a header cannot carry")
        })?;
        map.append(header, value);
    }
    Ok(map)
}

fn json_body(headers: &mut HeaderMap, value: Value) -> Vec<u8> {
    if !headers.contains_key(CONTENT_TYPE) {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    }
    value.to_string().into_bytes()
}

/// PicoBot's methods: no HEAD.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub(crate) enum PicobotMethod {
    Get,
    Post,
    Put,
    Delete,
    Patch,
}

/// PicoBot's `http_request`: GET/POST/PUT/DELETE/PATCH, headers and a string body.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PicobotHttpArgs {
    /// The URL (http or https). Local and private addresses are refused unless the user
    /// allowed them in settings.
    #[schemars(length(min = 1, max = 8192))]
    url: String,
    /// The HTTP method (default GET).
    method: Option<PicobotMethod>,
    /// Request headers, name → value.
    headers: Option<BTreeMap<String, String>>,
    /// The request body, sent as is.
    body: Option<String>,
}

impl DialectArgs for PicobotHttpArgs {
    type Canonical = HttpRequestArgs;

    fn into_canonical(self) -> Result<HttpRequestArgs, ToolError> {
        let method = self.method.map(|method| match method {
            PicobotMethod::Get => HttpMethod::Get,
            PicobotMethod::Post => HttpMethod::Post,
            PicobotMethod::Put => HttpMethod::Put,
            PicobotMethod::Delete => HttpMethod::Delete,
            PicobotMethod::Patch => HttpMethod::Patch,
        });
        Ok(HttpRequestArgs {
            url: self.url,
            method,
            headers: self.headers,
            body: self.body.map(RequestBody::Text),
            timeout: None,
        })
    }
}

/// The description PicoBot skills see.
pub(crate) const PICOBOT_DESCRIPTION: &str =
    "Sends an HTTP request (GET, POST, PUT, DELETE or PATCH) with optional headers and a string \
     body; returns {status, headers, body} with JSON bodies parsed. Redirects are not followed; \
     loopback, private, link-local and local-name targets are refused.";
