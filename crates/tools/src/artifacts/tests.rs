#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use hearth_protocol::ArtifactSettings;
use hearth_store::Store;
use serde_json::{json, Value};

use super::register_artifacts;
use crate::channels::{ChannelError, ChannelSink, Delivered, Outbound};
use crate::dialect::Dialect;
use crate::error::{ErrorKind, ToolError};
use crate::registry::Registry;
use crate::tool::ToolContext;

/// A sink that records what it is given; `telegram` takes no files.
#[derive(Default)]
struct Recorder(Mutex<Vec<Outbound>>);

#[async_trait]
impl ChannelSink for Recorder {
    fn supports_files(&self, channel: &str) -> Option<bool> {
        match channel {
            "desktop" => Some(true),
            "telegram" => Some(false),
            _ => None,
        }
    }

    fn names(&self) -> Vec<String> {
        vec!["desktop".into(), "telegram".into()]
    }

    async fn deliver(&self, outbound: Outbound) -> Result<Delivered, ChannelError> {
        let mut sent = self.0.lock().unwrap();
        sent.push(outbound.clone());
        Ok(Delivered {
            session_id: outbound.target.to_string(),
            kind: outbound.target.channel.clone(),
            message_ids: vec![sent.len().to_string()],
        })
    }
}

struct Rig {
    dir: tempfile::TempDir,
    registry: Registry,
    sink: Arc<Recorder>,
}

impl Rig {
    fn new(settings: ArtifactSettings) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(&dir.path().join("hearth.db")).unwrap());
        let sink = Arc::new(Recorder::default());
        let mut registry = Registry::new(Dialect::Hearth);
        register_artifacts(&mut registry, store, sink.clone(), settings).unwrap();
        Rig {
            dir,
            registry,
            sink,
        }
    }

    async fn call(&self, session: &str, tool: &str, args: Value) -> Result<Value, ToolError> {
        let ctx = ToolContext::new(
            self.dir.path().join("workspace"),
            self.dir.path().to_path_buf(),
            session,
        );
        self.registry.dispatch(tool, &args.to_string(), &ctx).await
    }

    async fn create(&self, session: &str, filename: &str) -> String {
        let made = self
            .call(
                session,
                "artifact_create",
                json!({"filename": filename, "title": "T"}),
            )
            .await
            .unwrap();
        made["artifact_id"].as_str().unwrap().to_string()
    }

    async fn append(
        &self,
        session: &str,
        id: &str,
        sequence: u64,
        content: &str,
    ) -> Result<Value, ToolError> {
        self.call(
            session,
            "artifact_append",
            json!({"artifact_id": id, "sequence": sequence, "content": content}),
        )
        .await
    }
}

fn refused(result: Result<Value, ToolError>, field: &str, says: &[&str]) {
    let error = result.unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments, "{error:?}");
    assert_eq!(error.field.as_deref(), Some(field), "{error:?}");
    for words in says {
        assert!(error.message.contains(words), "`{words}` not in {error:?}");
    }
}

const S: &str = "desktop:one";

