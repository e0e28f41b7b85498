//! The browser in an agent turn of each dialect: open a local page, take a snapshot, fill its
//! form in Chinese and submit it, read the result; a screenshot reaches the model as an image.

use hearth_tools::Dialect;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::dialect_turns::rig::{turn, Front, Rig};

const PAGE: &str = r#"<!doctype html><title>Greeter</title>
<form id="f"><label>Name <input name="n"></label><button>Send</button></form>
<p id="o"></p>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  document.getElementById('o').textContent = '你好，' + e.target.n.value;
});
</script>"#;

/// Serves the greeter page on 127.0.0.1.
async fn serve() -> u16 {
    let socket = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = socket.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = socket.accept().await {
            tokio::spawn(async move {
                let mut request = [0u8; 4096];
                let _ = stream.read(&mut request).await;
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{PAGE}",
                    PAGE.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_is_filled_in_chinese_and_submitted_in_every_dialect() {
    let port = serve().await;
    let url = format!("http://127.0.0.1:{port}/");
    for dialect in [Dialect::Hearth, Dialect::Echo, Dialect::Picobot] {
        let home = tempfile::tempdir().unwrap();
        let calls = [
            ("browser", json!({"action": "open", "url": url})),
            ("browser", json!({"action": "snapshot"})),
            (
                "browser",
                json!({"action": "fill", "ref": "e1", "text": "张伟", "press_enter": true}),
            ),
            ("browser", json!({"action": "get_text"})),
        ];
        let results = turn(home.path(), dialect, port, &calls).await;
        assert_eq!(results.len(), 4, "{dialect}: {results:?}");
        for (name, result, is_error) in &results {
            assert!(!is_error, "{dialect} {name}: {result}");
        }
        let snapshot = results[1].1["snapshot"].as_str().unwrap();
        assert!(
            snapshot.contains("textbox \"Name\" [ref=e1]"),
            "{dialect}: {snapshot}"
        );
        assert!(
            snapshot.contains("button \"Send\" [ref=e2]"),
            "{dialect}: {snapshot}"
        );
        let text = results[3].1["text"].as_str().unwrap();
        assert!(text.contains("你好，张伟"), "{dialect}: {text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_screenshot_reaches_the_next_model_request_as_an_image() {
    let port = serve().await;
    let home = tempfile::tempdir().unwrap();
    let rig = Rig::open(home.path(), Dialect::Hearth, port, Front::default()).await;
    let calls = [
        (
            "browser",
            json!({"action": "open", "url": format!("http://127.0.0.1:{port}/")}),
        ),
        (
            "browser",
            json!({"action": "screenshot", "path": "shots/greeter.png"}),
        ),
    ];
    rig.send(&calls).await;
    rig.browsers.shutdown().await;
    let results = rig.results();
    assert!(!results[1].2, "{results:?}");
    assert!(
        results[1].1["note"]
            .as_str()
            .unwrap()
            .contains("shots/greeter.png"),
        "{results:?}"
    );
    let requests = rig.server.model_requests();
    let after = &requests.last().unwrap().body;
    let messages = after["messages"].as_array().unwrap();
    let images: Vec<&str> = messages
        .iter()
        .filter(|m| m["role"] == "user")
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter_map(|part| part["image_url"]["url"].as_str())
        .collect();
    assert_eq!(images.len(), 1, "{after}");
    assert!(
        images[0].starts_with("data:image/png;base64,iVBORw0KGgo"),
        "{}",
        &images[0][..40.min(images[0].len())]
    );
    let tool = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert!(!tool["content"].as_str().unwrap().contains("iVBORw0KGgo"));
}
