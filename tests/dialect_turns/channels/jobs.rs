//! A scheduled job whose target is a Telegram chat: the answer, labelled with the job, arrives
//! through `sendMessage`; a refused delivery fails the run with Telegram's reason.

use hearth_engine::AgentJobExecutor;
use hearth_scheduler::{JobExecutor, RunRequest};
use hearth_store::NewJob;
use hearth_tests::bot_api::{Behaviour, BotApiServer};
use hearth_tests::{Reply, ScriptedServer};

use super::{telegram, Rig, TOKEN};

fn request(rig: &Rig, name: &str) -> RunRequest {
    let job = rig
        .store
        .create_job(
            &NewJob {
                name: name.to_string(),
                schedule: r#"{"type":"every","every_ms":3600000}"#.to_string(),
                tz: "UTC".to_string(),
                prompt: "Write the weather report".to_string(),
                target: Some("telegram:42".to_string()),
                model: None,
                enabled: true,
                notify: false,
                next_run_at: None,
                skill: None,
            },
            0,
        )
        .unwrap();
    RunRequest {
        job,
        run_id: 0,
        scheduled_for: None,
        catch_up: false,
        manual: false,
        authorized_tools: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_targeting_a_telegram_chat_delivers_there() {
    let bot = BotApiServer::start(TOKEN).await;
    let model = ScriptedServer::start().await;
    let model_port = model.url().rsplit(':').next().unwrap().to_string();
    let rig = Rig::new(
        vec![telegram(&bot.url())],
        vec![bot.allow_entry(), format!("127.0.0.1:{model_port}")],
        Some(model.ollama_base()),
    );
    let executor =
        AgentJobExecutor::from_builder(rig.builder.clone()).with_settings(rig.settings_source());
    model.push(Reply::text("Sunny, 25 °C"));
    let output = executor.run(request(&rig, "weather")).await.unwrap();
    assert!(output.text.contains("Sunny"), "{}", output.text);
    let sent = bot.calls("sendMessage");
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].field("chat_id"), "42");
    let text = sent[0].field("text");
    assert!(
        text.contains("weather") && text.contains("Sunny, 25 °C"),
        "{text}"
    );

    model.push(Reply::text("Rain"));
    bot.set("sendMessage", Behaviour::Fail(1));
    let error = executor.run(request(&rig, "rain")).await.unwrap_err();
    assert!(error.text.contains("500"), "{}", error.text);
}