#[tokio::test]
async fn an_artifact_is_built_in_order_checked_finalized_and_delivered_as_a_file() {
    let rig = Rig::new(ArtifactSettings::default());
    let id = rig.create(S, "report.md").await;
    assert!(id.starts_with("art_") && !id.contains('/'), "{id}");
    let first = rig.append(S, &id, 0, "# 报告\n\n第一段。\n").await.unwrap();
    assert_eq!(
        (first["status"].as_str(), first["next_sequence"].as_u64()),
        (Some("appended"), Some(1))
    );
    let retry = rig.append(S, &id, 0, "# 报告\n\n第一段。\n").await.unwrap();
    assert_eq!(retry["status"], "already_appended");
    assert_eq!(retry["bytes"], first["bytes"]);
    let bytes = first["bytes"].as_u64().unwrap();
    rig.call(
        S,
        "artifact_append",
        json!({"artifact_id": id, "sequence": 1, "content": "Second paragraph.\n", "expected_bytes": bytes}),
    )
    .await
    .unwrap();
    let checked = rig
        .call(S, "artifact_validate", json!({"artifact_id": id}))
        .await
        .unwrap();
    assert_eq!(checked["valid"], true, "{checked}");
    assert_eq!(checked["stats"]["headings"], 1);
    assert_eq!(checked["stats"]["cjk_characters"], 5);
    assert_eq!(checked["stats"]["english_words"], 2);
    assert_eq!(checked["stats"]["paragraphs"], 2);
    let done = rig
        .call(S, "artifact_finalize", json!({"artifact_id": id}))
        .await
        .unwrap();
    assert_eq!(done["state"], "final");
    refused(
        rig.append(S, &id, 2, "more").await,
        "artifact_id",
        &["finalized"],
    );
    let sent = rig
        .call(
            S,
            "artifact_deliver",
            json!({"artifact_id": id, "caption": "Here it is"}),
        )
        .await
        .unwrap();
    assert_eq!(sent["mode"], "file", "{sent}");
    let outbound = rig.sink.0.lock().unwrap().pop().unwrap();
    assert_eq!(outbound.target.to_string(), S);
    assert_eq!(outbound.text, "Here it is");
    assert_eq!(
        outbound.files[0].origin,
        crate::channels::FileOrigin::Artifact(id.clone())
    );
    assert_eq!(
        String::from_utf8(outbound.files[0].bytes.clone()).unwrap(),
        "# 报告\n\n第一段。\nSecond paragraph.\n"
    );
    // The file is in the session's namespace under the data dir.
    let folder = super::session_folder(rig.dir.path(), S).join(&id);
    assert!(folder.join("report.md").is_file());
    assert!(folder.starts_with(rig.dir.path().join("artifacts")));
}

#[tokio::test]
async fn appends_out_of_turn_are_refused_with_the_expected_values() {
    let rig = Rig::new(ArtifactSettings::default());
    let id = rig.create(S, "notes.txt").await;
    refused(
        rig.append(S, &id, 1, "gap").await,
        "sequence",
        &["gap", "expected sequence 0"],
    );
    rig.append(S, &id, 0, "abc").await.unwrap();
    rig.append(S, &id, 1, "def").await.unwrap();
    refused(
        rig.append(S, &id, 0, "xyz").await,
        "sequence",
        &[
            "already holds other content",
            "expected sequence 2 at byte 6",
        ],
    );
    refused(
        rig.append(S, &id, 5, "x").await,
        "sequence",
        &["gap", "expected sequence 2"],
    );
    refused(
        rig.call(
            S,
            "artifact_append",
            json!({"artifact_id": id, "sequence": 2, "content": "x", "expected_bytes": 4}),
        )
        .await,
        "expected_bytes",
        &["has 6 bytes", "next sequence 2"],
    );
    refused(rig.append(S, &id, 2, "").await, "content", &["empty"]);
    let big = "x".repeat(super::MAX_CHUNK_BYTES + 1);
    assert_eq!(
        rig.append(S, &id, 2, &big).await.unwrap_err().kind,
        ErrorKind::TooLarge
    );
    // Another session cannot see it at all.
    let other = rig.append("desktop:two", &id, 2, "x").await.unwrap_err();
    assert_eq!(other.kind, ErrorKind::NotFound, "{other:?}");
    let other = rig
        .call(
            "desktop:two",
            "artifact_validate",
            json!({"artifact_id": id}),
        )
        .await
        .unwrap_err();
    assert_eq!(other.kind, ErrorKind::NotFound);
    let validated = rig
        .call(S, "artifact_validate", json!({"artifact_id": id}))
        .await
        .unwrap();
    assert_eq!(validated["stats"]["characters"], 6, "{validated}");
}

