//! `text_to_speech`'s `deliver` through the channel layer with real espeak-ng audio and a local
//! webhook receiver: the chat the call ran in shows the file (nothing sent), a named channel
//! receives the WAV bytes, a channel's own chat gets it back there, and a channel without files,
//! an unknown channel and a failing one are clear errors — never "delivered".

use base64::Engine as _;
use hearth_protocol::{ChannelKind, ChannelSettings};
use hearth_tests::webhook_receiver::{Answer, WebhookReceiver};
use serde_json::json;

use super::Rig;

fn hook(name: &str, url: &str, files: bool) -> ChannelSettings {
    ChannelSettings {
        url: Some(url.to_string()),
        files,
        timeout_secs: 2,
        ..ChannelSettings::new(name, ChannelKind::Webhook)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spoken_audio_goes_to_the_channel_asked_for_and_a_failure_says_why() {
    let receiver = WebhookReceiver::start().await;
    let rig = Rig::new(
        vec![
            hook("alerts", &receiver.url(), true),
            hook("quiet", &receiver.url(), false),
        ],
        vec![receiver.allow_entry()],
        None,
    );

    let here = rig
        .call(
            "desktop:me",
            "text_to_speech",
            json!({"text": "Hello there.", "deliver": true}),
        )
        .await
        .unwrap();
    assert_eq!(here["delivery"]["channel"], "desktop", "{here}");
    assert!(receiver.received().is_empty(), "this chat shows it already");

    let sent = rig
        .call(
            "desktop:me",
            "text_to_speech",
            json!({"text": "Hello there.", "deliver_channel": "alerts", "deliver_chat_id": "ops", "caption": "the greeting"}),
        )
        .await
        .unwrap();
    assert_eq!(sent["delivery"]["status"], "delivered", "{sent}");
    assert_eq!(sent["delivery"]["target"], "alerts:ops");
    let (_, body) = receiver.received().remove(0);
    assert_eq!(body["text"], "the greeting");
    assert_eq!(body["origin"], "desktop:me");
    let file = &body["files"][0];
    assert_eq!(file["mime_type"], "audio/wav");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(file["data_base64"].as_str().unwrap())
        .unwrap();
    let saved = std::fs::read(rig.workspace().join(sent["path"].as_str().unwrap())).unwrap();
    assert_eq!(bytes, saved);
    assert_eq!(&bytes[0..4], b"RIFF");

    // From the channel's own chat, `deliver` sends it back there.
    let back = rig
        .call(
            "alerts:ops",
            "text_to_speech",
            json!({"text": "Again.", "deliver": true}),
        )
        .await
        .unwrap();
    assert_eq!(back["delivery"]["target"], "alerts:ops", "{back}");
    assert_eq!(receiver.received().len(), 2);

    let refused = rig
        .call(
            "desktop:me",
            "text_to_speech",
            json!({"text": "Hi", "deliver_channel": "quiet", "deliver_chat_id": "x"}),
        )
        .await
        .unwrap_err();
    assert_eq!(refused.kind.as_str(), "unavailable", "{refused:?}");
    assert!(
        refused.message.contains("does not take files"),
        "{refused:?}"
    );
    let unknown = rig
        .call(
            "desktop:me",
            "text_to_speech",
            json!({"text": "Hi", "deliver_channel": "pager", "deliver_chat_id": "x"}),
        )
        .await
        .unwrap_err();
    assert_eq!(unknown.kind.as_str(), "invalid_arguments", "{unknown:?}");
    assert!(
        unknown
            .message
            .contains("no channel `pager` is configured (configured: desktop, alerts, quiet)"),
        "{unknown:?}"
    );
    let no_chat = rig
        .call(
            "desktop:me",
            "text_to_speech",
            json!({"text": "Hi", "deliver_channel": "alerts"}),
        )
        .await
        .unwrap_err();
    assert!(
        no_chat.message.contains("name the chat in `alerts`"),
        "{no_chat:?}"
    );

    receiver.answer(Answer::Status(503, "receiver down".into()));
    let failed = rig
        .call(
            "desktop:me",
            "text_to_speech",
            json!({"text": "Hi", "deliver_channel": "alerts", "deliver_chat_id": "ops"}),
        )
        .await
        .unwrap_err();
    assert_eq!(failed.kind.as_str(), "delivery_failed", "{failed:?}");
    assert!(failed.message.contains("503"), "{failed:?}");
    assert_eq!(
        receiver.received().len(),
        3,
        "the refused calls never reached the receiver"
    );
}
