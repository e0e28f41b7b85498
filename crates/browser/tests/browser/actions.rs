//! Page actions: forms in English and Chinese, history, frames and shadow roots, SPA routes,
//! dialogs, console, waiting, screenshots, stale refs.

use crate::browser::rig::{ref_of, snapshot, Rig};
use hearth_tools::ErrorKind;
use serde_json::json;

#[tokio::test]
async fn forms_fill_type_select_check_upload_and_submit() {
    let rig = Rig::new().await;
    std::fs::write(rig.ctx.workspace.join("a.txt"), "attached").unwrap();
    std::fs::write(rig.dir.path().join("secret.txt"), "outside").unwrap();
    let outline = rig.open("/form").await;
    assert!(outline.contains("- Page Title: Form"), "{outline}");
    let name = ref_of(&outline, "textbox \"Name\"");
    let city = ref_of(&outline, "textbox \"City\"");
    let size = ref_of(&outline, "combobox \"Size\"");
    let gift = ref_of(&outline, "checkbox \"Gift wrap\"");
    let file = ref_of(&outline, "button \"Attachment\"");

    let filled = rig
        .call(json!({"action": "fill", "ref": name, "text": "张伟"}))
        .await;
    assert!(snapshot(&filled).contains("张伟"), "{filled}");
    rig.call(json!({"action": "fill", "ref": city, "text": "Paris"}))
        .await;
    rig.call(json!({"action": "type", "ref": city, "text": " 北京"}))
        .await;
    let selected = rig
        .call(json!({"action": "select", "ref": size, "values": ["Medium"]}))
        .await;
    assert!(snapshot(&selected).contains("Medium"), "{selected}");
    let checked = rig.call(json!({"action": "click", "ref": gift})).await;
    assert!(snapshot(&checked).contains("[checked]"), "{checked}");
    rig.call(json!({"action": "upload", "ref": file, "paths": ["a.txt"]}))
        .await;
    let outside = rig
        .try_call(json!({"action": "upload", "ref": file, "paths": ["../secret.txt"]}))
        .await
        .unwrap_err();
    assert_eq!(outside.kind, ErrorKind::NotPermitted, "{outside:?}");
    let absolute = rig.dir.path().join("secret.txt").display().to_string();
    let outside = rig
        .try_call(json!({"action": "upload", "ref": file, "paths": [absolute]}))
        .await
        .unwrap_err();
    assert!(
        matches!(
            outside.kind,
            ErrorKind::NotPermitted | ErrorKind::InvalidArguments
        ),
        "{outside:?}"
    );
    rig.call(json!({"action": "press", "key": "Enter", "ref": name}))
        .await;
    let text = rig.text().await;
    assert!(
        text.contains("Hello 张伟 from Paris 北京, size m, gift yes, file a.txt"),
        "{text}"
    );
    let submitted_by_fill = rig
        .call(json!({"action": "fill", "ref": name, "text": "Ada", "press_enter": true}))
        .await;
    assert!(
        snapshot(&submitted_by_fill).contains("Hello Ada"),
        "{submitted_by_fill}"
    );
}

#[tokio::test]
async fn history_goes_back_and_forward() {
    let rig = Rig::new().await;
    let a = rig.open("/a").await;
    let to_b = ref_of(&a, "link \"To B\"");
    let b = rig.call(json!({"action": "click", "ref": to_b})).await;
    assert!(snapshot(&b).contains("heading \"Page B\""), "{b}");
    let back = rig.call(json!({"action": "back"})).await;
    assert!(snapshot(&back).contains("heading \"Page A\""), "{back}");
    let forward = rig.call(json!({"action": "forward"})).await;
    assert!(
        snapshot(&forward).contains("heading \"Page B\""),
        "{forward}"
    );
    assert_eq!(
        rig.call(json!({"action": "get_title"})).await["title"],
        "Page B"
    );
    let error = rig
        .try_call(json!({"action": "forward"}))
        .await
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments, "{error:?}");
}

