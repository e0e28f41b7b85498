//! HTTP routes: records each request, picks the next reply and renders it in the wire format
//! the path asks for.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::Value;

use super::journal::RecordedRequest;
use super::reply::Reply;
use super::turn::Turn;
use super::wire::{self, Frame, Framing, Pacing};
use super::{anthropic, gemini, ollama, openai, Shared, NO_REPLY_QUEUED, NO_TITLE_QUEUED};

/// Largest request body accepted.
const MAX_BODY_BYTES: usize = 64 << 20;

type AppState = State<Arc<Shared>>;

/// A request the server refuses: the status and message answered instead.
type Rejection = (StatusCode, String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Openai,
    Anthropic,
    Ollama,
    Gemini,
}

pub(super) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route(
            "/v1/chat/completions",
            post(|State(s): AppState, req| model_call(s, Format::Openai, req)),
        )
        .route(
            "/v1/messages",
            post(|State(s): AppState, req| model_call(s, Format::Anthropic, req)),
        )
        .route(
            "/api/chat",
            post(|State(s): AppState, req| model_call(s, Format::Ollama, req)),
        )
        .route(
            "/v1beta/models/{target}",
            post(|State(s): AppState, req| model_call(s, Format::Gemini, req)),
        )
        .route("/v1/models", get(v1_models))
        .route("/props", get(props))
        .route(
            "/api/tags",
            get(|State(s): AppState, req| listing(s, req, ollama::tags())),
        )
        .route(
            "/api/show",
            post(|State(s): AppState, req| listing(s, req, ollama::show())),
        )
        .route(
            "/v1beta/models",
            get(|State(s): AppState, req| listing(s, req, gemini::models())),
        )
        .fallback(not_found)
        .with_state(shared)
}

fn plain(status: StatusCode, message: String) -> Response {
    (status, message).into_response()
}

/// Journals the request; the error is what to answer instead.
async fn record(shared: &Shared, req: Request) -> Result<RecordedRequest, Rejection> {
    let (parts, body) = req.into_parts();
    let bytes = to_bytes(body, MAX_BODY_BYTES).await.map_err(|e| {
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("scripted server: cannot read body: {e}"),
        )
    })?;
    let recorded = RecordedRequest::new(
        parts.method.as_str(),
        parts.uri.path(),
        parts.uri.query(),
        &parts.headers,
        &bytes,
    );
    shared.journal.record(recorded.clone()).map_err(|e| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("scripted server: journal write failed: {e}"),
        )
    })?;
    Ok(recorded)
}

async fn listing(shared: Arc<Shared>, req: Request, body: Value) -> Response {
    match record(&shared, req).await {
        Ok(_) => Json(body).into_response(),
        Err(rejection) => rejection.into_response(),
    }
}

/// OpenAI and Anthropic share `GET /v1/models`; Anthropic clients send `anthropic-version`.
async fn v1_models(State(shared): AppState, req: Request) -> Response {
    let body = if req.headers().contains_key("anthropic-version") {
        anthropic::models()
    } else {
        openai::models()
    };
    listing(shared, req, body).await
}

/// llama.cpp's `GET /props`, unless the server was started without it.
async fn props(State(shared): AppState, req: Request) -> Response {
    if shared.without_props {
        return not_found(State(shared), req).await;
    }
    listing(shared, req, openai::props()).await
}

async fn not_found(State(shared): AppState, req: Request) -> Response {
    let line = format!(
        "scripted server: no route for {} {}",
        req.method(),
        req.uri().path()
    );
    match record(&shared, req).await {
        Ok(_) => plain(StatusCode::NOT_FOUND, line),
        Err(rejection) => rejection.into_response(),
    }
}

/// Which model is asked for and whether the answer streams; a rejection when the
/// request is not one the real provider would accept.
fn target(format: Format, request: &RecordedRequest) -> Result<(String, bool), Rejection> {
    let bad = |message: &str| {
        (
            StatusCode::BAD_REQUEST,
            format!("scripted server: {message}"),
        )
    };
    let body = &request.body;
    if !body.is_object() {
        return Err(bad("request body is not a JSON object"));
    }
    if format == Format::Gemini {
        gemini::check_signatures(body).map_err(|error| (StatusCode::BAD_REQUEST, error))?;
        let name = request.path.rsplit('/').next().unwrap_or_default();
        let (model, action) = name
            .split_once(':')
            .ok_or_else(|| bad("expected models/{model}:{action}"))?;
        return match action {
            "generateContent" => Ok((model.to_string(), false)),
            "streamGenerateContent"
                if request
                    .query
                    .as_deref()
                    .is_some_and(|q| q.split('&').any(|p| p == "alt=sse")) =>
            {
                Ok((model.to_string(), true))
            }
            "streamGenerateContent" => {
                Err(bad("streamGenerateContent is only served with alt=sse"))
            }
            _ => Err((
                StatusCode::NOT_FOUND,
                format!("scripted server: unknown Gemini action {action}"),
            )),
        };
    }
    let model = body["model"]
        .as_str()
        .ok_or_else(|| bad("request has no \"model\" string"))?;
    let streaming = match format {
        // Ollama streams unless told not to; the others only when asked.
        Format::Ollama => body["stream"] != Value::Bool(false),
        _ => body["stream"] == Value::Bool(true),
    };
    Ok((model.to_string(), streaming))
}

