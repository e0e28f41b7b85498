//! The sign-in redirect: a one-shot HTTP listener on `127.0.0.1:<random port>` that takes the
//! browser's `GET /callback?code=…&state=…` and answers with a page saying the window may be
//! closed.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The longest request head read from the browser.
const MAX_HEAD: usize = 16 * 1024;

const DONE_PAGE: &str = "<!doctype html><meta charset=utf-8><title>Hearth</title>\
<p>Signed in. You can close this window and return to Hearth.</p>\
<p>已登录。可以关闭此窗口并返回 Hearth。</p>";

pub(crate) struct Loopback {
    listener: TcpListener,
    port: u16,
}

impl Loopback {
    pub async fn bind() -> std::io::Result<Loopback> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        Ok(Loopback { listener, port })
    }

    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    /// Waits for the redirect and returns its full URL; other requests (a favicon) get 404.
    pub async fn callback(self) -> std::io::Result<String> {
        loop {
            let (mut stream, _) = self.listener.accept().await?;
            let mut head = Vec::new();
            let mut buf = [0u8; 2048];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_HEAD {
                let n = stream.read(&mut buf).await?;
                if n == 0 {
                    break;
                }
                head.extend_from_slice(&buf[..n]);
            }
            let text = String::from_utf8_lossy(&head);
            let target = text
                .lines()
                .next()
                .and_then(|line| line.strip_prefix("GET "))
                .and_then(|rest| rest.split(' ').next())
                .unwrap_or("");
            if target.starts_with("/callback?") {
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{DONE_PAGE}",
                    DONE_PAGE.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
                let _ = stream.shutdown().await;
                return Ok(format!("http://127.0.0.1:{}{target}", self.port));
            }
            let _ = stream
                .write_all(
                    b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                )
                .await;
        }
    }
}
