//! The webhook channel against a local receiver: a 2xx answer is delivered (body shape,
//! headers, bearer token, files as base64), 4xx/5xx and no answer fail with the status and the
//! first bytes of the body, a private address is blocked unless `allow_local_hosts` allows it,
//! a webhook that takes no files makes `send_file` refuse, and `artifact_deliver` sends the
//! current chat a file or, where files are not taken, numbered text segments.

use base64::Engine as _;
use hearth_core::SecretStore;
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

/// Builds a final artifact of `content` in `session`; its id.
async fn final_artifact(rig: &Rig, session: &str, content: &str) -> String {
    let made = rig
        .call(session, "artifact_create", json!({"filename": "report.md"}))
        .await
        .unwrap();
    let id = made["artifact_id"].as_str().unwrap().to_string();
    let append = json!({"artifact_id": id, "sequence": 0, "content": content});
    rig.call(session, "artifact_append", append).await.unwrap();
    rig.call(session, "artifact_finalize", json!({"artifact_id": id}))
        .await
        .unwrap();
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn artifact_deliver_sends_a_file_or_numbered_text_segments_to_the_current_chat() {
    let files = WebhookReceiver::start().await;
    let text_only = WebhookReceiver::start().await;
    let mut with_files = hook(&files.url(), true);
    with_files.name = "docs".into();
    let rig = Rig::new(
        vec![with_files, hook(&text_only.url(), false)],
        vec![files.allow_entry(), text_only.allow_entry()],
        None,
    );

    let id = final_artifact(&rig, "docs:team", "# Report\n\n季度收入增长。\n").await;
    let sent = rig
        .call(
            "docs:team",
            "artifact_deliver",
            json!({"artifact_id": id, "caption": "Q3"}),
        )
        .await
        .unwrap();
    assert_eq!(sent["mode"], "file", "{sent}");
    let (_, body) = files.received().remove(0);
    assert_eq!(body["text"], "Q3");
    assert_eq!(body["session"], "docs:team");
    assert_eq!(body["files"][0]["name"], "report.md");
    let data = base64::engine::general_purpose::STANDARD
        .decode(body["files"][0]["data_base64"].as_str().unwrap())
        .unwrap();
    assert_eq!(
        String::from_utf8(data).unwrap(),
        "# Report\n\n季度收入增长。\n"
    );

    let long = format!("{}\n", "段落内容。".repeat(100)).repeat(8);
    let id = final_artifact(&rig, "alerts:ops", &long).await;
    let sent = rig
        .call("alerts:ops", "artifact_deliver", json!({"artifact_id": id}))
        .await
        .unwrap();
    assert_eq!(
        (sent["mode"].as_str(), sent["segments"].as_u64()),
        (Some("text_segments"), Some(2)),
        "{sent}"
    );
    let texts: Vec<String> = text_only
        .received()
        .into_iter()
        .map(|(_, body)| body["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(texts.len(), 2);
    assert!(
        texts[0].starts_with("[1/2] report.md\n段落内容。"),
        "{}",
        &texts[0][..40]
    );
    assert!(texts[1].starts_with("[2/2] report.md\n"));
    assert_eq!(texts.concat().matches("段落内容。").count(), 800);
    // Only the current chat: another session's artifact is unknown here.
    let elsewhere = rig
        .call("docs:team", "artifact_deliver", json!({"artifact_id": id}))
        .await
        .unwrap_err();
    assert_eq!(elsewhere.kind, ErrorKind::NotFound, "{elsewhere:?}");
    let refused = rig
        .call(
            "alerts:ops",
            "artifact_deliver",
            json!({"artifact_id": id, "fallback_to_text": false}),
        )
        .await
        .unwrap_err();
    assert_eq!(refused.kind, ErrorKind::Unavailable, "{refused:?}");
}
