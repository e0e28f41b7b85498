//! `hearth-cli models …` and `--provider local`: the built-in GGUF model (from `scripts/setup.sh`)
//! imported, described, chatted with through a real llama.cpp worker, and removed; files that are
//! not models refused in one line; no worker left once the CLI has exited.

use hearth_tests::processes::live_model_workers;

use super::*;

const BUILTIN: &str = "SmolLM2-135M-Instruct.Q4_1";

fn builtin_file() -> PathBuf {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/models")
        .join(format!("{BUILTIN}.gguf"));
    assert!(
        file.is_file(),
        "{} is missing: run scripts/setup.sh",
        file.display()
    );
    file
}

#[tokio::test(flavor = "multi_thread")]
async fn the_builtin_model_is_imported_chatted_with_and_removed() {
    let cli = Cli::new();
    let file = builtin_file();
    let out = cli
        .run(&["models", "import", file.to_str().unwrap(), "--link"])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(BUILTIN));

    let out = cli.run(&["models", "list", "--json"]).await;
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["name"], BUILTIN);
    assert_eq!(listed[0]["builtin"], true);
    assert_eq!(listed[0]["quantization"], "Q4_1");
    let out = cli.run(&["models", "info", BUILTIN]).await;
    assert!(
        text(&out.stdout).contains("llama\t135M\tQ4_1\tcontext 8192"),
        "{}",
        text(&out.stdout)
    );

    let out = cli
        .run(&[
            "--provider",
            "local",
            "--model",
            BUILTIN,
            "chat",
            "What is the capital of France?",
        ])
        .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Paris"), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    let counts = stderr
        .lines()
        .find_map(|l| l.strip_prefix("[1 iteration(s), "))
        .unwrap_or_else(|| panic!("no usage line: {stderr}"));
    let input: u64 = counts.split(' ').next().unwrap().parse().unwrap();
    assert!(input > 20 && counts.contains(" output tokens]"), "{counts}");
    // The CLI has exited: its worker with it.
    let program = Path::new(env!("CARGO_BIN_EXE_hearth-cli"));
    assert!(
        live_model_workers(program).is_empty(),
        "workers left: {:?}",
        live_model_workers(program)
    );

    let out = cli.run(&["models", "remove", BUILTIN]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(file.is_file(), "a linked model's file stays");
    let out = cli
        .run(&["--provider", "local", "--model", BUILTIN, "chat", "Hi"])
        .await;
    assert_one_line_error(&out, "no local model named 'SmolLM2-135M-Instruct.Q4_1'").await;
}

#[tokio::test]
async fn a_file_that_is_not_a_model_is_refused_in_one_line() {
    let cli = Cli::new();
    let notes = cli.home.path().join("notes.gguf");
    std::fs::write(&notes, "shopping list").unwrap();
    let out = cli
        .run(&["models", "import", notes.to_str().unwrap()])
        .await;
    assert_one_line_error(
        &out,
        "notes.gguf cannot be used as a local model: it is not a GGUF model",
    )
    .await;
    let out = cli.run(&["models", "list"]).await;
    assert!(
        text(&out.stdout).contains("no models in"),
        "{}",
        text(&out.stdout)
    );
}