fn error_reply(reply: &Reply, code: u16) -> Response {
    let Ok(status) = StatusCode::from_u16(code) else {
        return plain(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("scripted server: invalid scripted status {code}"),
        );
    };
    let content_type = if serde_json::from_str::<Value>(&reply.body).is_ok() {
        "application/json"
    } else {
        "text/plain"
    };
    let mut response = (status, Body::from(reply.body.clone())).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

fn render(
    shared: &Shared,
    format: Format,
    reply: &Reply,
    request: &Value,
    model: &str,
    streaming: bool,
) -> Response {
    let seq = shared.responses.fetch_add(1, Ordering::SeqCst) + 1;
    let first_call = shared
        .calls
        .fetch_add(reply.tool_calls.len(), Ordering::SeqCst)
        + 1;
    let turn = Turn::new(reply, model, seq, first_call);
    let pacing = Pacing {
        delay: Duration::from_millis(reply.delay_ms),
        at_once: reply.at_once,
        disconnect_after: reply.disconnect_after,
        malformed_after: reply.malformed_after,
    };
    let (frames, framing) = match (format, streaming) {
        (Format::Openai, true) => (openai::stream(&turn, request), Framing::Sse),
        (Format::Anthropic, true) => (anthropic::stream(&turn), Framing::Sse),
        (Format::Ollama, true) => (ollama::stream(&turn), Framing::Ndjson),
        (Format::Gemini, true) => (gemini::stream(&turn), Framing::SseCrlf),
        (Format::Openai, false) => (vec![Frame::data(openai::whole(&turn))], Framing::Whole),
        (Format::Anthropic, false) => (vec![Frame::data(anthropic::whole(&turn))], Framing::Whole),
        (Format::Ollama, false) => (vec![Frame::data(ollama::whole(&turn))], Framing::Whole),
        (Format::Gemini, false) => (vec![Frame::data(gemini::whole(&turn))], Framing::Whole),
    };
    wire::respond(frames, framing, pacing, shared.streams.clone())
}

async fn model_call(shared: Arc<Shared>, format: Format, req: Request) -> Response {
    let request = match record(&shared, req).await {
        Ok(request) => request,
        Err(rejection) => return rejection.into_response(),
    };
    let (model, streaming) = match target(format, &request) {
        Ok(target) => target,
        Err(rejection) => return rejection.into_response(),
    };
    if format == Format::Openai
        && shared.reject_stream_options
        && request.body.get("stream_options").is_some()
    {
        return (
            StatusCode::BAD_REQUEST,
            Json(openai::unknown_stream_options()),
        )
            .into_response();
    }
    let reply = if request.is_title_request() {
        let Some(title) = shared.next_title() else {
            return plain(StatusCode::BAD_REQUEST, NO_TITLE_QUEUED.to_string());
        };
        title
    } else {
        let first_user = first_user_message(format, &request.body);
        let Some(reply) = shared.next_reply(&first_user) else {
            return plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                NO_REPLY_QUEUED.to_string(),
            );
        };
        reply
    };
    if reply.wait_ms > 0 {
        tokio::time::sleep(Duration::from_millis(reply.wait_ms)).await;
    }
    let mut response = match reply.status {
        Some(code) => error_reply(&reply, code),
        None => render(&shared, format, &reply, &request.body, &model, streaming),
    };
    if let Some(secs) = reply.retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

/// The first user message of a model request, as JSON text (empty when there is none): what
/// per-conversation scripts look their marker up in.
fn first_user_message(format: Format, body: &Value) -> String {
    let list = match format {
        Format::Gemini => &body["contents"],
        _ => &body["messages"],
    };
    list.as_array()
        .and_then(|messages| messages.iter().find(|m| m["role"] == "user"))
        .map(Value::to_string)
        .unwrap_or_default()
}
