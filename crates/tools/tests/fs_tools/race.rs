//! A folder swapped for a link to the outside in a loop while every file tool runs through
//! it: nothing outside is ever read or written.
#![cfg(unix)]

use crate::fs_tools::{entries, env, mkdir, put, read, symlink, CANARY};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swapping_a_folder_for_a_link_never_leads_outside() {
    let env = env();
    // The decoy outside has the same name as the file inside the swapped folder.
    put(&env.outside().join("file.txt"), CANARY.as_bytes());
    let decoy_time = std::fs::metadata(env.outside().join("file.txt"))
        .and_then(|m| m.modified())
        .ok();
    mkdir(&env.ws("real"));
    put(&env.ws("real/file.txt"), b"inside\n");
    symlink(env.outside(), &env.ws("link"));
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = Arc::new(AtomicUsize::new(0));
    let swapper = {
        let (stop, swaps) = (Arc::clone(&stop), Arc::clone(&swaps));
        let (real, link, swap) = (env.ws("real"), env.ws("link"), env.ws("swap"));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                // `swap` is the real folder, then the link to the outside, then gone, again.
                let _ = std::fs::rename(&real, &swap);
                let _ = std::fs::rename(&swap, &real);
                let _ = std::fs::rename(&link, &swap);
                let _ = std::fs::rename(&swap, &link);
                swaps.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    let calls: Vec<(&str, Value)> = vec![
        ("read_file", json!({"path": "swap/file.txt"})),
        (
            "write_file",
            json!({"path": "swap/file.txt", "content": "written\n"}),
        ),
        (
            "write_file",
            json!({"path": "swap/new/deep.txt", "content": "new\n"}),
        ),
        (
            "write_file",
            json!({"path": "swap/log.txt", "content": "more\n", "append": true}),
        ),
        (
            "edit_file",
            json!({"path": "swap/file.txt", "old_string": "\n", "new_string": "\n", "replace_all": true}),
        ),
        (
            "edit_file",
            json!({"path": "swap/file.txt", "old_string": "CANARY", "new_string": "pwned"}),
        ),
        (
            "patch",
            json!({"file_path": "swap/file.txt", "patch": "<<<<<<< SEARCH\nCANARY: outside the workspace\n=======\npwned\n>>>>>>> REPLACE\n"}),
        ),
        ("list_dir", json!({"path": "swap"})),
        ("search_files", json!({"pattern": "CANARY", "path": "swap"})),
        ("search_files", json!({"pattern": "CANARY"})),
        ("search_files", json!({"pattern": "*.txt", "mode": "glob"})),
    ];
    let (mut ok, mut refused) = (0, 0);
    for round in 0..150 {
        for (tool, args) in &calls {
            match env.call(tool, args).await {
                Ok(mut value) => {
                    ok += 1;
                    if let Some(object) = value.as_object_mut() {
                        object.remove("pattern");
                    }
                    let shown = value.to_string();
                    assert!(
                        !shown.contains("CANARY"),
                        "round {round}: {tool} read outside: {shown}"
                    );
                    assert!(
                        !shown.contains("canary.txt"),
                        "round {round}: {tool} listed outside: {shown}"
                    );
                }
                Err(_) => refused += 1,
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    assert!(
        swaps.load(Ordering::Relaxed) > 100,
        "the swapper barely ran"
    );
    assert!(
        ok > 0 && refused > 0,
        "ok {ok}, refused {refused}: the race was not exercised"
    );
    env.assert_outside_untouched_but(&["file.txt"]);
    assert_eq!(read(&env.outside().join("file.txt")), CANARY.as_bytes());
    let now = std::fs::metadata(env.outside().join("file.txt"))
        .and_then(|m| m.modified())
        .ok();
    assert_eq!(now, decoy_time, "the decoy outside was modified");
    let inside = entries(&env.ws("real"));
    assert!(inside.contains(&"file.txt".to_string()), "{inside:?}");
}
