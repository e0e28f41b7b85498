//! Redirects from an allowed server to private targets are returned as they are, never
//! followed, by `http_request` and `web_fetch` alike.

use crate::net_tools::canary::canary;
use crate::net_tools::net;
use crate::net_tools::server::url;
use serde_json::json;

fn redirect_url(code: u16, to: &str) -> String {
    let mut target = url::Url::parse(&url(&format!("/redirect/{code}"))).unwrap();
    target.query_pairs_mut().append_pair("to", to);
    target.to_string()
}

#[tokio::test]
async fn redirects_to_private_targets_are_returned_not_followed() {
    let net = net();
    let canary_url = format!("http://127.0.0.1:{}/secret", canary().port());
    let targets = [
        canary_url.as_str(),
        "http://169.254.169.254/latest/meta-data/iam/",
        "http://[::1]/",
    ];
    for code in [301, 302, 303, 307, 308] {
        for to in targets {
            for method in ["GET", "POST", "HEAD"] {
                let args = json!({"url": redirect_url(code, to), "method": method});
                let result = net.ok("http_request", args).await;
                assert_eq!(result["status"], code);
                assert_eq!(result["headers"]["location"], to);
                let note = result["note"].as_str().unwrap_or_default();
                assert!(note.contains("redirects are not followed"), "{result}");
            }
            let fetched = net
                .ok("web_fetch", json!({"url": redirect_url(code, to)}))
                .await;
            assert_eq!(fetched["status"], code);
            assert_eq!(fetched["redirect_to"], to);
        }
    }
    canary().assert_untouched();
}

#[tokio::test]
async fn a_followed_redirect_is_a_new_guarded_request() {
    let net = net();
    let to = format!("http://127.0.0.1:{}/", canary().port());
    let result = net
        .ok("web_fetch", json!({"url": redirect_url(302, &to)}))
        .await;
    let next = result["redirect_to"].as_str().unwrap().to_string();
    net.blocked("web_fetch", json!({"url": next})).await;
    canary().assert_untouched();
}
