//! `web_search` against fake SearXNG, Brave and Tavily endpoints on the test server (allowed
//! local), the setup hint when nothing is configured, refusals and bad arguments.

use crate::net_tools::canary::canary;
use crate::net_tools::server::{allow_entry, url};
use crate::net_tools::{allowing, net_with, Net};
use hearth_tools::{Dialect, ErrorKind, NetworkConfig, SearchBackend, SearchConfig};
use serde_json::json;

fn searching(search: SearchConfig) -> Net {
    net_with(
        Dialect::Hearth,
        NetworkConfig {
            search,
            ..allowing(&[&allow_entry()])
        },
    )
}

fn searxng() -> SearchConfig {
    SearchConfig {
        searxng_url: Some(url("/searxng")),
        ..SearchConfig::default()
    }
}

#[tokio::test]
async fn without_a_backend_the_tool_says_how_to_set_one_up() {
    let error = searching(SearchConfig::default())
        .err("web_search", json!({"query": "rust"}))
        .await;
    assert_eq!(error.kind, ErrorKind::Unavailable);
    for named in [
        "Settings → Network",
        "SearXNG",
        "format",
        "allow_local",
        "Brave",
        "Tavily",
    ] {
        assert!(error.message.contains(named), "{named}: {}", error.message);
    }
    let chosen_but_missing = SearchConfig {
        backend: Some(SearchBackend::Brave),
        searxng_url: Some(url("/searxng")),
        brave_api_key: Some("  ".into()),
        ..SearchConfig::default()
    };
    let error = searching(chosen_but_missing)
        .err("web_search", json!({"query": "rust"}))
        .await;
    assert_eq!(error.kind, ErrorKind::Unavailable);
    assert!(error
        .message
        .starts_with("web_search is set to use Brave but no Brave Search API key"));
}

#[tokio::test]
async fn searxng_results_are_listed_and_cleaned() {
    let net = searching(searxng());
    let result = net.ok("web_search", json!({"query": "tomatoes"})).await;
    assert_eq!(result["backend"], "searxng");
    assert_eq!(result["query"], "tomatoes");
    let results = result["results"].as_array().unwrap();
    assert_eq!(results.len(), 5, "default max_results");
    assert_eq!(
        results[0],
        json!({"title": "tomatoes result 1", "url": "https://example.org/1",
               "snippet": "About tomatoes & more (1)"})
    );
    let three = net
        .ok("web_search", json!({"query": "x", "max_results": 3}))
        .await;
    assert_eq!(three["results"].as_array().unwrap().len(), 3);
    // The URL may also be given with its /search path.
    let full = searching(SearchConfig {
        searxng_url: Some(url("/searxng/search")),
        ..SearchConfig::default()
    });
    let result = full
        .ok("web_search", json!({"query": "y", "max_results": 20}))
        .await;
    assert_eq!(
        result["results"].as_array().unwrap().len(),
        8,
        "all the backend had"
    );
}

#[tokio::test]
async fn a_searxng_without_json_or_not_allowed_is_explained() {
    let error = searching(searxng())
        .err("web_search", json!({"query": "forbidden"}))
        .await;
    assert_eq!(error.kind, ErrorKind::Unavailable);
    assert!(error.message.contains("search.formats"), "{error:?}");
    let local = SearchConfig {
        searxng_url: Some(format!("http://127.0.0.1:{}", canary().port())),
        ..SearchConfig::default()
    };
    let error = net_with(
        Dialect::Hearth,
        NetworkConfig {
            search: local,
            ..NetworkConfig::default()
        },
    )
    .err("web_search", json!({"query": "q"}))
    .await;
    assert_eq!(error.kind, ErrorKind::BlockedAddress);
    assert!(
        error
            .message
            .starts_with("the SearXNG service in settings: refused"),
        "{error:?}"
    );
    assert!(error.message.contains("allow_local"), "{error:?}");
    let broken = SearchConfig {
        searxng_url: Some("searx here".into()),
        ..SearchConfig::default()
    };
    let error = searching(broken)
        .err("web_search", json!({"query": "q"}))
        .await;
    assert_eq!(error.kind, ErrorKind::Unavailable);
    assert!(error.message.contains("URL in settings"), "{error:?}");
    canary().assert_untouched();
}

#[tokio::test]
async fn brave_sends_its_key_and_count() {
    let brave = |key: &str| SearchConfig {
        backend: Some(SearchBackend::Brave),
        brave_api_key: Some(key.into()),
        brave_endpoint: Some(url("/brave")),
        searxng_url: Some(url("/searxng")),
        ..SearchConfig::default()
    };
    let result = searching(brave("brave-key"))
        .ok("web_search", json!({"query": "cats", "max_results": 2}))
        .await;
    assert_eq!(result["backend"], "brave");
    assert_eq!(
        result["results"],
        json!([
            {"title": "Brave 1", "url": "https://brave.example/1", "snippet": "cats hit 1"},
            {"title": "Brave 2", "url": "https://brave.example/2", "snippet": "cats hit 2"},
        ])
    );
    let error = searching(brave("wrong"))
        .err("web_search", json!({"query": "cats"}))
        .await;
    assert_eq!(error.kind, ErrorKind::Unavailable);
    assert!(
        error
            .message
            .contains("Brave Search refused the API key (401"),
        "{error:?}"
    );
}

#[tokio::test]
async fn tavily_posts_with_a_bearer_key_and_reports_rate_limits() {
    let tavily = SearchConfig {
        tavily_api_key: Some("tavily-key".into()),
        tavily_endpoint: Some(url("/tavily")),
        ..SearchConfig::default()
    };
    let net = searching(tavily.clone());
    let result = net
        .ok("web_search", json!({"query": "news", "max_results": 4}))
        .await;
    assert_eq!(result["backend"], "tavily");
    assert_eq!(result["results"].as_array().unwrap().len(), 4);
    assert_eq!(result["results"][3]["snippet"], "news");
    let error = net.err("web_search", json!({"query": "busy"})).await;
    assert_eq!(error.kind, ErrorKind::RateLimited);
    let debug = format!("{tavily:?}");
    assert!(
        !debug.contains("tavily-key") && debug.contains("<set>"),
        "{debug}"
    );
}

#[tokio::test]
async fn malformed_arguments_name_the_field() {
    let net = searching(searxng());
    for (args, field) in [
        (json!({}), "query"),
        (json!({"query": ""}), "query"),
        (json!({"query": "   "}), "query"),
        (json!({"query": 3}), "query"),
        (json!({"query": "q", "max_results": 0}), "max_results"),
        (json!({"query": "q", "max_results": 21}), "max_results"),
        (json!({"query": "q", "max_results": "5"}), "max_results"),
        (json!({"query": "q", "engine": "google"}), "engine"),
    ] {
        net.invalid("web_search", args, field).await;
    }
}