#[tokio::test]
async fn buttons_in_same_and_cross_origin_frames_and_shadow_roots_click_by_ref() {
    let rig = Rig::new().await;
    rig.open("/frames").await;
    let outline = rig.snapshot().await;
    // The refs of the lines naming `role "name"`, one per frame.
    let refs = |role: &str, name: &str| -> Vec<String> {
        let line = format!("{role} \"{name}\"");
        let found: Vec<String> = outline
            .lines()
            .filter(|l| l.contains(&line))
            .map(|l| ref_of(l, name))
            .collect();
        assert_eq!(found.len(), 2, "{outline}");
        found
    };
    let frame_refs = refs("button", "Frame button");
    assert!(
        frame_refs.iter().all(|r| r.starts_with('f')),
        "{frame_refs:?}"
    );
    let same = rig
        .call(json!({"action": "click", "ref": frame_refs[0]}))
        .await;
    assert!(
        snapshot(&same).contains(&format!("clicked in 127.0.0.1:{}", rig.port)),
        "{same}"
    );
    let cross = rig
        .call(json!({"action": "click", "ref": frame_refs[1]}))
        .await;
    assert!(
        snapshot(&cross).contains("clicked in localhost:"),
        "{cross}"
    );
    // The cross-site frame runs in its own renderer (site isolation is on): typing reaches it
    // through its own session, and its text is read back in the page's outline.
    let notes = refs("textbox", "Frame note");
    let typed = rig
        .call(json!({"action": "fill", "ref": notes[1], "text": "你好"}))
        .await;
    assert!(
        snapshot(&typed).contains("typed 你好 in localhost:"),
        "{typed}"
    );
    let again = rig.snapshot().await;
    assert!(again.contains("你好"), "{again}");
    let shadow = ref_of(&outline, "button \"Shadow button\"");
    let clicked = rig.call(json!({"action": "click", "ref": shadow})).await;
    assert!(snapshot(&clicked).contains("shadow clicked"), "{clicked}");
}

#[tokio::test]
async fn a_pushstate_route_keeps_refs_and_marks_new_elements() {
    let rig = Rig::new().await;
    let outline = rig.open("/spa").await;
    let home = ref_of(&outline, "link \"Home\"");
    let go = ref_of(&outline, "button \"Open settings\"");
    let changed = rig.call(json!({"action": "click", "ref": go})).await;
    let changed = snapshot(&changed);
    assert!(changed.contains("/spa/settings"), "{changed}");
    assert!(changed.contains("heading \"Settings\""), "{changed}");
    assert!(
        changed.contains("textbox \"Nickname\"") && changed.contains("[new]"),
        "{changed}"
    );
    let after = rig.snapshot().await;
    assert_eq!(ref_of(&after, "link \"Home\""), home, "{after}");
}

#[tokio::test]
async fn dialogs_are_reported_and_answered() {
    let rig = Rig::new().await;
    let outline = rig.open("/dialogs").await;
    let alert = ref_of(&outline, "button \"Alert\"");
    let confirm = ref_of(&outline, "button \"Confirm\"");
    let result = rig.call(json!({"action": "click", "ref": alert})).await;
    assert!(
        result["dialogs"][0].as_str().unwrap().contains("Saved!"),
        "{result}"
    );
    assert!(snapshot(&result).contains("after alert"), "{result}");
    let kept = rig.call(json!({"action": "click", "ref": confirm})).await;
    assert!(snapshot(&kept).contains("kept"), "{kept}");
    let confirmed = rig
        .call(json!({"action": "click", "ref": confirm, "accept": true}))
        .await;
    assert!(snapshot(&confirmed).contains("confirmed"), "{confirmed}");
}

