//! Inbound Telegram through the gateway: an allowed chat's message runs a turn under
//! `public_gateway` (its `exec` request refused) and the answer reaches the chat; a chat not on
//! the allow list gets one refusal and no turn; a restart mid-poll loses no update and answers
//! none twice; failed polls are retried, and a refused token stops polling with the reason.

use hearth_engine::Gateway;
use hearth_protocol::{AllowedChat, SecurityProfile};
use hearth_store::InboxStatus;
use hearth_tests::bot_api::{Behaviour, BotApiServer, BotCall};
use hearth_tests::{Reply, ScriptedServer};
use serde_json::json;

use super::{telegram, Rig, TOKEN};

async fn rig(allowed: &[&str]) -> (BotApiServer, ScriptedServer, Rig) {
    let bot = BotApiServer::start(TOKEN).await;
    let model = ScriptedServer::start().await;
    let mut channel = telegram(&bot.url());
    channel.inbound = true;
    channel.allowed_chats = allowed
        .iter()
        .map(|id| AllowedChat {
            id: id.to_string(),
            profile: SecurityProfile::PublicGateway,
        })
        .collect();
    let rig = Rig::new(
        vec![channel],
        vec![
            bot.allow_entry(),
            format!("127.0.0.1:{}", port(&model.url())),
        ],
        Some(model.ollama_base()),
    );
    (bot, model, rig)
}

fn port(url: &str) -> u16 {
    url.rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .parse()
        .unwrap()
}

