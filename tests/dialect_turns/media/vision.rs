//! `vision_analyze`: the image reaches the scripted model server as an image part in each
//! provider's format (checked in the journal), scaled down for a provider's limits; the chat's
//! model is used when it takes images, else the configured vision model; paths outside the
//! workspace, private URLs, oversized and malformed inputs and missing models are refused.

use std::sync::Arc;

use axum::http::StatusCode;
use base64::Engine as _;
use hearth_protocol::{ProviderEntry, ProviderKind, Settings};
use hearth_tests::{Reply, ScriptedServer};
use serde_json::{json, Value};

use super::rig::{kind, png, put, Home, StandIn};

fn provider(id: &str, kind: ProviderKind, base_url: String, model: &str) -> ProviderEntry {
    ProviderEntry {
        id: id.into(),
        name: id.into(),
        kind,
        base_url,
        default_model: Some(model.into()),
    }
}

/// Settings with one provider of each kind on `server`, the OpenAI one the default.
fn four_providers(server: &ScriptedServer) -> Settings {
    Settings {
        providers: vec![
            provider(
                "oa",
                ProviderKind::Openai,
                server.openai_base(),
                "scripted-small",
            ),
            provider(
                "an",
                ProviderKind::Anthropic,
                server.anthropic_base(),
                "scripted-small",
            ),
            provider(
                "ge",
                ProviderKind::Gemini,
                server.gemini_base(),
                "scripted-small",
            ),
            provider(
                "ol",
                ProviderKind::Ollama,
                server.ollama_base(),
                "scripted-small",
            ),
        ],
        default_provider: Some("oa".into()),
        ..Settings::default()
    }
}

const KEYS: [(&str, &str); 2] = [
    ("provider:an", "anthropic-test"),
    ("provider:ge", "gemini-test"),
];

