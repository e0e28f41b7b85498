//! Reading a tab's page into the outline tree: the walk (`snapshot/walk.js`) run in Hearth's
//! own isolated world of every frame at once — in the page's session or, for an out-of-process
//! (cross-site) iframe, in that frame's own session — each frame's tree decoded once, and the
//! child frames stitched under the `iframe` elements that own them.

use crate::cdp::CdpFailure;
use crate::snapshot::{build_frame, FrameTrees, Node, Raw, Target};
use crate::tab::{Site, Tab};
use crate::wire::Wire;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;

/// The name of Hearth's isolated world (one per frame, kept by Chrome for the document's life).
const WORLD: &str = "hearth";
/// The walk; evaluated once per document (kept as `globalThis.__hearth` in the world).
const WALK: &str = include_str!("snapshot/walk.js");

/// A frame of the page, its parent and the session it is reached through (`None`: the tab's).
struct Frame {
    id: String,
    parent: Option<String>,
    url: String,
    session: Option<String>,
}

#[derive(Deserialize)]
struct FrameTree {
    frame: FrameInfo,
    #[serde(default, rename = "childFrames")]
    children: Vec<FrameTree>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FrameInfo {
    id: String,
    #[serde(default)]
    parent_id: Option<String>,
    #[serde(default)]
    url: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TreeReply {
    frame_tree: FrameTree,
}

fn flatten(tree: FrameTree, session: &Option<String>, out: &mut Vec<Frame>) {
    out.push(Frame {
        id: tree.frame.id,
        parent: tree.frame.parent_id,
        url: tree.frame.url,
        session: session.clone(),
    });
    for child in tree.children {
        flatten(child, session, out);
    }
}

/// The page's frames, parents before their children: those of the tab's session and of each
/// out-of-process iframe's session (which owns its frame and the frames inside it).
async fn frames(wire: &Wire) -> Result<Vec<Frame>, CdpFailure> {
    let main: TreeReply = wire.call("Page.getFrameTree", json!({})).await?;
    let sessions = wire.frame_sessions();
    let trees = sessions
        .iter()
        .map(|session| wire.call_in::<TreeReply>(Some(session), "Page.getFrameTree", json!({})));
    let mut out = Vec::new();
    flatten(main.frame_tree, &None, &mut out);
    let mut remote = Vec::new();
    for (session, tree) in sessions.iter().zip(futures::future::join_all(trees).await) {
        match tree {
            Ok(tree) => flatten(tree.frame_tree, &Some(session.clone()), &mut remote),
            Err(error) => tracing::debug!(%error, "an iframe's frames were not read"),
        }
    }
    out.retain(|f| !remote.iter().any(|r| r.id == f.id));
    out.extend(remote);
    let depth = |frame: &Frame| {
        let mut depth = 0;
        let mut parent = frame.parent.as_deref();
        while let Some(id) = parent.filter(|_| depth < 32) {
            depth += 1;
            parent = out
                .iter()
                .find(|f| f.id == id)
                .and_then(|f| f.parent.as_deref());
        }
        depth
    };
    let depths: Vec<usize> = out.iter().map(depth).collect();
    let mut ranked: Vec<(usize, Frame)> = depths.into_iter().zip(out).collect();
    ranked.sort_by_key(|(depth, _)| *depth);
    Ok(ranked.into_iter().map(|(_, frame)| frame).collect())
}

/// The execution context of Hearth's world in frame `frame_id`.
async fn world(wire: &Wire, session: Option<&str>, frame_id: &str) -> Result<i64, CdpFailure> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Created {
        execution_context_id: i64,
    }
    let created: Created = wire
        .call_in(
            session,
            "Page.createIsolatedWorld",
            json!({"frameId": frame_id, "worldName": WORLD}),
        )
        .await?;
    Ok(created.execution_context_id)
}

/// `expression` (with `__hearth` the walk's object) evaluated in Hearth's world of `site`.
async fn in_world(
    wire: &Wire,
    site: &Site,
    expression: &str,
    by_value: bool,
) -> Result<Value, CdpFailure> {
    let source = format!("(globalThis.__hearth ??= {WALK}, {expression})");
    let reply: Value = wire
        .call_in(
            site.session.as_deref(),
            "Runtime.evaluate",
            json!({"expression": source, "contextId": site.context, "returnByValue": by_value}),
        )
        .await?;
    if let Some(details) = reply.get("exceptionDetails") {
        return Err(CdpFailure {
            method: "Runtime.evaluate",
            message: details["exception"]["description"]
                .as_str()
                .unwrap_or("the walk failed")
                .to_string(),
        });
    }
    Ok(reply["result"].clone())
}

/// One frame walked: its world and its tree.
async fn walk(wire: &Wire, frame: &Frame) -> Result<(i64, Vec<Raw>), CdpFailure> {
    let session = frame.session.clone();
    let context = world(wire, session.as_deref(), &frame.id).await?;
    let site = Site {
        session,
        context,
        owner: None,
    };
    let result = in_world(wire, &site, "__hearth.snapshot()", true).await?;
    let text = result["value"].as_str().unwrap_or("[]");
    let nodes: Vec<Raw> = serde_json::from_str(text).map_err(|e| CdpFailure {
        method: "Runtime.evaluate",
        message: format!("the walk's reply did not decode: {e}"),
    })?;
    Ok((context, nodes))
}

/// The id, in its parent's walk, of the iframe that shows frame `frame_id`.
async fn owner(wire: &Wire, frame_id: &str, parent: &Site) -> Result<i64, CdpFailure> {
    let session = parent.session.as_deref();
    let owner: Value = wire
        .call_in(session, "DOM.getFrameOwner", json!({"frameId": frame_id}))
        .await?;
    let node: Value = wire
        .call_in(
            session,
            "DOM.resolveNode",
            json!({"backendNodeId": owner["backendNodeId"], "executionContextId": parent.context}),
        )
        .await?;
    let id: Value = wire
        .call_in(
            session,
            "Runtime.callFunctionOn",
            json!({
                "objectId": node["object"]["objectId"],
                "functionDeclaration": "function () { return globalThis.__hearth.idOf(this); }",
                "returnByValue": true,
            }),
        )
        .await?;
    id["result"]["value"].as_i64().ok_or_else(|| CdpFailure {
        method: "Runtime.callFunctionOn",
        message: "the frame's owner has no id".into(),
    })
}

/// The page's outline tree, every frame stitched under its `iframe`.
pub async fn capture(tab: &mut Tab) -> Result<Node, CdpFailure> {
    tab.sync_document();
    let frames = frames(&tab.wire).await?;
    let walks = futures::future::join_all(frames.iter().map(|f| walk(&tab.wire, f))).await;
    let numbers: Vec<u32> = frames
        .iter()
        .map(|f| tab.frame_number(&f.id, f.parent.is_none()))
        .collect();
    let mut sites: HashMap<u32, Site> = HashMap::new();
    let mut trees: Vec<Option<Vec<Raw>>> = Vec::new();
    for ((frame, number), walked) in frames.iter().zip(&numbers).zip(walks) {
        match walked {
            Ok((context, nodes)) => {
                let session = frame.session.clone();
                let site = Site {
                    session,
                    context,
                    owner: None,
                };
                sites.insert(*number, site);
                trees.push(Some(nodes));
            }
            Err(error) if frame.parent.is_none() => return Err(error),
            Err(error) => {
                tracing::debug!(%error, "a frame was not walked");
                trees.push(None);
            }
        }
    }
    let number_of = |id: &str| frames.iter().position(|f| f.id == id).map(|i| numbers[i]);
    let owners = frames.iter().zip(&numbers).filter_map(|(frame, number)| {
        let parent = number_of(frame.parent.as_deref()?)?;
        let site = sites.get(&parent)?;
        let wire = &tab.wire;
        Some(async move { (parent, *number, owner(wire, &frame.id, site).await) })
    });
    let mut stitched = FrameTrees::default();
    for (parent, child, id) in futures::future::join_all(owners).await {
        match id {
            Ok(id) => {
                stitched.owners.insert((parent, id), child);
                if let Some(site) = sites.get_mut(&child) {
                    site.owner = Some(Target { frame: parent, id });
                }
            }
            Err(error) => tracing::debug!(%error, "a frame's owner was not found"),
        }
    }
    tab.sites = sites;
    let page_url = frames.first().map(|f| f.url.clone()).unwrap_or_default();
    let mut main = Node::default();
    for (index, nodes) in trees.into_iter().enumerate().rev() {
        let Some(nodes) = nodes else { continue };
        let tree = build_frame(nodes, numbers[index], &mut stitched, &page_url);
        if index == 0 {
            main = tree;
        } else {
            stitched.trees.insert(numbers[index], tree);
        }
    }
    Ok(main)
}

/// An element found again for an action: the session of its frame and its remote object.
pub struct Element {
    pub session: Option<String>,
    pub object: String,
}

/// The element `target` points at, or `None` when it is gone.
pub async fn element(tab: &Tab, target: Target) -> Option<Element> {
    let site = tab.sites.get(&target.frame)?;
    let expression = format!("__hearth.get({})", target.id);
    let result = in_world(&tab.wire, site, &expression, false).await.ok()?;
    Some(Element {
        session: site.session.clone(),
        object: result["objectId"].as_str()?.to_string(),
    })
}