#[tokio::test]
async fn console_errors_are_captured_and_wait_sees_text_appear() {
    let rig = Rig::new().await;
    let outline = rig.open("/console").await;
    assert!(outline.contains("- Console: 1 errors"), "{outline}");
    let throw = ref_of(&outline, "button \"Throw\"");
    rig.call(json!({"action": "click", "ref": throw})).await;
    let console = rig.call(json!({"action": "console"})).await;
    let messages = console["messages"].to_string();
    assert!(
        messages.contains("boom on load") && messages.contains("kaboom"),
        "{messages}"
    );
    assert_eq!(
        rig.call(json!({"action": "console"})).await["messages"],
        json!([])
    );
    let later = ref_of(&outline, "button \"Later\"");
    rig.call(json!({"action": "click", "ref": later})).await;
    rig.call(json!({"action": "wait", "text": "Ready now", "timeout_sec": 10}))
        .await;
    assert!(rig.text().await.contains("Ready now"));
    let never = rig
        .try_call(json!({"action": "wait", "text": "Never", "timeout_sec": 1}))
        .await
        .unwrap_err();
    assert_eq!(never.kind, ErrorKind::Timeout, "{never:?}");
    rig.call(json!({"action": "wait", "state": "load"})).await;
}

#[tokio::test]
async fn a_full_page_screenshot_is_taller_than_the_viewport_and_saved() {
    let rig = Rig::new().await;
    rig.open("/tall").await;
    let result = rig
        .call(json!({"action": "screenshot", "full_page": true, "path": "shots/tall.png"}))
        .await;
    let saved = std::fs::read(rig.ctx.workspace.join("shots/tall.png")).unwrap();
    assert_eq!(&saved[..8], b"\x89PNG\r\n\x1a\n");
    assert!(result["height"].as_u64().unwrap() >= 3000, "{result}");
    assert!(
        result["note"].as_str().unwrap().contains("shots/tall.png"),
        "{result}"
    );
    let attached = rig.ctx.images.take();
    match attached.as_slice() {
        [hearth_protocol::ContentPart::Image {
            mime_type, name, ..
        }] => {
            assert_eq!(mime_type, "image/png");
            assert_eq!(name.as_deref(), Some("shots/tall.png"));
        }
        other => panic!("one PNG should be attached: {other:?}"),
    }
    let viewport = rig.call(json!({"action": "screenshot"})).await;
    assert!(viewport["height"].as_u64().unwrap() < 1000, "{viewport}");
    let outside = rig
        .try_call(json!({"action": "screenshot", "path": "../x.png"}))
        .await
        .unwrap_err();
    assert_eq!(outside.kind, ErrorKind::NotPermitted, "{outside:?}");
    let images = rig.call(json!({"action": "get_images"})).await;
    assert_eq!(images["count"], 0);
}

#[tokio::test]
async fn a_stale_ref_is_found_again_after_a_rerender_and_a_gone_one_refused() {
    let rig = Rig::new().await;
    let outline = rig.open("/rerender").await;
    let target = ref_of(&outline, "button \"Target\"");
    rig.call(json!({"action": "click", "ref": ref_of(&outline, "button \"Rerender\"")}))
        .await;
    let clicked = rig.call(json!({"action": "click", "ref": target})).await;
    assert!(snapshot(&clicked).contains("target clicked"), "{clicked}");
    rig.call(json!({"action": "click", "ref": ref_of(&outline, "button \"Remove\"")}))
        .await;
    let error = rig
        .try_call(json!({"action": "click", "ref": target}))
        .await
        .unwrap_err();
    assert_eq!(
        error.message,
        format!("ref {target} is not on the page any more: take a new snapshot")
    );
    let unknown = rig
        .try_call(json!({"action": "click", "ref": "e999"}))
        .await
        .unwrap_err();
    assert_eq!(unknown.kind, ErrorKind::InvalidArguments, "{unknown:?}");
}

#[tokio::test]
async fn script_clickable_elements_get_refs_and_find_filters() {
    let rig = Rig::new().await;
    let outline = rig.open("/scripted").await;
    let card = ref_of(&outline, "Open card");
    let opened = rig.call(json!({"action": "click", "ref": card})).await;
    assert!(snapshot(&opened).contains("card opened"), "{opened}");
    let found = rig
        .call(json!({"action": "snapshot", "find": "card opened"}))
        .await;
    let found = snapshot(&found);
    assert!(
        found.contains("card opened") && !found.contains("Open card"),
        "{found}"
    );
}
