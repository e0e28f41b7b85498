//! Showing the authorization page: the system browser for people, or [`FollowRedirects`] for
//! headless clients and tests (the page is fetched and its redirect followed, as an
//! authorization server that needs no login answers).

use futures::future::BoxFuture;

/// Opens an authorization URL; the sign-in completes when the page redirects to Hearth's
/// loopback address.
pub trait Browser: Send + Sync {
    fn open<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<(), String>>;
}

/// The user's default browser (`xdg-open`, `open`, or `start`).
pub struct SystemBrowser;

impl Browser for SystemBrowser {
    fn open<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let mut command = if cfg!(target_os = "macos") {
                tokio::process::Command::new("open")
            } else if cfg!(windows) {
                let mut start = tokio::process::Command::new("cmd");
                start.args(["/C", "start", ""]);
                start
            } else {
                tokio::process::Command::new("xdg-open")
            };
            // The browser it opens is the user's: it outlives Hearth.
            let status = hearth_children::spawn_detached(command.arg(url))
                .map_err(|e| format!("cannot start the browser: {e}"))?
                .wait()
                .await
                .map_err(|e| format!("cannot start the browser: {e}"))?;
            if status.success() {
                Ok(())
            } else {
                Err(format!("the browser opener exited with {status}"))
            }
        })
    }
}

/// Fetches the authorization URL without a browser and follows each redirect by hand (at
/// most a few), ending at Hearth's loopback callback.
pub struct FollowRedirects;

const MAX_REDIRECTS: usize = 5;

impl Browser for FollowRedirects {
    fn open<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            let client = hearth_net::http::client_builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|e| e.to_string())?;
            let mut next = url.to_string();
            for _ in 0..MAX_REDIRECTS {
                let response = client
                    .get(&next)
                    .send()
                    .await
                    .map_err(|e| format!("GET {next}: {e}"))?;
                let Some(location) = response.headers().get(reqwest::header::LOCATION) else {
                    return if response.status().is_success() {
                        Ok(())
                    } else {
                        Err(format!("GET {next}: {}", response.status()))
                    };
                };
                let location = location.to_str().map_err(|e| e.to_string())?;
                next = reqwest::Url::parse(&next)
                    .and_then(|base| base.join(location))
                    .map_err(|e| format!("redirect to `{location}`: {e}"))?
                    .to_string();
            }
            Err(format!("more than {MAX_REDIRECTS} redirects"))
        })
    }
}
