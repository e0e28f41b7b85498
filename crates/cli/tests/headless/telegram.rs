//! `hearth-cli daemon` polling a Telegram bot (a local Bot API server), killed with SIGKILL
//! mid-turn, mid-reply and mid-poll and started again on the same data dir: no update is lost
//! and none is answered twice (a reply that may have gone out is never resent).

use hearth_store::InboxStatus;
use hearth_tests::bot_api::{Behaviour, BotApiServer, BotCall};
use hearth_tests::{Reply, ScriptedServer};
use tokio::process::Child;

use crate::headless::support::{stop_daemon, Home};

const TOKEN: &str = "123456:restart-test";
const TOKEN_ENV: &str = "HEARTH_TEST_TELEGRAM_TOKEN";

/// A home whose `telegram` channel polls `bot` for chat 42.
fn home_with_bot(model: &ScriptedServer, bot: &BotApiServer) -> Home {
    let home = Home::new(model);
    let config = home.dir.path().join("config.toml");
    let providers = std::fs::read_to_string(&config).unwrap();
    let channel = format!(
        "allow_local_hosts = [\"{}\"]\n{providers}\n[[channels]]\nname = \"telegram\"\n\
         kind = \"telegram\"\nbase_url = \"{}\"\ntoken_env = \"{TOKEN_ENV}\"\ninbound = true\n\
         timeout_secs = 60\nallowed_chats = [{{ id = \"42\" }}]\n",
        bot.allow_entry(),
        bot.url()
    );
    std::fs::write(&config, channel).unwrap();
    home
}

fn daemon(home: &Home) -> Child {
    home.command()
        .args(["daemon", "--tick", "1"])
        .env(TOKEN_ENV, TOKEN)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

async fn kill_9(mut daemon: Child) {
    let pid = daemon.id().unwrap().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    daemon.wait().await.unwrap();
}

/// The texts sent to chat 42.
fn sent(journal: &[BotCall]) -> Vec<String> {
    journal
        .iter()
        .filter(|c| c.method == "sendMessage" && c.field("chat_id") == "42")
        .map(|c| c.field("text"))
        .collect()
}

/// Waits until the bot has been polled from `offset` (the updates before it are stored).
async fn polled_from(bot: &BotApiServer, offset: i64) {
    bot.wait_for(&format!("a poll from offset {offset}"), |j| {
        j.iter()
            .any(|c| c.method == "getUpdates" && c.fields["offset"] == offset)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_daemon_killed_mid_turn_mid_reply_and_mid_poll_loses_no_update_and_answers_none_twice() {
    let model = ScriptedServer::start().await;
    let bot = BotApiServer::start(TOKEN).await;
    // The first turn's answer comes long after the daemon is killed.
    model.push(Reply::text("too late").after(120_000));
    for answer in ["answer one", "answer two", "answer three", "answer four"] {
        model.push(Reply::text(answer));
    }
    let home = home_with_bot(&model, &bot);

    // Killed while the turn of "one" waits for the model.
    bot.push_text(42, "one");
    let first = daemon(&home);
    tokio::time::timeout(std::time::Duration::from_secs(30), async {
        while model.model_requests().is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the turn of the first update never asked the model");
    kill_9(first).await;
    assert!(sent(&bot.journal()).is_empty());

    // Started again: the interrupted turn runs again and is answered once; then killed while
    // the reply to "two" is on its way (Telegram never answers it).
    let second = daemon(&home);
    bot.wait_for("the answer to one", |j| !sent(j).is_empty())
        .await;
    bot.set("sendMessage", Behaviour::Hang);
    bot.push_text(42, "two");
    bot.wait_for("the reply to two on its way", |j| sent(j).len() == 2)
        .await;
    kill_9(second).await;

    // Started again: the reply to "two" may have arrived, so it is not resent; "three" is
    // answered; then killed in the middle of a long poll, and "four" arrives meanwhile.
    bot.answer_normally("sendMessage");
    let third = daemon(&home);
    bot.push_text(42, "three");
    bot.wait_for("the answer to three", |j| sent(j).len() == 3)
        .await;
    polled_from(&bot, 4).await;
    kill_9(third).await;
    bot.push_text(42, "four");

    let fourth = daemon(&home);
    bot.wait_for("the answer to four", |j| sent(j).len() == 4)
        .await;
    polled_from(&bot, 5).await;
    stop_daemon(fourth).await;

    assert_eq!(
        sent(&bot.journal()),
        ["answer one", "answer two", "answer three", "answer four"]
    );
    let store = home.store();
    let inbox: Vec<(String, InboxStatus)> = store
        .channel_inbox("telegram")
        .unwrap()
        .into_iter()
        .map(|e| (e.received.text, e.status))
        .collect();
    assert_eq!(
        inbox,
        [
            ("one".to_string(), InboxStatus::Answered),
            ("two".to_string(), InboxStatus::Unknown),
            ("three".to_string(), InboxStatus::Answered),
            ("four".to_string(), InboxStatus::Answered),
        ]
    );
    assert_eq!(store.channel_offset("telegram").unwrap(), 5);
    assert_eq!(
        model.pending(),
        0,
        "every scripted answer was asked for once"
    );
}
