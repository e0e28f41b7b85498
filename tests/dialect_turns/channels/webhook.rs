//! The webhook channel against a local receiver: a 2xx answer is delivered (body shape,
//! headers, bearer token, files as base64), 4xx/5xx and no answer fail with the status and the
//! first bytes of the body, a private address is blocked unless `allow_local_hosts` allows it,
//! and a webhook that takes no files makes `send_file` refuse.

use base64::Engine as _;
use hearth_engine::SecretStore;
use hearth_protocol::{ChannelKind, ChannelSettings};
use hearth_tests::webhook_receiver::{Answer, WebhookReceiver};
use hearth_tools::ErrorKind;
use serde_json::json;

use super::Rig;

fn hook(url: &str, files: bool) -> ChannelSettings {
    ChannelSettings {
        url: Some(url.to_string()),
        headers: [("X-Hearth-Test".to_string(), "yes".to_string())].into(),
        files,
        timeout_secs: 1,
        ..ChannelSettings::new("alerts", ChannelKind::Webhook)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2xx_is_delivered_and_other_answers_fail_with_their_reason() {
    let receiver = WebhookReceiver::start().await;
    let rig = Rig::new(
        vec![hook(&receiver.url(), true)],
        vec![receiver.allow_entry()],
        None,
    );
    rig.secrets.set("channel:alerts", "s3cret").unwrap();
    let mut rig = rig;
    rig.rebuild();
    std::fs::create_dir_all(rig.workspace()).unwrap();
    std::fs::write(rig.workspace().join("log.txt"), "line 1\n").unwrap();

    let sent = rig
        .call(
            "desktop:origin",
            "send_message",
            json!({"target_chat_id": "alerts:ops:night", "content": "Disk 91% full", "files": ["log.txt"]}),
        )
        .await
        .unwrap();
    assert_eq!(sent["status"], "delivered", "{sent}");
    assert_eq!(sent["message_ids"], json!(["evt-1"]));
    let (headers, body) = receiver.received().remove(0);
    assert_eq!(headers["x-hearth-test"], "yes");
    assert_eq!(headers["authorization"], "Bearer s3cret");
    assert_eq!(body["channel"], "alerts");
    assert_eq!(body["chat_id"], "ops");
    assert_eq!(body["dialog_id"], "night");
    assert_eq!(body["text"], "Disk 91% full");
    assert_eq!(body["origin"], "desktop:origin");
    assert_eq!(body["session"], "alerts:ops:night");
    let file = &body["files"][0];
    assert_eq!(file["name"], "log.txt");
    assert_eq!(file["mime_type"], "text/plain");
    let data = base64::engine::general_purpose::STANDARD
        .decode(file["data_base64"].as_str().unwrap())
        .unwrap();
    assert_eq!(data, b"line 1\n");

    let failures = [
        (Answer::Status(404, "no such hook".into()), "404"),
        (Answer::Status(503, "maintenance until 6am".into()), "503"),
        (Answer::Hang, "within 1"),
    ];
    for (answer, expected) in failures {
        receiver.answer(answer);
        let error = rig
            .call(
                "desktop:origin",
                "message",
                json!({"channel": "alerts", "chat_id": "ops", "text": "x"}),
            )
            .await
            .unwrap_err();
        assert_eq!(error.kind, ErrorKind::DeliveryFailed, "{error:?}");
        assert!(
            error.message.contains(expected),
            "{expected}: {}",
            error.message
        );
    }
    receiver.answer(Answer::Status(503, "maintenance until 6am".into()));
    let error = rig
        .call(
            "desktop:origin",
            "message",
            json!({"channel": "alerts", "chat_id": "ops", "text": "x"}),
        )
        .await
        .unwrap_err();
    assert!(
        error.message.contains("maintenance until 6am"),
        "{}",
        error.message
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_address_is_blocked_unless_allowed() {
    let receiver = WebhookReceiver::start().await;
    let rig = Rig::new(vec![hook(&receiver.url(), false)], Vec::new(), None);
    let error = rig
        .call(
            "desktop:a",
            "message",
            json!({"channel": "alerts", "chat_id": "ops", "text": "x"}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::DeliveryFailed, "{error:?}");
    assert!(error.message.contains("allow_local"), "{}", error.message);
    assert!(receiver.received().is_empty());

    std::fs::create_dir_all(rig.workspace()).unwrap();
    std::fs::write(rig.workspace().join("a.txt"), "x").unwrap();
    let error = rig
        .call(
            "desktop:a",
            "send_file",
            json!({"channel": "alerts", "chat_id": "ops", "file_path": "a.txt"}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Unavailable, "{error:?}");
    assert!(
        error.message.contains("supports_files"),
        "{}",
        error.message
    );
}
