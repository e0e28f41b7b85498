//! Benchmark: loading a library of 200 installed skills (100 Agent Skills, 100 CeeCore, with
//! realistic descriptions) and building the system-prompt catalogue from it: p50/p95 of the
//! load over repeated runs, and the catalogue's token estimate in all and per listed skill.
// A benchmark is test code: it reports on stderr and fails loudly on any error.
#![allow(clippy::print_stderr, clippy::unwrap_used)]

use hearth_skills::{prompt_catalogue, Library, SkillRoots};
use std::time::{Duration, Instant};

const SKILLS: usize = 200;
const RUNS: usize = 100;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("skills");
    for i in 0..SKILLS {
        let name = format!("skill-{i:03}");
        let folder = root.join(&name);
        std::fs::create_dir_all(folder.join("scripts")).unwrap();
        let description = format!(
            "Handles task family {i}: reads the relevant files, calls the service, and writes a \
             short report. Use when the user asks about topic {i}."
        );
        if i % 2 == 0 {
            std::fs::write(
                folder.join("SKILL.md"),
                format!(
                    "---\nname: {name}\ndescription: \"{description}\"\nallowed-tools: read_file \
                     write_file\n---\n\n# {name}\n\n{}",
                    "Step by step instructions.\n".repeat(100)
                ),
            )
            .unwrap();
        } else {
            std::fs::write(
                folder.join("manifest.json"),
                serde_json::json!({"name": name, "version": "1.0.0", "description": description,
                                   "permissions": ["http", "file"]})
                .to_string(),
            )
            .unwrap();
            std::fs::write(folder.join("prompt.md"), "Do the task.\n".repeat(100)).unwrap();
        }
    }
    let roots = SkillRoots {
        data_dir: dir.path().to_path_buf(),
        workspace: None,
    };
    let mut times = Vec::with_capacity(RUNS);
    let mut catalogue = String::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        let library = Library::load(&roots).unwrap();
        catalogue = prompt_catalogue(&library.skills).unwrap();
        times.push(started.elapsed());
        assert_eq!(library.skills.len(), SKILLS, "{:?}", library.broken);
    }
    times.sort();
    let listed = catalogue.lines().filter(|l| l.starts_with("- ")).count();
    let tokens = catalogue.len().div_ceil(4);
    eprintln!(
        "load + catalogue of {SKILLS} skills: p50 {:?}, p95 {:?} ({RUNS} runs); catalogue ~{tokens} \
         tokens listing {listed} skills (~{} tokens each), the rest counted",
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        tokens / listed.max(1)
    );
}
