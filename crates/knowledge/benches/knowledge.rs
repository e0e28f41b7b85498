//! Knowledge base benchmarks: indexing throughput (MB/s) over a folder of Markdown notes in
//! English and Chinese, and `knowledge_search` latency (p50, p95) at 10,000 chunks over English
//! words, Chinese words of one, two and four characters and mixed queries. Prints one line per
//! measure.
#![allow(clippy::unwrap_used, clippy::print_stdout)]

use std::sync::Arc;
use std::time::Instant;

use hearth_knowledge::Knowledge;
use hearth_store::Store;

const WORDS: &[&str] = &[
    "revenue", "budget", "planning", "forecast", "market", "customer", "release", "quarter",
    "engine", "storage", "network", "design", "review", "summary", "report", "project",
];
const CJK: &[&str] = &[
    "季度", "销售", "报告", "收入", "增长", "预算", "市场", "客户", "发布", "设计", "网络", "存储",
    "项目", "总结", "计划", "北京", "上海", "研发",
];

/// A deterministic paragraph (`seed` picks the words).
fn paragraph(seed: usize) -> String {
    let mut out = String::new();
    for i in 0..40 {
        let n = seed.wrapping_mul(2654435761).wrapping_add(i * 40503) % 997;
        out.push_str(WORDS[n % WORDS.len()]);
        out.push(' ');
        out.push_str(CJK[n % CJK.len()]);
        out.push_str(if i % 8 == 7 { "。\n" } else { "，" });
    }
    out
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let home = tempfile::tempdir().unwrap();
    let folder = home.path().join("knowledge");
    std::fs::create_dir_all(&folder).unwrap();
    // 1,000 files × 10 chunks of about 1,200 characters: 10,000 chunks.
    let mut bytes = 0;
    for file in 0..1000 {
        let text: String = (0..10)
            .map(|c| format!("{}\n\n", paragraph(file * 10 + c)))
            .collect();
        bytes += text.len();
        std::fs::write(folder.join(format!("note-{file:04}.md")), text).unwrap();
    }
    let store = Arc::new(Store::open(&home.path().join("hearth.db")).unwrap());
    let knowledge = Knowledge::new(store);
    knowledge.set_folders(vec![folder]);
    let started = Instant::now();
    let report = runtime.block_on(knowledge.index()).unwrap();
    let seconds = started.elapsed().as_secs_f64();
    let status = knowledge.status().unwrap();
    println!(
        "knowledge index: {} files, {} chunks, {:.1} MB in {:.2} s = {:.2} MB/s",
        report.indexed,
        status.chunks,
        bytes as f64 / 1e6,
        seconds,
        bytes as f64 / 1e6 / seconds
    );
    let queries = [
        "revenue",
        "季",
        "预算",
        "季度销售",
        "market 市场",
        "forecast review",
        "北京研发",
    ];
    let mut times = Vec::new();
    for round in 0..30 {
        for query in queries {
            let started = Instant::now();
            let hits = runtime.block_on(knowledge.search(query, 5)).unwrap();
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            assert!(!hits.is_empty() || round > 0, "{query} found nothing");
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "knowledge_search at {} chunks: p50 {:.2} ms, p95 {:.2} ms ({} searches)",
        status.chunks,
        at(0.5),
        at(0.95),
        times.len()
    );
}
