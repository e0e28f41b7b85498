//! Steps in Hearth's window, in the user's terms: start a chat, rename it, send a message, open
//! a provider's settings. Selectors follow the UI's markup (classes, aria labels, data ids).

use super::app::App;
use super::home::{eventually, PATIENCE};

/// A completed assistant reply.
pub const REPLY: &str = "article.message.assistant[data-status=\"complete\"]";

/// The sidebar entry of a chat.
pub fn session_item(id: &str) -> String {
    format!("li.session[data-session-id=\"{id}\"]")
}

/// Clicks "New chat" and returns the new session's id once it is listed and open.
pub async fn new_chat(app: &App) -> String {
    let before = app.count("li.session").await;
    app.click(".sidebar-top button.primary").await;
    app.wait_css(".composer textarea").await;
    let id = eventually("the new chat in the sidebar", PATIENCE, || async {
        if app.count("li.session").await == before {
            return None;
        }
        open_chat(app).await
    })
    .await;
    assert!(id.starts_with("desktop:"), "unexpected session id {id}");
    id
}

/// The id of the chat shown (marked current in the sidebar), if any.
pub async fn open_chat(app: &App) -> Option<String> {
    let open = "const a = document.querySelector('li.session .session-open[aria-current]'); \
                return a && a.closest('li').dataset.sessionId;";
    app.js(open, vec![]).await.as_str().map(str::to_string)
}

/// Renames a chat from the sidebar and waits for the new title.
pub async fn rename(app: &App, id: &str, title: &str) {
    let item = session_item(id);
    app.click(&format!("{item} button[aria-label=\"Rename\"]"))
        .await;
    // The field starts with the old title selected; Enter (U+E007 in WebDriver) commits.
    app.type_into(&format!("{item} input.rename"), &format!("{title}\u{E007}"))
        .await;
    wait_title(app, id, title).await;
}

/// Waits until the sidebar shows `title` for chat `id`.
pub async fn wait_title(app: &App, id: &str, title: &str) {
    let css = format!("{} .session-title", session_item(id));
    eventually(&format!("the chat titled {title:?}"), PATIENCE, || async {
        app.text_of(&css).await.filter(|t| t == title)
    })
    .await;
}

/// Types a message into the composer and sends it.
pub async fn send(app: &App, text: &str) {
    app.type_into(".composer textarea", text).await;
    app.click(".composer button.send").await;
}

/// Waits for `count` chats in the sidebar.
pub async fn wait_chat_count(app: &App, count: u64) {
    eventually(
        &format!("{count} chats in the sidebar"),
        PATIENCE,
        || async { (app.count("li.session").await == count).then_some(()) },
    )
    .await;
}

/// Opens Settings and the edit form of provider `id`, where its API key field is.
pub async fn open_provider(app: &App, id: &str) {
    app.click(".sidebar-bottom button").await;
    app.click_xpath(&provider_button(id, "Edit")).await;
    app.wait_css("input[name=\"api_key\"]").await;
}

/// The button labelled `label` inside provider `id`'s entry.
pub fn provider_button(id: &str, label: &str) -> String {
    format!("//li[@data-provider-id='{id}']//button[normalize-space()='{label}']")
}

/// The page's whole HTML, to check what it does not contain.
pub async fn page_html(app: &App) -> String {
    let html = app
        .js("return document.documentElement.outerHTML", vec![])
        .await;
    html.as_str().unwrap_or_default().to_string()
}
