//! Outbound Telegram through the channel tools and the local Bot API server: text (escaped,
//! long texts split at 4,096), photos and documents as multipart uploads, honest failures
//! (500, a refused token, no answer; the model told whether sending again can help) and malformed
//! arguments.

use std::time::{Duration, Instant};

use hearth_protocol::{AppError, MessageStatus};
use hearth_tests::bot_api::{Behaviour, BotApiServer};
use hearth_tools::{Dialect, ErrorKind};
use serde_json::json;

use super::{telegram, Rig, TOKEN};

async fn rig() -> (BotApiServer, Rig) {
    let bot = BotApiServer::start(TOKEN).await;
    let rig = Rig::new(vec![telegram(&bot.url())], vec![bot.allow_entry()], None);
    (bot, rig)
}

/// A PNG's first bytes (enough for a picture upload to be recognised).
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_is_escaped_long_text_split_and_files_uploaded() {
    let (bot, rig) = rig().await;
    let sent = rig
        .call(
            "desktop:a",
            "send_message",
            json!({"target_chat_id": "telegram:42", "content": "1 < 2 & <b>not bold</b>"}),
        )
        .await
        .unwrap();
    assert_eq!(sent["status"], "delivered", "{sent}");
    assert_eq!(sent["channel_kind"], "telegram");
    assert_eq!(sent["session_id"], "telegram:42");
    let first = &bot.calls("sendMessage")[0];
    assert_eq!(first.field("chat_id"), "42");
    assert_eq!(first.field("parse_mode"), "HTML");
    assert_eq!(
        first.field("text"),
        "1 &lt; 2 &amp; &lt;b&gt;not bold&lt;/b&gt;"
    );

    let long = "Hearth splits long answers at line breaks.\n".repeat(250);
    let sent = rig
        .call(
            "desktop:a",
            "message",
            json!({"channel": "telegram", "chat_id": "42", "text": long}),
        )
        .await
        .unwrap();
    let parts = bot.calls("sendMessage");
    let long_parts: Vec<String> = parts[1..].iter().map(|c| c.field("text")).collect();
    assert_eq!(long_parts.len(), 3, "{} characters", long.len());
    assert!(long_parts.iter().all(|t| t.chars().count() <= 4096));
    assert_eq!(long_parts.concat(), long.trim());
    assert_eq!(sent["message_ids"].as_array().unwrap().len(), 3);

    std::fs::create_dir_all(rig.workspace().join("out")).unwrap();
    std::fs::write(rig.workspace().join("out/chart.png"), PNG).unwrap();
    std::fs::write(rig.workspace().join("out/report.pdf"), b"%PDF-1.4 report").unwrap();
    let photo = rig
        .call(
            "desktop:a",
            "send_file",
            json!({"channel": "telegram", "chat_id": "42", "file_path": "out/chart.png",
                   "caption": "Chart <today>", "as_image": true}),
        )
        .await
        .unwrap();
    assert_eq!(photo["status"], "delivered");
    let upload = &bot.calls("sendPhoto")[0];
    assert_eq!(upload.field("chat_id"), "42");
    assert_eq!(upload.field("caption"), "Chart &lt;today&gt;");
    assert_eq!(upload.files[0].0, "photo");
    assert_eq!(upload.files[0].1, "chart.png");
    assert_eq!(upload.files[0].2, "image/png");
    assert_eq!(upload.files[0].3, PNG);

    rig.call_in(
        Dialect::Picobot,
        "desktop:a",
        "send_message",
        json!({"target_chat_id": "telegram:42:7", "content": "the report", "files": ["out/report.pdf"]}),
    )
    .await
    .unwrap();
    let document = &bot.calls("sendDocument")[0];
    assert_eq!(document.files[0].0, "document");
    assert_eq!(document.files[0].3, b"%PDF-1.4 report");
    assert_eq!(document.field("caption"), "the report");
    assert_eq!(document.field("message_thread_id"), "7");

    // Every message is also in the chat's session, in order.
    let stored = rig.store.list_messages("telegram:42").unwrap();
    assert_eq!(stored.len(), 3, "{stored:#?}");
    assert!(stored.iter().all(|m| m.status == MessageStatus::Complete));
}

