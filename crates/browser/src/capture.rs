//! Reading a tab's page into the outline tree: one DOM snapshot (boxes, styles, click
//! listeners, frames) and the accessibility tree of every frame, asked for together on the
//! tab's raw connection and decoded once into typed structs, then stitched together.

use crate::cdp::CdpFailure;
use crate::snapshot::ax::AxNode;
use crate::snapshot::{build_frame, DomFact, FrameTrees, Node};
use crate::tab::Tab;
use crate::wire::decode;
use serde::Deserialize;
use serde_json::json;
use std::borrow::Cow;
use std::collections::HashMap;

const SNAPSHOT: &str = "DOMSnapshot.captureSnapshot";
const AX_TREE: &str = "Accessibility.getFullAXTree";

/// `DOMSnapshot.captureSnapshot`'s reply, only what the facts need.
#[derive(Deserialize)]
struct DomSnapshot<'a> {
    documents: Vec<Document>,
    #[serde(borrow)]
    strings: Vec<Str<'a>>,
}

#[derive(Deserialize)]
struct Str<'a>(#[serde(borrow)] Cow<'a, str>);

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Document {
    frame_id: i64,
    nodes: Nodes,
    layout: Layout,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Nodes {
    backend_node_id: Vec<i64>,
    attributes: Vec<Vec<i64>>,
    is_clickable: Rare,
    content_document_index: Rare,
}

/// A sparse per-node column: the nodes that have it and (for integer columns) the values.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Rare {
    index: Vec<usize>,
    value: Vec<usize>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Layout {
    node_index: Vec<usize>,
    bounds: Vec<Vec<f64>>,
    styles: Vec<Vec<i64>>,
}

#[derive(Deserialize)]
struct AxTree<'a> {
    #[serde(borrow)]
    nodes: Vec<AxNode<'a>>,
}

impl DomSnapshot<'_> {
    fn string(&self, index: i64) -> &str {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.strings.get(i))
            .map_or("", |s| s.0.as_ref())
    }
}

/// The facts of every element of every document, and each document's frame id in order.
fn dom_facts(tab: &mut Tab, snapshot: &DomSnapshot) -> (HashMap<i64, DomFact>, Vec<String>) {
    let frame_ids: Vec<String> = snapshot
        .documents
        .iter()
        .map(|d| snapshot.string(d.frame_id).to_string())
        .collect();
    let mut facts = HashMap::new();
    for doc in &snapshot.documents {
        let nodes = &doc.nodes;
        let mut per_node: Vec<DomFact> = vec![DomFact::default(); nodes.backend_node_id.len()];
        let mut mark = |i: usize| {
            if let Some(fact) = per_node.get_mut(i) {
                fact.clickable = true;
            }
        };
        for &i in &nodes.is_clickable.index {
            mark(i);
        }
        for (i, attrs) in nodes.attributes.iter().enumerate() {
            for pair in attrs.chunks(2) {
                let value = pair.get(1).map_or("", |v| snapshot.string(*v));
                let scripted = match snapshot.string(pair[0]) {
                    "onclick" | "onmousedown" => true,
                    "tabindex" => value != "-1",
                    "contenteditable" => value != "false",
                    _ => false,
                };
                if scripted {
                    mark(i);
                }
            }
        }
        let content = &nodes.content_document_index;
        for (&node, &doc_index) in content.index.iter().zip(&content.value) {
            if let Some(child) = frame_ids.get(doc_index) {
                let number = tab.frame_number(child, false);
                if let Some(fact) = per_node.get_mut(node) {
                    fact.child_frame = Some(number);
                }
            }
        }
        let layout = &doc.layout;
        for ((&node, b), style) in layout
            .node_index
            .iter()
            .zip(&layout.bounds)
            .zip(&layout.styles)
        {
            let Some(fact) = per_node.get_mut(node) else {
                continue;
            };
            let style = |k: usize| style.get(k).map(|s| snapshot.string(*s));
            let sized = b.len() == 4 && b[2] > 0.0 && b[3] > 0.0;
            fact.visible = sized && style(0) != Some("hidden");
            fact.pointer = style(1) != Some("none");
            if style(2) == Some("pointer") {
                fact.clickable = true;
            }
        }
        for (fact, &id) in per_node.into_iter().zip(&nodes.backend_node_id) {
            facts.insert(id, fact);
        }
    }
    (facts, frame_ids)
}

/// The page's outline tree, every frame stitched under its `iframe`.
pub async fn capture(tab: &mut Tab) -> Result<Node, CdpFailure> {
    tab.sync_document();
    let styles = json!({"computedStyles": ["visibility", "pointer-events", "cursor"]});
    let (snapshot, main_tree, page_url) = tokio::join!(
        tab.wire.call_text(SNAPSHOT, styles),
        tab.wire.call_text(AX_TREE, json!({})),
        tab.page.url(),
    );
    let (snapshot, main_tree) = (snapshot?, main_tree?);
    let page_url = page_url.ok().flatten().unwrap_or_default();
    let snapshot: DomSnapshot = decode(SNAPSHOT, &snapshot)?;
    let (facts, frame_ids) = dom_facts(tab, &snapshot);
    let children = frame_ids
        .iter()
        .skip(1)
        .map(|frame_id| tab.wire.call_text(AX_TREE, json!({"frameId": frame_id})));
    let child_trees = futures::future::join_all(children).await;
    let mut frames = FrameTrees::new();
    for (frame_id, text) in frame_ids.iter().skip(1).zip(child_trees).rev() {
        let number = tab.frame_number(frame_id, false);
        let tree = text.and_then(|text| {
            let tree: AxTree = decode(AX_TREE, &text)?;
            Ok(build_frame(
                &tree.nodes,
                number,
                &facts,
                &mut frames,
                &page_url,
            ))
        });
        match tree {
            Ok(tree) => {
                frames.insert(number, tree);
            }
            Err(error) => tracing::debug!(%error, "a frame's accessibility tree was not read"),
        }
    }
    let main: AxTree = decode(AX_TREE, &main_tree)?;
    Ok(build_frame(&main.nodes, 0, &facts, &mut frames, &page_url))
}