#[tokio::test]
async fn names_extensions_and_malformed_content_are_refused() {
    let rig = Rig::new(ArtifactSettings::default());
    for bad in ["../x.md", "a/b.md", "C:\\x.md", ".md", "run.exe", "noext"] {
        let error = rig
            .call(S, "artifact_create", json!({"filename": bad}))
            .await
            .unwrap_err();
        assert_eq!(error.field.as_deref(), Some("filename"), "{bad}: {error:?}");
    }
    let error = rig
        .call(S, "artifact_create", json!({"filename": "x.exe"}))
        .await
        .unwrap_err();
    assert!(error.message.contains("allowed: md, txt"), "{error:?}");
    let malformed = rig
        .call(S, "artifact_create", json!({"path": "x.md"}))
        .await
        .unwrap_err();
    assert_eq!(malformed.kind, ErrorKind::InvalidArguments);
    let id = rig.create(S, "data.json").await;
    refused(
        rig.call(S, "artifact_finalize", json!({"artifact_id": id}))
            .await,
        "artifact_id",
        &["empty"],
    );
    rig.append(S, &id, 0, "{\n  \"a\": 1,\n").await.unwrap();
    let checked = rig
        .call(S, "artifact_validate", json!({"artifact_id": id}))
        .await
        .unwrap();
    assert_eq!(checked["valid"], false);
    assert_eq!(checked["stats"]["format"]["error"]["line"], 3, "{checked}");
    refused(
        rig.call(S, "artifact_finalize", json!({"artifact_id": id}))
            .await,
        "artifact_id",
        &["not well-formed json", "line 3"],
    );
    refused(
        rig.call(S, "artifact_deliver", json!({"artifact_id": id}))
            .await,
        "artifact_id",
        &["still open"],
    );
    let unknown = rig
        .call(S, "artifact_validate", json!({"artifact_id": "art_nope"}))
        .await;
    assert_eq!(unknown.unwrap_err().kind, ErrorKind::NotFound);
}

#[tokio::test]
async fn a_channel_without_files_gets_numbered_segments_or_a_refusal() {
    let settings = ArtifactSettings {
        max_text_segments: 3,
        ..ArtifactSettings::default()
    };
    let rig = Rig::new(settings);
    let chat = "telegram:42";
    let id = rig.create(chat, "long.txt").await;
    let line = format!("{}\n", "词".repeat(99));
    rig.append(chat, &id, 0, &line.repeat(50)).await.unwrap();
    rig.call(chat, "artifact_finalize", json!({"artifact_id": id}))
        .await
        .unwrap();
    let sent = rig
        .call(
            chat,
            "artifact_deliver",
            json!({"artifact_id": id, "caption": "Report"}),
        )
        .await
        .unwrap();
    assert_eq!(
        (sent["mode"].as_str(), sent["segments"].as_u64()),
        (Some("text_segments"), Some(2)),
        "{sent}"
    );
    let texts: Vec<String> = rig
        .sink
        .0
        .lock()
        .unwrap()
        .iter()
        .map(|o| o.text.clone())
        .collect();
    assert!(
        texts[0].starts_with("Report\n\n[1/2] long.txt\n"),
        "{}",
        &texts[0][..40]
    );
    assert!(texts[1].starts_with("[2/2] long.txt\n"));
    assert_eq!(sent["message_ids"], json!(["1", "2"]));
    let no_text = rig
        .call(
            chat,
            "artifact_deliver",
            json!({"artifact_id": id, "fallback_to_text": false}),
        )
        .await
        .unwrap_err();
    assert_eq!(no_text.kind, ErrorKind::Unavailable, "{no_text:?}");
    let huge = rig.create(chat, "huge.txt").await;
    rig.append(chat, &huge, 0, &line.repeat(200)).await.unwrap();
    rig.call(chat, "artifact_finalize", json!({"artifact_id": huge}))
        .await
        .unwrap();
    let error = rig
        .call(chat, "artifact_deliver", json!({"artifact_id": huge}))
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::TooLarge);
    assert!(
        error.message.contains("needs 6 text segments") && error.message.contains("at most 3"),
        "{error:?}"
    );
}