/// `send_message` of "hi" to telegram:42, which must fail.
async fn send_failing(rig: &Rig) -> hearth_tools::ToolError {
    rig.call(
        "desktop:a",
        "send_message",
        json!({"target_chat_id": "telegram:42", "content": "hi"}),
    )
    .await
    .unwrap_err()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_500_or_no_answer_is_delivery_failed_never_delivered() {
    let (bot, mut rig) = rig().await;
    bot.set("sendMessage", Behaviour::Fail(1));
    let error = send_failing(&rig).await;
    assert_eq!(error.kind, ErrorKind::DeliveryFailed, "{error:?}");
    assert!(error.message.contains("500"), "{}", error.message);
    assert!(
        error.message.contains("Internal Server Error"),
        "{}",
        error.message
    );
    let stored = rig.store.list_messages("telegram:42").unwrap();
    assert_eq!(stored[0].status, MessageStatus::Failed);
    assert!(stored[0].error.as_deref().unwrap().contains("500"));
    assert_delivery_failed(&stored[0].error_code, "500");
    // A server error may pass; the model is told so.
    assert!(
        error.message.contains("sending it again later may work"),
        "{}",
        error.message
    );

    // A refused token will not pass by itself: the model is told not to keep trying.
    bot.set("sendMessage", Behaviour::Unauthorized);
    let error = send_failing(&rig).await;
    assert_eq!(error.kind, ErrorKind::DeliveryFailed, "{error:?}");
    assert!(
        error.message.contains("401")
            && error
                .message
                .contains("sending it again will fail the same way until this is fixed"),
        "{}",
        error.message
    );

    rig.settings.lock().unwrap().channels[0].timeout_secs = 1;
    rig.rebuild();
    bot.set("sendMessage", Behaviour::Hang);
    let started = Instant::now();
    let error = send_failing(&rig).await;
    assert_eq!(error.kind, ErrorKind::DeliveryFailed, "{error:?}");
    assert!(error.message.contains("within 1"), "{}", error.message);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(!error.message.contains(TOKEN), "{}", error.message);
    let stored = rig.store.list_messages("telegram:42").unwrap();
    assert_eq!(stored.len(), 3);
    assert_eq!(stored[2].status, MessageStatus::Failed);
    assert_delivery_failed(&stored[2].error_code, "within 1");
}

/// The stored copy's code is `delivery_failed` to telegram:42 with a reason containing `why`.
fn assert_delivery_failed(code: &Option<AppError>, why: &str) {
    match code {
        Some(AppError::DeliveryFailed { target, reason }) => {
            assert_eq!(target, "telegram:42");
            assert!(reason.contains(why), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_arguments_and_paths_outside_the_workspace_are_refused() {
    let (bot, rig) = rig().await;
    std::fs::create_dir_all(rig.workspace()).unwrap();
    std::fs::write(rig.workspace().join("notes.txt"), "text").unwrap();
    let cases = [
        (
            "send_message",
            json!({"content": "x"}),
            ErrorKind::InvalidArguments,
        ),
        (
            "send_message",
            json!({"target_chat_id": "telegram", "content": "x"}),
            ErrorKind::InvalidArguments,
        ),
        (
            "send_message",
            json!({"target_chat_id": "nowhere:1", "content": "x"}),
            ErrorKind::InvalidArguments,
        ),
        (
            "send_message",
            json!({"target_chat_id": "telegram:42", "content": "  "}),
            ErrorKind::InvalidArguments,
        ),
        (
            "send_message",
            json!({"target_chat_id": "telegram:42", "content": "x", "to": 1}),
            ErrorKind::InvalidArguments,
        ),
        (
            "send_message",
            json!({"target_chat_id": "telegram:42", "content": "x".repeat(100_001)}),
            ErrorKind::InvalidArguments,
        ),
        (
            "send_message",
            json!({"target_chat_id": "telegram:42", "content": "x", "files": ["../outside.txt"]}),
            ErrorKind::NotPermitted,
        ),
        (
            "send_message",
            json!({"target_chat_id": "telegram:42", "content": "x", "files": ["/etc/passwd"]}),
            ErrorKind::NotPermitted,
        ),
        (
            "send_message",
            json!({"target_chat_id": "telegram:42", "content": "x", "files": ["missing.pdf"]}),
            ErrorKind::NotFound,
        ),
        (
            "send_file",
            json!({"channel": "telegram", "chat_id": "42", "file_path": "notes.txt", "as_image": true}),
            ErrorKind::InvalidArguments,
        ),
        (
            "send_file",
            json!({"channel": "telegram", "chat_id": "42"}),
            ErrorKind::InvalidArguments,
        ),
        (
            "message",
            json!({"channel": "telegram", "chat_id": "", "text": "x"}),
            ErrorKind::InvalidArguments,
        ),
        (
            "message",
            json!({"channel": "telegram", "chat_id": 42, "text": "x"}),
            ErrorKind::InvalidArguments,
        ),
        (
            "notify",
            json!({"message": "x", "channel": "nowhere", "chat_id": "1"}),
            ErrorKind::InvalidArguments,
        ),
    ];
    for (tool, args, kind) in cases {
        let error = rig.call("desktop:a", tool, args.clone()).await.unwrap_err();
        let shown = args.to_string();
        assert_eq!(
            error.kind,
            kind,
            "{tool} {}: {error:?}",
            &shown[..shown.len().min(120)]
        );
    }
    assert!(bot.journal().is_empty(), "{:?}", bot.journal());
}
