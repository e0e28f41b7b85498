//! `hearth-cli knowledge`: a folder added and indexed, searched in Chinese (one, two and four
//! characters) and English with citations, reindexed incrementally after a change, and removed;
//! and the `knowledge_*` tools through `tools batch`.

use super::*;

fn json_of(out: &Output) -> Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_folder_is_added_indexed_searched_reindexed_and_removed() {
    let cli = Cli::new();
    let folder = cli.home.path().join("notes");
    std::fs::create_dir_all(&folder).unwrap();
    let filler: String = (1..=80)
        .map(|n| format!("line {n} of the meeting notes\n"))
        .collect();
    std::fs::write(
        folder.join("meeting.md"),
        format!("{filler}预算审批：下周完成。\n"),
    )
    .unwrap();
    std::fs::write(
        folder.join("trip.txt"),
        "去北京出差，住在海淀。\nFlight at nine.\n",
    )
    .unwrap();
    let added = cli
        .run(&["knowledge", "add", folder.to_str().unwrap()])
        .await;
    assert!(added.status.success(), "{}", text(&added.stderr));
    assert!(
        text(&added.stdout).contains("indexed 2 files"),
        "{}",
        text(&added.stdout)
    );

    let status = json_of(&cli.run(&["knowledge", "status", "--json"]).await);
    assert_eq!(status["files"], 2, "{status}");
    let folders = status["folders"].as_array().unwrap();
    assert_eq!(folders.len(), 2, "the default folder stays: {status}");

    let search = |q: &'static str| {
        let cli = &cli;
        async move { json_of(&cli.run(&["knowledge", "search", q, "--json"]).await) }
    };
    let one = search("海").await;
    assert_eq!(
        one["results"][0]["citation"], "trip.txt, lines 1-2",
        "{one}"
    );
    let two = search("预算").await;
    let cited = two["results"][0]["citation"].as_str().unwrap();
    assert!(
        cited.starts_with("meeting.md, lines ") && cited.ends_with("-81"),
        "{two}"
    );
    assert_eq!(search("预算审批").await["results"][0]["last"], 81);
    assert_eq!(
        search("flight").await["results"][0]["citation"],
        "trip.txt, lines 1-2"
    );
    let plain = cli.run(&["knowledge", "search", "北京"]).await;
    assert!(
        text(&plain.stdout).starts_with("[trip.txt, lines 1-2] 去北京出差"),
        "{}",
        text(&plain.stdout)
    );

    std::fs::write(folder.join("trip.txt"), "改去上海。\n").unwrap();
    let rebuilt = cli.run(&["knowledge", "rebuild"]).await;
    assert!(
        text(&rebuilt.stdout).contains("indexed 1 files, 1 unchanged"),
        "{}",
        text(&rebuilt.stdout)
    );
    assert_eq!(search("海淀").await["results"], json!([]));

    let removed = cli
        .run(&["knowledge", "remove", folder.to_str().unwrap()])
        .await;
    assert!(
        text(&removed.stdout).contains("2 removed"),
        "{}",
        text(&removed.stdout)
    );
    assert_eq!(
        json_of(&cli.run(&["knowledge", "status", "--json"]).await)["files"],
        0
    );
    let missing = cli.run(&["knowledge", "remove", "/no/such/folder"]).await;
    assert_one_line_error(&missing, "is not a knowledge folder").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_knowledge_tools_run_through_tools_batch() {
    let cli = Cli::new();
    let folder = cli.home.path().join("workspace/knowledge");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("faq.md"), "# 常见问题\n\n退货期限是三十天。\n").unwrap();
    let file = cli.home.path().join("calls.jsonl");
    std::fs::write(
        &file,
        [
            r#"{"name":"knowledge_search","arguments":{"query":"退货"}}"#,
            r#"{"name":"knowledge_index","arguments":{"action":"rebuild"}}"#,
            r#"{"name":"knowledge_search","arguments":{"query":"退货","max_results":3}}"#,
            r#"{"name":"knowledge_search","arguments":{"query":"   "}}"#,
            r#"{"name":"knowledge_search","arguments":{"query":"x","max_results":500}}"#,
            r#"{"name":"knowledge_index","arguments":{"action":"status"}}"#,
        ]
        .join("\n"),
    )
    .unwrap();
    let out = cli.run(&["tools", "batch", file.to_str().unwrap()]).await;
    let r: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(r[0]["error"]["kind"], "unavailable", "{}", r[0]);
    assert!(r[0]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("knowledge base is empty"));
    assert_eq!(r[1]["result"]["rebuild"], "done", "{}", r[1]);
    assert_eq!(r[1]["result"]["report"]["indexed"], 1);
    assert_eq!(
        r[2]["result"]["results"][0]["citation"], "faq.md, lines 1-3",
        "{}",
        r[2]
    );
    assert!(r[2]["result"]["results"][0]["snippet"]
        .as_str()
        .unwrap()
        .contains("退货期限"));
    assert_eq!(r[3]["error"]["kind"], "invalid_arguments", "{}", r[3]);
    assert_eq!(r[4]["error"]["kind"], "invalid_arguments", "{}", r[4]);
    assert_eq!(r[5]["result"]["status"]["files"], 1, "{}", r[5]);
}