/// The `(mime type, base64 data)` of the image part and the text of the prompt in a recorded
/// model request of `kind`.
fn image_part(kind: ProviderKind, body: &Value) -> (String, String, String) {
    let texts = |parts: &Value, key: &str| -> String {
        parts
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p[key].as_str())
            .collect::<Vec<_>>()
            .join("")
    };
    match kind {
        ProviderKind::Openai => {
            let content = &body["messages"].as_array().unwrap().last().unwrap()["content"];
            let part = content
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["type"] == "image_url")
                .unwrap_or_else(|| panic!("no image_url part: {body}"));
            let url = part["image_url"]["url"].as_str().unwrap();
            let (head, data) = url
                .strip_prefix("data:")
                .unwrap()
                .split_once(";base64,")
                .unwrap();
            (head.into(), data.into(), texts(content, "text"))
        }
        ProviderKind::Anthropic => {
            let content = &body["messages"][0]["content"];
            let part = content
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["type"] == "image")
                .unwrap_or_else(|| panic!("no image block: {body}"));
            assert_eq!(part["source"]["type"], "base64", "{body}");
            let source = &part["source"];
            (
                source["media_type"].as_str().unwrap().into(),
                source["data"].as_str().unwrap().into(),
                texts(content, "text"),
            )
        }
        ProviderKind::Gemini => {
            let parts = &body["contents"][0]["parts"];
            let part = parts
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p.get("inlineData").is_some())
                .unwrap_or_else(|| panic!("no inlineData part: {body}"));
            (
                part["inlineData"]["mimeType"].as_str().unwrap().into(),
                part["inlineData"]["data"].as_str().unwrap().into(),
                texts(parts, "text"),
            )
        }
        ProviderKind::Ollama => {
            let message = &body["messages"][0];
            let images = message["images"]
                .as_array()
                .unwrap_or_else(|| panic!("{body}"));
            assert_eq!(images.len(), 1, "{body}");
            (
                "(raw base64)".into(),
                images[0].as_str().unwrap().into(),
                message["content"].as_str().unwrap().into(),
            )
        }
        ProviderKind::Local => unreachable!("local models read no images and speak no HTTP"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_image_goes_to_the_model_as_an_image_part_in_each_provider_format() {
    let server = ScriptedServer::start().await;
    let home = Home::new(&four_providers(&server), &KEYS);
    let picture = png(64, 48);
    put(&home.workspace(), "shot.png", &picture);
    for (id, provider) in [
        ("oa", ProviderKind::Openai),
        ("an", ProviderKind::Anthropic),
        ("ge", ProviderKind::Gemini),
        ("ol", ProviderKind::Ollama),
    ] {
        server.push(Reply::text(&format!("A gradient, says {id}.")));
        let result = home
            .call(
                "vision_analyze",
                json!({"image": "shot.png", "prompt": "What is in it?", "model": format!("{id}:scripted-large")}),
            )
            .await
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(
            result["answer"],
            format!("A gradient, says {id}."),
            "{result}"
        );
        assert_eq!(result["model"], format!("{id}:scripted-large"));
        assert_eq!(result["image"]["resized"], false, "{result}");
        let request = server.model_requests().pop().unwrap();
        assert_eq!(
            request.body["model"].as_str().unwrap_or("scripted-large"),
            "scripted-large"
        );
        let (mime, data, text) = image_part(provider, &request.body);
        if provider != ProviderKind::Ollama {
            assert_eq!(mime, "image/png", "{id}");
        }
        assert_eq!(text, "What is in it?", "{id}: {}", request.body);
        let sent = base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap();
        assert_eq!(sent, picture, "{id}: the file's bytes, unchanged");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_larger_than_the_provider_takes_is_scaled_down() {
    let server = ScriptedServer::start().await;
    let home = Home::new(&four_providers(&server), &KEYS);
    put(&home.workspace(), "big.png", &png(3000, 2000));
    server.push(Reply::text("Big."));
    let result = home
        .call(
            "vision_analyze",
            json!({"image": "big.png", "prompt": "Describe", "model": "an:scripted-small"}),
        )
        .await
        .unwrap();
    assert_eq!(result["image"]["resized"], true, "{result}");
    assert_eq!(result["image"]["width"], 3000);
    assert_eq!(
        result["image"]["sent_width"], 1568,
        "Anthropic's long edge: {result}"
    );
    let request = server.model_requests().pop().unwrap();
    let (mime, data, _) = image_part(ProviderKind::Anthropic, &request.body);
    assert_eq!(mime, "image/jpeg");
    let sent = base64::engine::general_purpose::STANDARD
        .decode(data)
        .unwrap();
    let decoded = image::load_from_memory(&sent).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (1568, 1045));
    assert!(sent.len() <= 3_750_000);

    // More than the 20 MiB read cap is refused before any decoding or model call.
    let mut huge = png(8, 8);
    huge.resize(21 * 1024 * 1024, 0);
    put(&home.workspace(), "huge.png", &huge);
    let calls = server.model_requests().len();
    let error = home
        .call(
            "vision_analyze",
            json!({"image": "huge.png", "prompt": "x", "model": "oa:m"}),
        )
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "too_large", "{error}");
    assert_eq!(server.model_requests().len(), calls);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chat_model_is_used_when_it_takes_images_else_the_vision_model() {
    let server = ScriptedServer::start().await;
    let picture = png(10, 10);

    let mut settings = four_providers(&server);
    settings.providers[0].default_model = Some("gpt-4o-mini".into());
    let home = Home::new(&settings, &KEYS);
    put(&home.workspace(), "p.png", &picture);
    server.push(Reply::text("seen"));
    let result = home
        .call("vision_analyze", json!({"image": "p.png", "prompt": "?"}))
        .await
        .unwrap();
    assert_eq!(result["model"], "oa:gpt-4o-mini", "{result}");
    assert_eq!(
        server.model_requests().pop().unwrap().body["model"],
        "gpt-4o-mini"
    );

    // A chat model that takes no images: the configured vision model (an Ollama one) looks.
    let mut settings = four_providers(&server);
    settings.media.vision_model = "ol:llava:7b".into();
    let home = Home::new(&settings, &KEYS);
    put(&home.workspace(), "p.png", &picture);
    server.push(Reply::text("seen by llava"));
    let result = home
        .call("vision_analyze", json!({"image": "p.png", "prompt": "?"}))
        .await
        .unwrap();
    assert_eq!(result["model"], "ol:llava:7b", "{result}");
    assert_eq!(result["answer"], "seen by llava");
    let request = server.model_requests().pop().unwrap();
    assert_eq!(request.path, "/api/chat");
    assert_eq!(request.body["model"], "llava:7b");

    // Neither: unavailable with the setup steps, and no model call.
    let home = Home::new(&four_providers(&server), &KEYS);
    put(&home.workspace(), "p.png", &picture);
    let calls = server.model_requests().len();
    let error = home
        .call("vision_analyze", json!({"image": "p.png", "prompt": "?"}))
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "unavailable", "{error}");
    assert!(error.to_string().contains("Settings → Media"), "{error}");
    assert_eq!(server.model_requests().len(), calls);

    // No provider at all.
    let home = Home::new(&Settings::default(), &[]);
    put(&home.workspace(), "p.png", &picture);
    let error = home
        .call(
            "vision_analyze",
            json!({"image": "p.png", "prompt": "?", "model": "gpt-4o"}),
        )
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "unavailable", "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn urls_pass_the_ssrf_guard_and_paths_stay_in_the_workspace() {
    let server = ScriptedServer::start().await;
    let picture = png(20, 20);
    let served = picture.clone();
    let big = vec![0u8; 6 * 1024 * 1024];
    let images = StandIn::start(Arc::new(move |path: &str| match path {
        "/pic.png" => (StatusCode::OK, "image/png", served.clone()),
        "/big.png" => (StatusCode::OK, "image/png", big.clone()),
        _ => (StatusCode::NOT_FOUND, "text/plain", b"no".to_vec()),
    }))
    .await;
    let url = format!("http://127.0.0.1:{}/pic.png", images.port);

    // Not allowed: blocked before any connection.
    let home = Home::new(&four_providers(&server), &KEYS);
    let error = home
        .call(
            "vision_analyze",
            json!({"image": url, "prompt": "?", "model": "oa:m"}),
        )
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "blocked_address", "{error}");
    assert!(error.to_string().contains("allow_local_hosts"), "{error}");
    assert!(images.seen().is_empty());

    // Allowed: fetched and sent.
    let mut settings = four_providers(&server);
    settings.allow_local_hosts = vec![format!("127.0.0.1:{}", images.port)];
    let home = Home::new(&settings, &KEYS);
    server.push(Reply::text("from the web"));
    let result = home
        .call(
            "vision_analyze",
            json!({"image": url, "prompt": "?", "model": "oa:m"}),
        )
        .await
        .unwrap();
    assert_eq!(result["answer"], "from the web");
    let (_, data, _) = image_part(
        ProviderKind::Openai,
        &server.model_requests().pop().unwrap().body,
    );
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap(),
        picture
    );
    let big_url = format!("http://127.0.0.1:{}/big.png", images.port);
    let error = home
        .call(
            "vision_analyze",
            json!({"image": big_url, "prompt": "?", "model": "oa:m"}),
        )
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "too_large", "{error}");
    let missing = format!("http://127.0.0.1:{}/gone.png", images.port);
    let error = home
        .call(
            "vision_analyze",
            json!({"image": missing, "prompt": "?", "model": "oa:m"}),
        )
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "failed", "{error}");

    // Outside the workspace.
    let outside = home.dir.path().join("outside.png");
    std::fs::write(&outside, &picture).unwrap();
    for path in ["../outside.png", outside.to_str().unwrap(), "/etc/hostname"] {
        let error = home
            .call(
                "vision_analyze",
                json!({"image": path, "prompt": "?", "model": "oa:m"}),
            )
            .await
            .unwrap_err();
        assert_eq!(kind(&error), "not_permitted", "{path}: {error}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_arguments_and_files_that_are_not_images_are_refused() {
    let server = ScriptedServer::start().await;
    let home = Home::new(&four_providers(&server), &KEYS);
    put(&home.workspace(), "notes.txt", b"just text, not an image");
    put(
        &home.workspace(),
        "broken.png",
        b"\x89PNG\r\n\x1a\n but then nothing",
    );
    let cases = [
        json!({"prompt": "?"}),
        json!({"image": "a.png"}),
        json!({"image": 5, "prompt": "?"}),
        json!({"image": "", "prompt": "?"}),
        json!({"image": "a.png", "prompt": "?", "detail": "high"}),
        json!({"image": "notes.txt", "prompt": "?", "model": "oa:m"}),
        json!({"image": "broken.png", "prompt": "?", "model": "oa:m"}),
    ];
    for args in cases {
        let error = home.call("vision_analyze", args.clone()).await.unwrap_err();
        assert_eq!(kind(&error), "invalid_arguments", "{args}: {error}");
    }
    let error = home
        .call(
            "vision_analyze",
            json!({"image": "missing.png", "prompt": "?", "model": "oa:m"}),
        )
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "not_found", "{error}");
    assert!(server.model_requests().is_empty());
}
