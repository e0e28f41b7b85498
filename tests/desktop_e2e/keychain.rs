//! A keychain that answers "no result found" (gnome-keyring with no login collection) reaches
//! nobody who never typed a key: a keyless local provider is saved with no error and the form
//! closes; opening Settings again shows no error toast; a provider that needs a key says calmly,
//! in its card, that the keychain is not available; and the keychain is logged once per start.

use hearth_tests::ScriptedServer;

use crate::desktop::app::App;
use crate::desktop::home::{eventually, Home, PATIENCE};
use crate::desktop::keyring::NoLoginKeyring;
use crate::desktop::ui;
use crate::desktop_e2e::setup;

const ERROR_TOAST: &str = ".toast.error";

/// Leaves Settings for the Memory page and opens it again.
async fn reopen_settings(app: &App) {
    app.click(".sidebar-pages button:nth-child(2)").await;
    app.wait_css(".sidebar-pages button.active").await;
    app.click(".sidebar-bottom button").await;
    app.wait_css("[aria-labelledby=\"providers-title\"]").await;
}

/// Lines of the app's log that warn about the keychain.
fn keychain_warnings(home: &Home) -> usize {
    let log = std::fs::read_to_string(home.data().join("logs/hearth.log")).unwrap_or_default();
    log.lines()
        .filter(|l| l.contains("WARN") && l.contains("keychain"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_login_keyring_a_keyless_provider_saves_quietly_and_settings_shows_no_errors() {
    let (_turn, tools, _fake) = setup().await;
    let server = ScriptedServer::start().await;
    let mut home = Home::new(&tools, "no-login-keyring", &server.openai_base());
    // A provider that needs a key (never contacted here) next to the scripted local one.
    let config = home.data().join("config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("\n[[providers]]\nid = \"router\"\nname = \"Router\"\nkind = \"openai\"\nbase_url = \"https://router.invalid/v1\"\n");
    std::fs::write(&config, text).unwrap();
    let keyring = NoLoginKeyring::start(&home.dir.join("keyring"));
    assert!(
        keyring.has_no_default_collection(),
        "the test keyring has a default collection"
    );
    let app = App::launch(&tools, &mut home, &keyring.env()).await;

    // Add the same local server again, keyless, as "LM Studio".
    app.click(".sidebar-bottom button").await;
    app.click_xpath("//button[contains(normalize-space(), 'Add provider')]")
        .await;
    let form = "form.provider-form";
    app.type_into(&format!("{form} input[name=\"name\"]"), "LM Studio")
        .await;
    app.type_into(
        &format!("{form} input[name=\"base_url\"]"),
        &server.openai_base(),
    )
    .await;
    app.click_xpath(
        "//form[contains(@class,'provider-form')]//button[normalize-space()='Test connection']",
    )
    .await;
    app.click_xpath("//form[contains(@class,'provider-form')]//ul[@class='model-list']//button[normalize-space()='scripted-small']")
        .await;
    app.click_xpath("//form[contains(@class,'provider-form')]//button[normalize-space()='Save']")
        .await;
    // Saved, and the form closed as after any save.
    app.wait_css("li[data-provider-id=\"lm-studio\"]").await;
    eventually("the form to close", PATIENCE, || async {
        (app.count(form).await == 0).then_some(())
    })
    .await;
    let saved = std::fs::read_to_string(&config).unwrap();
    assert!(saved.contains("id = \"lm-studio\""), "{saved}");
    assert_eq!(app.count(ERROR_TOAST).await, 0, "an error toast showed");

    // Settings opened twice more: its key fields read "no key stored", never an error.
    for _ in 0..2 {
        reopen_settings(&app).await;
        eventually("every key status", PATIENCE, || async {
            (app.count("[aria-busy=\"true\"]").await == 0).then_some(())
        })
        .await;
        assert_eq!(app.count(ERROR_TOAST).await, 0, "an error toast showed");
    }

    // The local provider's card has no note; the one that needs a key says so calmly.
    app.click_xpath(&ui::provider_button("lm-studio", "Edit"))
        .await;
    let status = eventually("the local provider's key status", PATIENCE, || async {
        app.text_of("li[data-provider-id=\"lm-studio\"] .key-status")
            .await
            .filter(|s| !s.contains("Checking"))
    })
    .await;
    assert_eq!(status.trim(), "No key stored.");
    let local_note = "li[data-provider-id=\"lm-studio\"] [data-keychain=\"unavailable\"]";
    assert_eq!(app.count(local_note).await, 0);
    app.click_xpath("//li[@data-provider-id='lm-studio']//button[normalize-space()='Cancel']")
        .await;
    app.click_xpath(&ui::provider_button("router", "Edit"))
        .await;
    let note = app
        .wait_css("li[data-provider-id=\"router\"] [data-keychain=\"unavailable\"]")
        .await;
    let note = note.text().await.unwrap();
    assert!(note.contains("keychain is not available"), "{note}");
    assert_eq!(app.count(ERROR_TOAST).await, 0, "an error toast showed");

    // One warning for the whole start, however often Settings asked.
    assert_eq!(keychain_warnings(&home), 1, "keychain warnings in the log");
    app.close().await;
    drop(keyring);
}
