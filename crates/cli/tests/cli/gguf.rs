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

/// Serves `bytes` whole to every connection on 127.0.0.1; returns the port.
async fn file_server(bytes: Vec<u8>) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let bytes = std::sync::Arc::new(bytes);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let bytes = std::sync::Arc::clone(&bytes);
            tokio::spawn(async move {
                let mut request = vec![0u8; 4096];
                let _ = stream.read(&mut request).await;
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    bytes.len()
                );
                let _ = stream.write_all(head.as_bytes()).await;
                let _ = stream.write_all(&bytes).await;
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_is_downloaded_through_the_guard_with_progress() {
    let port = file_server(std::fs::read(builtin_file()).unwrap()).await;
    let url = format!("http://127.0.0.1:{port}/SmolLM2.gguf");
    let cli = Cli::new();
    let out = cli.run(&["models", "download", &url]).await;
    assert_one_line_error(&out, "allow_local").await;
    let models = cli.home.path().join("models");
    assert!(!models.join("SmolLM2.gguf").exists());

    std::fs::create_dir_all(cli.home.path()).unwrap();
    std::fs::write(
        cli.home.path().join("config.toml"),
        format!("allow_local_hosts = [\"127.0.0.1:{port}\"]\n"),
    )
    .unwrap();
    let out = cli.run(&["models", "download", &url]).await;
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(text(&out.stdout).contains("downloaded SmolLM2\t"));
    let tenths = stderr.lines().filter(|l| l.contains(" MB/s")).count();
    assert!(
        stderr.contains("100 %") && (2..=11).contains(&tenths),
        "{stderr}"
    );
    let out = cli.run(&["models", "list", "--json"]).await;
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["name"], "SmolLM2");
    assert_eq!(listed[0]["quantization"], "Q4_1");
}

#[tokio::test]
async fn a_repository_without_a_file_is_refused_in_one_line() {
    let cli = Cli::new();
    let out = cli
        .run(&["models", "download", "Qwen/Qwen3-0.6B-GGUF"])
        .await;
    assert_one_line_error(&out, "needs the file to download (--file NAME.gguf)").await;
}