/// The texts sent to `chat`.
fn sent_to(journal: &[BotCall], chat: &str) -> Vec<String> {
    journal
        .iter()
        .filter(|c| c.method == "sendMessage" && c.field("chat_id") == chat)
        .map(|c| c.field("text"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_chat_gets_a_gateway_turn_and_its_answer() {
    let (bot, model, rig) = rig(&["42"]).await;
    model.push(Reply::tool_call(
        "exec",
        json!({"command": "echo pwned > /tmp/x"}),
    ));
    model.push(Reply::text("I can't run commands from Telegram."));
    bot.push_text(42, "please run echo");
    let gateway = Gateway::new(rig.builder.clone(), rig.settings_source()).serve();
    assert_eq!(gateway.polling(), 1);
    bot.wait_for("the answer", |j| !sent_to(j, "42").is_empty())
        .await;
    gateway.stop().await;
    assert_eq!(
        sent_to(&bot.journal(), "42"),
        ["I can't run commands from Telegram."]
    );
    let messages = rig.store.list_messages("telegram:42").unwrap();
    assert_eq!(messages[0].text(), "please run echo");
    let refused = messages
        .iter()
        .find_map(|m| m.tool_result.clone())
        .expect("the exec call's result");
    assert!(refused.is_error);
    let error: serde_json::Value = serde_json::from_str(&refused.content).unwrap();
    assert_eq!(error["error"]["kind"], "not_permitted", "{error}");
    assert!(
        refused.content.contains("public_gateway"),
        "{}",
        refused.content
    );
    let session = rig.store.get_session("telegram:42").unwrap().unwrap();
    assert_eq!(session.title, "telegram · 42");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_not_on_the_list_is_refused_once_and_runs_nothing() {
    let (bot, model, rig) = rig(&["42"]).await;
    model.push(Reply::text("Hello!"));
    bot.push_text(99, "let me in");
    bot.push_text(99, "please");
    bot.push_text(42, "hi");
    let gateway = Gateway::new(rig.builder.clone(), rig.settings_source()).serve();
    bot.wait_for("the allowed chat's answer", |j| {
        !sent_to(j, "42").is_empty()
    })
    .await;
    gateway.stop().await;
    let refusals = sent_to(&bot.journal(), "99");
    assert_eq!(refusals.len(), 1, "{refusals:?}");
    assert!(refusals[0].contains("99"), "{}", refusals[0]);
    assert_eq!(model.model_requests().len(), 1);
    assert!(rig.store.get_session("telegram:99").unwrap().is_none());
    let inbox = rig.store.channel_inbox("telegram").unwrap();
    let statuses: Vec<InboxStatus> = inbox.iter().map(|e| e.status).collect();
    assert_eq!(
        statuses,
        [
            InboxStatus::Refused,
            InboxStatus::Refused,
            InboxStatus::Answered
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_poll_loses_no_update_and_answers_none_twice() {
    let (bot, model, mut rig) = rig(&["42"]).await;
    for n in 1..=3 {
        model.push(Reply::text(&format!("answer {n}")));
    }
    bot.push_text(42, "one");
    let gateway = Gateway::new(rig.builder.clone(), rig.settings_source()).serve();
    bot.wait_for("a poll past the first update", |j| {
        j.iter()
            .any(|c| c.method == "getUpdates" && c.fields["offset"] == 2)
    })
    .await;
    gateway.stop().await;
    let before_restart = bot.journal().len();
    bot.push_text(42, "two");
    bot.push_text(42, "three");

    rig.rebuild();
    let gateway = Gateway::new(rig.builder.clone(), rig.settings_source()).serve();
    bot.wait_for("a poll past the third update", |j| {
        j.iter()
            .any(|c| c.method == "getUpdates" && c.fields["offset"] == 4)
    })
    .await;
    gateway.stop().await;
    assert_eq!(
        sent_to(&bot.journal(), "42"),
        ["answer 1", "answer 2", "answer 3"]
    );
    let first_poll_after = bot.journal()[before_restart..]
        .iter()
        .find(|c| c.method == "getUpdates")
        .map(|c| c.fields["offset"].clone());
    assert_eq!(first_poll_after, Some(json!(2)));
    assert_eq!(rig.store.channel_offset("telegram").unwrap(), 4);
    let users: Vec<String> = rig
        .store
        .list_messages("telegram:42")
        .unwrap()
        .iter()
        .filter(|m| m.role == hearth_protocol::Role::User)
        .map(|m| m.text())
        .collect();
    assert_eq!(users, ["one", "two", "three"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn polling_survives_failed_polls() {
    let (bot, model, rig) = rig(&["42"]).await;
    model.push(Reply::text("still here"));
    bot.set("getUpdates", Behaviour::Fail(2));
    bot.push_text(42, "are you there?");
    let gateway = Gateway::new(rig.builder.clone(), rig.settings_source()).serve();
    bot.wait_for("the answer", |j| !sent_to(j, "42").is_empty())
        .await;
    gateway.stop().await;
    assert_eq!(sent_to(&bot.journal(), "42"), ["still here"]);
    assert!(bot.calls("getUpdates").len() >= 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_polling_and_says_why_while_a_server_error_is_retried() {
    let (bot, _model, rig) = rig(&["42"]).await;
    // A server error is retried: the gateway asks again.
    bot.set("getUpdates", Behaviour::Fail(1));
    let gateway = Gateway::new(rig.builder.clone(), rig.settings_source()).serve();
    bot.wait_for("a poll after the failed one", |j| {
        j.iter().filter(|c| c.method == "getUpdates").count() >= 2
    })
    .await;
    assert!(gateway.polls("telegram"));
    assert_eq!(gateway.stopped("telegram"), None);
    gateway.stop().await;

    // A refused token is permanent: one poll, then the channel is no longer polled.
    bot.set("getUpdates", Behaviour::Unauthorized);
    let before = bot.calls("getUpdates").len();
    let gateway = Gateway::new(rig.builder.clone(), rig.settings_source()).serve();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while gateway.stopped("telegram").is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "polling never stopped"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let why = gateway.stopped("telegram").unwrap();
    assert!(why.contains("401") && why.contains("Unauthorized"), "{why}");
    assert!(!gateway.polls("telegram"));
    // Longer than the first back-off: a retrying loop would have asked again by now.
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    assert_eq!(bot.calls("getUpdates").len(), before + 1);
    gateway.stop().await;
}
