//! `image_generate` against a stand-in speaking the OpenAI Images API (`b64_json`): the PNG
//! lands in the workspace with the size the aspect ratio asks for; the key from the keychain is
//! sent; failures of the provider, malformed arguments, paths outside the workspace and a
//! missing provider are clear errors.

use std::sync::Arc;

use axum::http::StatusCode;
use base64::Engine as _;
use hearth_protocol::Settings;
use serde_json::json;

use super::rig::{kind, png, Home, StandIn};

/// An Images API stand-in: `png` answers `data[0].b64_json` with a 96×64 PNG, `not-png` with
/// other bytes, `url` with a URL only, anything else a 401.
async fn images_api(answer: &'static str) -> StandIn {
    StandIn::start(Arc::new(move |path: &str| {
        if path != "/v1/images/generations" {
            return (StatusCode::NOT_FOUND, "text/plain", b"no such route".to_vec());
        }
        match answer {
            "png" => {
                let encoded = base64::engine::general_purpose::STANDARD.encode(png(96, 64));
                let body = json!({"created": 1, "data": [{"b64_json": encoded, "revised_prompt": "a fox, revised"}]});
                (StatusCode::OK, "application/json", body.to_string().into_bytes())
            }
            "not-png" => {
                let encoded = base64::engine::general_purpose::STANDARD.encode(b"GIF89a....");
                let body = json!({"data": [{"b64_json": encoded}]});
                (StatusCode::OK, "application/json", body.to_string().into_bytes())
            }
            "url" => {
                let body = json!({"data": [{"url": "https://example.com/x.png"}]});
                (StatusCode::OK, "application/json", body.to_string().into_bytes())
            }
            _ => (
                StatusCode::UNAUTHORIZED,
                "application/json",
                br#"{"error":{"message":"Incorrect API key provided"}}"#.to_vec(),
            ),
        }
    }))
    .await
}

fn settings(base: String) -> Settings {
    let mut settings = Settings::default();
    settings.media.image.base_url = base;
    settings
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_generated_png_lands_in_the_workspace() {
    let api = images_api("png").await;
    let home = Home::new(&settings(api.base()), &[("media:image", "sk-image")]);
    let result = home
        .call(
            "image_generate",
            json!({"prompt": "a fox in the snow", "aspect_ratio": "landscape"}),
        )
        .await
        .unwrap();
    let path = result["path"].as_str().unwrap();
    assert!(
        path.starts_with("generated/image-") && path.ends_with(".png"),
        "{result}"
    );
    let saved = std::fs::read(home.workspace().join(path)).unwrap();
    assert_eq!(saved, png(96, 64));
    assert_eq!(result["mime_type"], "image/png");
    assert_eq!(
        (result["width"].as_u64(), result["height"].as_u64()),
        (Some(96), Some(64))
    );
    assert_eq!(result["bytes"], saved.len());
    assert_eq!(result["revised_prompt"], "a fox, revised");
    let seen = api.seen().pop().unwrap();
    assert_eq!(seen.path, "/v1/images/generations");
    assert_eq!(seen.authorization.as_deref(), Some("Bearer sk-image"));
    assert_eq!(
        seen.body,
        json!({"model": "gpt-image-1", "prompt": "a fox in the snow", "n": 1, "size": "1536x1024", "output_format": "png"})
    );

    // A named path, portrait; DALL·E models are asked for base64 in their own sizes.
    let mut dall_e = settings(api.base());
    dall_e.media.image.model = "dall-e-3".into();
    let home = Home::new(&dall_e, &[]);
    let result = home
        .call(
            "image_generate",
            json!({"prompt": "a fox", "aspect_ratio": "portrait", "output_path": "art/fox.png"}),
        )
        .await
        .unwrap();
    assert_eq!(result["path"], "art/fox.png");
    assert!(home.workspace().join("art/fox.png").is_file());
    let seen = api.seen().pop().unwrap();
    assert_eq!(seen.authorization, None, "no key stored: none sent");
    assert_eq!(seen.body["size"], "1024x1792");
    assert_eq!(seen.body["response_format"], "b64_json");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn provider_failures_and_bad_arguments_are_clear_errors() {
    let refusing = images_api("unauthorized").await;
    let home = Home::new(&settings(refusing.base()), &[("media:image", "sk-wrong")]);
    let error = home
        .call("image_generate", json!({"prompt": "a fox"}))
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "not_permitted", "{error}");
    assert!(error.to_string().contains("Incorrect API key"), "{error}");
    for (answer, expected) in [("not-png", "not a PNG"), ("url", "b64_json")] {
        let api = images_api(answer).await;
        let home = Home::new(&settings(api.base()), &[]);
        let error = home
            .call("image_generate", json!({"prompt": "a fox"}))
            .await
            .unwrap_err();
        assert_eq!(kind(&error), "failed", "{error}");
        assert!(error.to_string().contains(expected), "{error}");
        assert!(
            !home.workspace().join("generated").exists(),
            "nothing saved"
        );
    }

    let api = images_api("png").await;
    let home = Home::new(&settings(api.base()), &[]);
    for (args, expected) in [
        (json!({}), "invalid_arguments"),
        (json!({"prompt": ""}), "invalid_arguments"),
        (json!({"prompt": "x".repeat(32_001)}), "invalid_arguments"),
        (
            json!({"prompt": "a", "aspect_ratio": "wide"}),
            "invalid_arguments",
        ),
        (
            json!({"prompt": "a", "size": "1024x1024"}),
            "invalid_arguments",
        ),
        (
            json!({"prompt": "a", "output_path": "fox.jpg"}),
            "invalid_arguments",
        ),
        (
            json!({"prompt": "a", "output_path": "../fox.png"}),
            "not_permitted",
        ),
        (
            json!({"prompt": "a", "output_path": "/tmp/fox.png"}),
            "not_permitted",
        ),
    ] {
        let error = home.call("image_generate", args.clone()).await.unwrap_err();
        assert_eq!(kind(&error), expected, "{args}: {error}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_image_provider_is_unavailable_with_the_setup_steps() {
    let home = Home::new(&Settings::default(), &[]);
    let error = home
        .call("image_generate", json!({"prompt": "a fox"}))
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "unavailable", "{error}");
    let message = error.to_string();
    assert!(
        message.contains("Settings → Media") && message.contains("media-image"),
        "{message}"
    );
}
