//! `hearth-cli channels`: add a webhook, list it, send through it (delivered, then a 500 that
//! exits 1 with the reason), refuse a bad name and an unknown target, remove it.

use hearth_tests::webhook_receiver::{Answer, WebhookReceiver};

use crate::cli::Cli;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_is_added_used_and_removed_with_honest_exit_codes() {
    let receiver = WebhookReceiver::start().await;
    let cli = Cli::new();
    std::fs::write(
        cli.home.path().join("config.toml"),
        format!("allow_local_hosts = [\"{}\"]\n", receiver.allow_entry()),
    )
    .unwrap();
    let added = cli
        .run(&[
            "channels",
            "add",
            "alerts",
            "--kind",
            "webhook",
            "--url",
            &receiver.url(),
        ])
        .await;
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );
    let listed = cli.run(&["channels", "list", "--json"]).await;
    let channels: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(channels[0]["name"], "alerts");
    assert_eq!(channels[0]["kind"], "webhook");

    let sent = cli
        .run(&["channels", "send", "alerts:ops", "Backup done"])
        .await;
    assert!(
        sent.status.success(),
        "{}",
        String::from_utf8_lossy(&sent.stderr)
    );
    assert!(String::from_utf8_lossy(&sent.stdout).contains("delivered to alerts:ops"));
    assert_eq!(receiver.received()[0].1["text"], "Backup done");

    receiver.answer(Answer::Status(500, "receiver broke".into()));
    let failed = cli.run(&["channels", "test", "alerts"]).await;
    assert_eq!(failed.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(
        stderr.contains("delivery_failed")
            && stderr.contains("500")
            && stderr.contains("receiver broke"),
        "{stderr}"
    );

    let unknown = cli.run(&["channels", "send", "nowhere:1", "x"]).await;
    assert_eq!(unknown.status.code(), Some(1));
    let bad = cli
        .run(&[
            "channels",
            "add",
            "Bad Name",
            "--kind",
            "webhook",
            "--url",
            &receiver.url(),
        ])
        .await;
    assert!(!bad.status.success());
    let no_token = cli
        .run(&["channels", "add", "tg", "--kind", "telegram"])
        .await;
    assert!(String::from_utf8_lossy(&no_token.stderr).contains("no bot token"));

    let removed = cli.run(&["channels", "remove", "alerts"]).await;
    assert!(removed.status.success());
    let listed = cli.run(&["channels", "list", "--json"]).await;
    assert_eq!(String::from_utf8_lossy(&listed.stdout).trim(), "[]");
}
