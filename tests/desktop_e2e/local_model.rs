//! Hearth's own model in the real app: on a first run with no provider (no key, no server), the
//! card's "Use the built-in model" makes SmolLM2 (linked into the models folder as
//! `run-app.sh` copies it) the default provider and the chat streams a real llama.cpp reply;
//! once the app has quit, no model worker is left. Settings → Models downloads a GGUF from a
//! server on 127.0.0.1 (allowed in `allow_local_hosts`) into the installed list.

use std::future::IntoFuture;

use hearth_tests::processes::live_model_workers;

use crate::desktop::app::App;
use crate::desktop::home::{eventually, Home, PATIENCE};
use crate::desktop::ui::{self, REPLY};
use crate::desktop_e2e::setup;

const BUILTIN: &str = "SmolLM2-135M-Instruct.Q4_1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_builtin_model_chats_offline_from_the_first_run_card() {
    let (_turn, tools, _fake) = setup().await;
    let mut home = Home::new(&tools, "builtin-model", "http://127.0.0.1:9/v1");
    // A fresh machine: no provider at all, the built-in model in the models folder.
    std::fs::write(
        home.data().join("config.toml"),
        "language = \"en\"\ntheme = \"light\"\n",
    )
    .unwrap();
    let model = tools.root.join(format!("target/models/{BUILTIN}.gguf"));
    assert!(
        model.is_file(),
        "{} is missing: run scripts/setup.sh",
        model.display()
    );
    std::fs::create_dir_all(home.data().join("models")).unwrap();
    std::os::unix::fs::symlink(&model, home.data().join(format!("models/{BUILTIN}.gguf"))).unwrap();

    let app = App::launch(&tools, &mut home, &[]).await;
    app.click("[data-builtin-model] button.primary").await;
    // The provider is saved as the default and a chat is open.
    let config = eventually("the local provider in config.toml", PATIENCE, || async {
        let text = std::fs::read_to_string(home.data().join("config.toml")).ok()?;
        text.contains("kind = \"local\"").then_some(text)
    })
    .await;
    assert!(config.contains(BUILTIN), "{config}");
    ui::send(&app, "What is the capital of France?").await;
    app.wait_css(&format!("{REPLY} .markdown")).await;
    let reply = app.text_of(&format!("{REPLY} .markdown")).await.unwrap();
    assert!(reply.contains("Paris"), "reply: {reply}");
    if std::env::var("HEARTH_SCREENSHOT").is_ok_and(|v| v == "1") {
        let png = app.client.screenshot().await.unwrap();
        std::fs::write(tools.root.join("docs/builtin-model.png"), png).unwrap();
    }
    assert_eq!(
        live_model_workers(&tools.app).len(),
        1,
        "one worker runs the model"
    );
    app.close().await;
    eventually("no model worker after the app quit", PATIENCE, || async {
        live_model_workers(&tools.app).is_empty().then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_downloads_a_model_from_a_local_server_into_the_installed_list() {
    let (_turn, tools, _fake) = setup().await;
    let bytes = std::fs::read(tools.root.join(format!("target/models/{BUILTIN}.gguf"))).unwrap();
    let size = bytes.len();
    let server = axum::Router::new().route(
        "/files/tiny.gguf",
        axum::routing::get(move || {
            let bytes = bytes.clone();
            async move { bytes }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(axum::serve(listener, server).into_future());

    let mut home = Home::new(&tools, "model-download", "http://127.0.0.1:9/v1");
    let config = home.data().join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        format!("allow_local_hosts = [\"127.0.0.1:{port}\"]\n{text}"),
    )
    .unwrap();

    let app = App::launch(&tools, &mut home, &[]).await;
    app.click(".sidebar-bottom button").await;
    app.type_into(
        "input[name=\"download_source\"]",
        &format!("http://127.0.0.1:{port}/files/tiny.gguf"),
    )
    .await;
    app.click("[data-models=\"download-form\"] button[type=\"submit\"]")
        .await;
    app.wait_css(".local-model[data-model=\"tiny\"]").await;
    let models = home.data().join("models");
    assert_eq!(
        std::fs::metadata(models.join("tiny.gguf")).unwrap().len() as usize,
        size
    );
    assert!(!models.join("tiny.gguf.part").exists());
    assert_eq!(app.count("[data-download]").await, 0);
    app.close().await;
}
