//! Channels in the real app: a Telegram bot configured in `config.toml` (its token from the
//! environment variable it names) is polled by the app — an allowed chat's message gets an
//! agent turn whose answer goes back to Telegram, and the chat shows in the sidebar with its
//! channel's badge; a webhook added in Settings → Channels is built at once, its test message
//! arrives with the channel's delivery result, and the agent's `send_message` goes out through it.

use hearth_tests::bot_api::BotApiServer;
use hearth_tests::webhook_receiver::WebhookReceiver;

use super::*;

const SECTION: &str = "section[aria-labelledby=\"channels-title\"]";

fn channel(name: &str) -> String {
    format!("{SECTION} fieldset[data-channel=\"{name}\"]")
}

/// Waits until channel `name`'s status line reads `status`.
async fn wait_status(app: &App, name: &str, status: &str) {
    let css = format!("{} .channel-status", channel(name));
    eventually(&format!("channel {name} {status:?}"), PATIENCE, || async {
        app.text_of(&css).await.filter(|s| s == status)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_answers_telegram_and_delivers_through_a_webhook_added_in_settings() {
    let (_turn, tools) = setup().await;
    let server = ScriptedServer::start().await;
    let hook = WebhookReceiver::start().await;
    let bot = BotApiServer::start("4242:e2e-token").await;
    let mut home = home_with_full_tools(&tools, "channels-app", &server);
    let config = home.data().join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        format!(
            "allow_local_hosts = [\"{}\", \"{}\"]\n{text}\n[[channels]]\nname = \"tg\"\n\
             kind = \"telegram\"\nbase_url = \"{}\"\ntoken_env = \"HEARTH_E2E_BOT_TOKEN\"\n\
             inbound = true\n\n[[channels.allowed_chats]]\nid = \"42\"\n",
            hook.allow_entry(),
            bot.allow_entry(),
            bot.url()
        ),
    )
    .unwrap();
    server.push_for("hello from the phone", Reply::text("hi phone, 5e9"));
    bot.push_text(42, "hello from the phone");
    let env = [("HEARTH_E2E_BOT_TOKEN", "4242:e2e-token")];
    let app = App::launch(&tools, &mut home, &env).await;

    bot.wait_for("the answer in Telegram", |journal| {
        journal
            .iter()
            .any(|c| c.method == "sendMessage" && c.field("text").contains("hi phone, 5e9"))
    })
    .await;
    let badge = format!("{} .channel-badge", ui::session_item("tg:42"));
    let shown = eventually("the Telegram chat in the sidebar", PATIENCE, || {
        app.text_of(&badge)
    })
    .await;
    assert_eq!(shown, "tg");

    app.click(".sidebar-bottom button").await;
    app.wait_css(SECTION).await;
    wait_status(&app, "tg", "Ready · reading messages").await;
    app.click_xpath(
        "//section[@aria-labelledby='channels-title']//button[normalize-space()='Add webhook']",
    )
    .await;
    app.type_into(
        &format!("{SECTION} fieldset[data-kind=\"webhook\"] input[name=\"channel_url\"]"),
        &hook.url(),
    )
    .await;
    app.click_xpath(
        "//section[@aria-labelledby='channels-title']//button[normalize-space()='Save channels']",
    )
    .await;
    wait_status(&app, "webhook", "Ready").await;
    app.click(&format!(
        "{} button[name=\"channel_test\"]",
        channel("webhook")
    ))
    .await;
    let result = format!("{} .test-result[data-ok=\"true\"]", channel("webhook"));
    let delivered = eventually("the test's delivery", PATIENCE, || app.text_of(&result)).await;
    assert_eq!(delivered, "Delivered to webhook:test");
    let received = hook.received();
    assert_eq!(received.len(), 1, "{received:?}");
    assert_eq!(received[0].1["target"], "webhook:test");
    assert!(
        received[0].1["text"]
            .as_str()
            .unwrap()
            .contains("a test message from Settings → Channels"),
        "{:?}",
        received[0].1
    );
    let saved = std::fs::read_to_string(&config).unwrap();
    assert!(saved.contains("name = \"webhook\""), "{saved}");

    server.push(Reply::tool_call(
        "send_message",
        json!({"target_chat_id": "webhook:alerts", "content": "deploy-4f2 done"}),
    ));
    server.push(Reply::text("Sent."));
    app.click(".settings-header button").await;
    ui::new_chat(&app).await;
    ui::send(&app, "Tell the team.").await;
    app.wait_css(&format!("{}[data-status=\"ok\"]", card("send_message")))
        .await;
    let alerts: Vec<_> = hook
        .received()
        .into_iter()
        .filter(|(_, body)| body["target"] == "webhook:alerts")
        .collect();
    assert_eq!(alerts.len(), 1);
    assert_eq!(alerts[0].1["text"], "deploy-4f2 done");
    app.close().await;
}
