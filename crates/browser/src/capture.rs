//! Reading a tab's page into the outline tree: one DOM snapshot (boxes, styles, click
//! listeners, frames) and the accessibility tree of every frame, stitched together.

use crate::cdp::{call, CdpFailure};
use crate::snapshot::{build_frame, DomFact, FrameTrees, Node};
use crate::tab::Tab;
use serde_json::{json, Value};
use std::collections::HashMap;

/// One document of the DOM snapshot.
struct Document {
    frame_id: String,
}

fn strings_at<'a>(strings: &'a [Value], index: &Value) -> &'a str {
    index
        .as_i64()
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| strings.get(i))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The facts of every element of every document, and the documents in order.
fn dom_facts(tab: &mut Tab, snapshot: &Value) -> (HashMap<i64, DomFact>, Vec<Document>) {
    let empty = Vec::new();
    let strings = snapshot["strings"].as_array().unwrap_or(&empty);
    let docs = snapshot["documents"].as_array().unwrap_or(&empty);
    let documents: Vec<Document> = docs
        .iter()
        .map(|d| Document {
            frame_id: strings_at(strings, &d["frameId"]).to_string(),
        })
        .collect();
    let mut facts = HashMap::new();
    for doc in docs {
        let nodes = &doc["nodes"];
        let backend = nodes["backendNodeId"].as_array().unwrap_or(&empty);
        let mut per_node: Vec<DomFact> = vec![DomFact::default(); backend.len()];
        let clickable = nodes["isClickable"]["index"].as_array().unwrap_or(&empty);
        for i in clickable.iter().filter_map(Value::as_u64) {
            if let Some(fact) = per_node.get_mut(i as usize) {
                fact.clickable = true;
            }
        }
        if let Some(attributes) = nodes["attributes"].as_array() {
            for (i, attrs) in attributes.iter().enumerate() {
                let pairs = attrs.as_array().unwrap_or(&empty);
                for pair in pairs.chunks(2) {
                    let name = strings_at(strings, &pair[0]);
                    let value = pair.get(1).map_or("", |v| strings_at(strings, v));
                    let scripted = match name {
                        "onclick" | "onmousedown" => true,
                        "tabindex" => value != "-1",
                        "contenteditable" => value != "false",
                        _ => false,
                    };
                    if scripted {
                        if let Some(fact) = per_node.get_mut(i) {
                            fact.clickable = true;
                        }
                    }
                }
            }
        }
        let content = &nodes["contentDocumentIndex"];
        let (idx, val) = (
            content["index"].as_array().unwrap_or(&empty),
            content["value"].as_array().unwrap_or(&empty),
        );
        for (node, doc_index) in idx.iter().zip(val) {
            let (Some(node), Some(doc_index)) = (node.as_u64(), doc_index.as_u64()) else {
                continue;
            };
            if let Some(child) = documents.get(doc_index as usize) {
                let number = tab.frame_number(&child.frame_id, false);
                if let Some(fact) = per_node.get_mut(node as usize) {
                    fact.child_frame = Some(number);
                }
            }
        }
        let layout = &doc["layout"];
        let node_index = layout["nodeIndex"].as_array().unwrap_or(&empty);
        let bounds = layout["bounds"].as_array().unwrap_or(&empty);
        let styles = layout["styles"].as_array().unwrap_or(&empty);
        for ((node, bound), style) in node_index.iter().zip(bounds).zip(styles) {
            let Some(fact) = node.as_u64().and_then(|n| per_node.get_mut(n as usize)) else {
                continue;
            };
            let b: Vec<f64> = bound
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default();
            let style: Vec<&str> = style
                .as_array()
                .map(|a| a.iter().map(|s| strings_at(strings, s)).collect())
                .unwrap_or_default();
            let sized = b.len() == 4 && b[2] > 0.0 && b[3] > 0.0;
            fact.visible = sized && style.first().copied() != Some("hidden");
            fact.pointer = style.get(1).copied() != Some("none");
            if style.get(2).copied() == Some("pointer") {
                fact.clickable = true;
            }
        }
        for (i, id) in backend.iter().enumerate() {
            if let Some(id) = id.as_i64() {
                facts.insert(id, per_node[i]);
            }
        }
    }
    (facts, documents)
}

/// The page's outline tree, every frame stitched under its `iframe`.
pub async fn capture(tab: &mut Tab) -> Result<Node, CdpFailure> {
    tab.sync_document();
    let snapshot = call(
        &tab.page,
        "DOMSnapshot.captureSnapshot",
        json!({"computedStyles": ["visibility", "pointer-events", "cursor"]}),
    )
    .await?;
    let (facts, documents) = dom_facts(tab, &snapshot);
    let page_url = tab.page.url().await.ok().flatten().unwrap_or_default();
    let mut frames = FrameTrees::new();
    for (index, document) in documents.iter().enumerate().rev() {
        let main = index == 0;
        let params = if main {
            json!({})
        } else {
            json!({"frameId": document.frame_id})
        };
        let nodes = match call(&tab.page, "Accessibility.getFullAXTree", params).await {
            Ok(tree) => tree["nodes"].as_array().cloned().unwrap_or_default(),
            Err(error) if !main => {
                tracing::debug!(%error, "a frame's accessibility tree was not read");
                continue;
            }
            Err(error) => return Err(error),
        };
        let number = tab.frame_number(&document.frame_id, main);
        let tree = build_frame(&nodes, number, &facts, &mut frames, &page_url);
        if main {
            return Ok(tree);
        }
        frames.insert(number, tree);
    }
    Ok(Node::element("root", ""))
}
