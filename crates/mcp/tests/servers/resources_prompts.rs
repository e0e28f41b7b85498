//! Resources and prompts of server-everything: listed (templates too), read (text cut at the
//! cap, a blob saved), read by the model through `mcp_resource_read` (malformed, oversized and
//! unknown-server arguments refused), and its prompts fetched with arguments.

use std::collections::BTreeMap;

use hearth_core::ToolSource;
use hearth_mcp::State;
use hearth_tools::{Dialect, ErrorKind, Registry};

use super::{everything, Rig};

#[tokio::test(flavor = "multi_thread")]
async fn everything_resources_are_listed_read_and_reach_the_model() {
    let rig = Rig::start(&[everything("everything")]).await;
    assert_eq!(rig.state("everything"), State::Ready);
    let listing = rig.manager.resources(Some("everything")).await.unwrap();
    let doc = listing
        .resources
        .iter()
        .find(|r| r.uri.starts_with("demo://resource/static/document/"))
        .unwrap_or_else(|| panic!("{listing:?}"));
    assert_eq!(doc.server, "everything");
    assert!(
        listing
            .templates
            .iter()
            .any(|t| t.uri_template == "demo://resource/dynamic/text/{resourceId}"),
        "{listing:?}"
    );
    // Every server's listing is the same here (one server).
    assert_eq!(rig.manager.resources(None).await.unwrap(), listing);

    let dir = rig.dir.path();
    let text = rig
        .manager
        .read_resource("everything", &doc.uri, 100_000, dir)
        .await
        .unwrap();
    let full = text[0].text.clone().unwrap();
    assert!(!full.is_empty() && !text[0].truncated);
    let cut = rig
        .manager
        .read_resource("everything", &doc.uri, 10, dir)
        .await
        .unwrap();
    assert_eq!(cut[0].text.as_deref().unwrap().chars().count(), 10);
    assert!(cut[0].truncated);

    let blob = rig
        .manager
        .read_resource("everything", "demo://resource/dynamic/blob/1", 100, dir)
        .await
        .unwrap();
    let saved = std::path::Path::new(blob[0].path.as_deref().unwrap());
    assert!(
        saved.starts_with(dir.join(hearth_mcp::MEDIA_DIR)),
        "{blob:?}"
    );
    assert_eq!(
        std::fs::metadata(saved).unwrap().len(),
        blob[0].bytes.unwrap()
    );

    let unknown = rig
        .manager
        .read_resource("nowhere", &doc.uri, 100, dir)
        .await
        .unwrap_err();
    assert_eq!(unknown.kind, ErrorKind::NotFound);

    // The model's tools, through the registry (its argument checks included).
    let mut registry = Registry::new(Dialect::Hearth);
    for tool in rig.manager.tools(1_000_000).listed {
        registry.register_dyn(tool).unwrap();
    }
    let ctx = rig.ctx();
    let listed = registry
        .dispatch("mcp_resources", r#"{"server": "everything"}"#, &ctx)
        .await
        .unwrap();
    assert!(
        listed["resources"].as_array().unwrap().len() >= 2,
        "{listed}"
    );
    let read = registry
        .dispatch(
            "mcp_resource_read",
            r#"{"server": "everything", "uri": "demo://resource/dynamic/text/7"}"#,
            &ctx,
        )
        .await
        .unwrap();
    assert!(
        read["contents"][0]["text"].as_str().unwrap().contains("7"),
        "{read}"
    );
    let malformed = registry
        .dispatch(
            "mcp_resource_read",
            r#"{"server": "everything", "path": "x"}"#,
            &ctx,
        )
        .await
        .unwrap_err();
    assert_eq!(malformed.kind, ErrorKind::InvalidArguments);
    let long_uri = format!(
        r#"{{"server": "everything", "uri": "demo://{}"}}"#,
        "a".repeat(5000)
    );
    let oversized = registry
        .dispatch("mcp_resource_read", &long_uri, &ctx)
        .await
        .unwrap_err();
    assert_eq!(oversized.kind, ErrorKind::InvalidArguments);
    let too_much = registry
        .dispatch(
            "mcp_resource_read",
            r#"{"server": "everything", "uri": "demo://x", "max_chars": 1000000}"#,
            &ctx,
        )
        .await
        .unwrap_err();
    assert_eq!(too_much.kind, ErrorKind::InvalidArguments);
    let elsewhere = registry
        .dispatch(
            "mcp_resource_read",
            r#"{"server": "other", "uri": "file:///etc/passwd"}"#,
            &ctx,
        )
        .await
        .unwrap_err();
    assert_eq!(elsewhere.kind, ErrorKind::NotFound);
    assert!(elsewhere.message.contains("`other`"), "{elsewhere:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn everything_prompts_are_listed_and_fetched_with_arguments() {
    let rig = Rig::start(&[everything("everything")]).await;
    let prompts = rig.manager.prompts(None).await.unwrap();
    let args = prompts
        .iter()
        .find(|p| p.name == "args-prompt")
        .unwrap_or_else(|| panic!("{prompts:?}"));
    assert_eq!(args.server, "everything");
    let city = args.arguments.iter().find(|a| a.name == "city").unwrap();
    let state = args.arguments.iter().find(|a| a.name == "state").unwrap();
    assert!(city.required && !state.required, "{args:?}");

    let filled = BTreeMap::from([("city".to_string(), "Paris".to_string())]);
    let message = rig
        .manager
        .get_prompt("everything", "args-prompt", filled)
        .await
        .unwrap();
    assert_eq!(message.text, "What's weather in Paris?");

    let embedded = BTreeMap::from([
        ("resourceType".to_string(), "Text".to_string()),
        ("resourceId".to_string(), "3".to_string()),
    ]);
    let message = rig
        .manager
        .get_prompt("everything", "resource-prompt", embedded)
        .await
        .unwrap();
    assert!(
        message
            .text
            .contains("Resource `demo://resource/dynamic/text/3`"),
        "{message:?}"
    );

    let missing = rig
        .manager
        .get_prompt("everything", "args-prompt", BTreeMap::new())
        .await
        .unwrap_err();
    assert_eq!(missing.kind, ErrorKind::InvalidArguments, "{missing:?}");
}
