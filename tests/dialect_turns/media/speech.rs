//! `text_to_speech`: `local` runs the real `espeak-ng` (a WAV whose header and duration fit
//! the text), `openai` asks a stand-in `/audio/speech`, `edge` says why it is unavailable;
//! `deliver` to this chat (other channels: `channels/speech.rs`); malformed arguments, paths
//! outside the workspace and missing configuration are clear errors.

use std::sync::Arc;

use axum::http::StatusCode;
use hearth_protocol::{Settings, SpeechBackend};
use hearth_tools::media::{wav_info, DesktopDelivery, NoVisionModels, SpeechConfig};
use hearth_tools::{register_media, Dialect, MediaConfig, Registry};
use serde_json::json;

use super::rig::{kind, Home, StandIn};

/// Fake MP3 bytes the stand-in answers with.
const MP3: &[u8] = b"ID3\x04\x00\x00\x00\x00\x00\x00 not really an mp3 but audio bytes";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_speech_is_a_real_wav_as_long_as_the_text() {
    let home = Home::new(&Settings::default(), &[]);
    let short = "Hello.";
    let long = "Hearth speaks this sentence out loud with espeak, which runs on this computer \
                and needs no network at all, so it works offline.";
    let mut durations = Vec::new();
    for text in [short, long] {
        let result = home
            .call("text_to_speech", json!({"text": text}))
            .await
            .unwrap();
        assert_eq!(result["backend"], "local");
        assert_eq!(result["voice"], "en");
        assert_eq!(result["mime_type"], "audio/wav");
        let path = result["path"].as_str().unwrap();
        assert!(
            path.starts_with("generated/speech-") && path.ends_with(".wav"),
            "{result}"
        );
        let audio = std::fs::read(home.workspace().join(path)).unwrap();
        assert_eq!(&audio[0..4], b"RIFF");
        assert_eq!(&audio[8..12], b"WAVE");
        let riff = u32::from_le_bytes(audio[4..8].try_into().unwrap()) as usize;
        assert_eq!(
            riff,
            audio.len() - 8,
            "the streamed header got its real size"
        );
        let info = wav_info(&audio).unwrap();
        assert_eq!((info.channels, info.bits_per_sample), (1, 16));
        assert_eq!(info.sample_rate, 22_050);
        assert_eq!(info.data_bytes as usize, audio.len() - 44);
        let reported = result["duration_secs"].as_f64().unwrap();
        assert!((reported - info.duration_secs).abs() < 0.01, "{result}");
        durations.push(info.duration_secs);
    }
    // About 2.5 words a second at espeak-ng's default 175 words a minute.
    let words = long.split_whitespace().count() as f64;
    assert!(
        (0.3..2.0).contains(&durations[0]),
        "`Hello.` took {} s",
        durations[0]
    );
    let rate = words / durations[1];
    assert!(
        (1.5..5.0).contains(&rate),
        "{words} words in {} s",
        durations[1]
    );

    // Chinese text picks the Mandarin voice; a named path is used.
    let result = home
        .call(
            "text_to_speech",
            json!({"text": "你好，欢迎使用。", "output_path": "voice/hi.wav"}),
        )
        .await
        .unwrap();
    assert_eq!(result["voice"], "cmn");
    assert_eq!(result["path"], "voice/hi.wav");
    let info = wav_info(&std::fs::read(home.workspace().join("voice/hi.wav")).unwrap()).unwrap();
    assert!(info.duration_secs > 0.5, "{info:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_speech_asks_the_configured_endpoint() {
    let api = StandIn::start(Arc::new(|path: &str| match path {
        "/v1/audio/speech" => (StatusCode::OK, "audio/mpeg", MP3.to_vec()),
        _ => (StatusCode::NOT_FOUND, "text/plain", b"no".to_vec()),
    }))
    .await;
    let mut settings = Settings::default();
    settings.media.speech.base_url = api.base();
    settings.media.speech.voice = "coral".into();
    let home = Home::new(&settings, &[("media:speech", "sk-speech")]);
    let result = home
        .call(
            "text_to_speech",
            json!({"text": "Good morning.", "backend": "openai"}),
        )
        .await
        .unwrap();
    assert_eq!(result["backend"], "openai");
    assert_eq!(result["mime_type"], "audio/mpeg");
    let path = result["path"].as_str().unwrap();
    assert!(path.ends_with(".mp3"), "{result}");
    assert_eq!(std::fs::read(home.workspace().join(path)).unwrap(), MP3);
    let seen = api.seen().pop().unwrap();
    assert_eq!(seen.path, "/v1/audio/speech");
    assert_eq!(seen.authorization.as_deref(), Some("Bearer sk-speech"));
    assert_eq!(
        seen.body,
        json!({"model": "gpt-4o-mini-tts", "input": "Good morning.", "voice": "coral", "response_format": "mp3"})
    );
    // The extension picks the format.
    home.call(
        "text_to_speech",
        json!({"text": "Hi", "backend": "openai", "voice": "alloy", "output_path": "hi.flac"}),
    )
    .await
    .unwrap();
    let seen = api.seen().pop().unwrap();
    assert_eq!(
        (
            seen.body["response_format"].as_str(),
            seen.body["voice"].as_str()
        ),
        (Some("flac"), Some("alloy"))
    );

    // The backend set in the settings is the default.
    settings.media.speech.backend = SpeechBackend::Openai;
    let home = Home::new(&settings, &[]);
    let result = home
        .call("text_to_speech", json!({"text": "Hi"}))
        .await
        .unwrap();
    assert_eq!(result["backend"], "openai");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delivery_reaches_this_chat_and_an_unknown_channel_is_named() {
    let home = Home::new(&Settings::default(), &[]);
    let result = home
        .call(
            "text_to_speech",
            json!({"text": "Delivered.", "deliver": true}),
        )
        .await
        .unwrap();
    assert_eq!(result["delivery"]["delivered"], true, "{result}");
    assert_eq!(result["delivery"]["channel"], "desktop");
    assert_eq!(result["delivery"]["path"], result["path"]);
    let error = home
        .call(
            "text_to_speech",
            json!({"text": "Elsewhere.", "deliver": true, "deliver_channel": "telegram", "deliver_chat_id": "42"}),
        )
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "invalid_arguments", "{error}");
    assert!(
        error
            .to_string()
            .contains("no channel `telegram` is configured (configured: desktop)"),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("the file is saved at generated/speech-"),
        "says where the file is: {error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_configuration_and_bad_arguments_are_clear_errors() {
    let home = Home::new(&Settings::default(), &[]);
    let error = home
        .call("text_to_speech", json!({"text": "Hi", "backend": "openai"}))
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "unavailable", "{error}");
    assert!(error.to_string().contains("media-speech"), "{error}");
    let error = home
        .call("text_to_speech", json!({"text": "Hi", "backend": "edge"}))
        .await
        .unwrap_err();
    assert_eq!(kind(&error), "unavailable", "{error}");
    assert!(
        error.to_string().contains("local"),
        "names what to use instead: {error}"
    );

    for (args, expected) in [
        (json!({}), "invalid_arguments"),
        (json!({"text": ""}), "invalid_arguments"),
        (json!({"text": "   "}), "invalid_arguments"),
        (json!({"text": "a".repeat(4097)}), "invalid_arguments"),
        (
            json!({"text": "Hi", "backend": "azure"}),
            "invalid_arguments",
        ),
        (
            json!({"text": "Hi", "voice": "--help"}),
            "invalid_arguments",
        ),
        (
            json!({"text": "Hi", "voice": "en; rm -rf"}),
            "invalid_arguments",
        ),
        (
            json!({"text": "Hi", "voice": "klingon-xx"}),
            "invalid_arguments",
        ),
        (
            json!({"text": "Hi", "output_path": "hi.mp3"}),
            "invalid_arguments",
        ),
        (
            json!({"text": "Hi", "backend": "openai", "output_path": "hi.ogg"}),
            "invalid_arguments",
        ),
        (
            json!({"text": "Hi", "output_path": "../hi.wav"}),
            "not_permitted",
        ),
        (
            json!({"text": "Hi", "output_path": "/tmp/hi.wav"}),
            "not_permitted",
        ),
    ] {
        let error = home.call("text_to_speech", args.clone()).await.unwrap_err();
        assert_eq!(kind(&error), expected, "{args}: {error}");
    }

    // espeak-ng missing: unavailable with the install step.
    let mut registry = Registry::new(Dialect::Hearth);
    let config = MediaConfig {
        speech: SpeechConfig {
            espeak: "/nonexistent/espeak-ng".into(),
            ..SpeechConfig::default()
        },
        ..MediaConfig::default()
    };
    register_media(
        &mut registry,
        config,
        Arc::new(NoVisionModels),
        Arc::new(DesktopDelivery),
    )
    .unwrap();
    let error = registry
        .dispatch("text_to_speech", r#"{"text":"Hi"}"#, &home.context())
        .await
        .unwrap_err();
    assert_eq!(error.kind.as_str(), "unavailable", "{error:?}");
    assert!(
        error.message.contains("apt-get install espeak-ng"),
        "{error:?}"
    );
}
