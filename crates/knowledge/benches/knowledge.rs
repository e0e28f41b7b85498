//! Knowledge base benchmarks: indexing throughput (MB/s) over a folder of Markdown notes in
//! English-like words and Chinese (a vocabulary of about 12,000 words), and `knowledge_search`
//! latency (p50, p95) at 10,000 chunks over English words, Chinese words of one, two and four
//! characters and mixed queries. Prints one line per measure, then each query's median and
//! slowest search.
#![allow(clippy::unwrap_used, clippy::print_stdout)]

use std::sync::Arc;
use std::time::Instant;

use hearth_knowledge::Knowledge;
use hearth_store::Store;

const SYLLABLES: &[&str] = &[
    "re", "ven", "bud", "get", "plan", "fore", "cast", "mar", "ket", "cus", "tom", "lease", "qua",
    "ter", "en", "gine", "stor", "age", "net", "work", "de", "sign", "view", "sum", "ma", "ry",
];
const HANZI: &str = "季度销售报告收入增长预算市场客户发布设计网络存储项目总结计划北京上海研发会议审批产品质量用户数据分析系统服务安全风险成本利润团队目标合同采购物流库存价格";

/// A word of the corpus: 26 × 26 × 26 English-like words and pairs of 60 Chinese characters,
/// picked by `n` (a realistic vocabulary, so a query matches some chunks, not all).
fn word(n: usize) -> String {
    let hanzi: Vec<char> = HANZI.chars().collect();
    if n.is_multiple_of(3) {
        let a = hanzi[n / 3 % hanzi.len()];
        let b = hanzi[n / 7 % hanzi.len()];
        format!("{a}{b}")
    } else {
        let s = SYLLABLES;
        format!(
            "{}{}{}",
            s[n % s.len()],
            s[n / 26 % s.len()],
            s[n / 676 % s.len()]
        )
    }
}

/// A deterministic paragraph (`seed` picks the words).
fn paragraph(seed: usize) -> String {
    let mut out = String::new();
    for i in 0..80 {
        let n = seed.wrapping_mul(2654435761).wrapping_add(i * 40503) % 17_576;
        out.push_str(&word(n));
        out.push_str(if i % 10 == 9 { "。\n" } else { " " });
    }
    out
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let home = tempfile::tempdir().unwrap();
    let folder = home.path().join("knowledge");
    std::fs::create_dir_all(&folder).unwrap();
    // 1,667 files × 6 chunks of about 1,200 characters: 10,000 chunks.
    let mut bytes = 0;
    for file in 0..1667 {
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
    let status = runtime.block_on(knowledge.status()).unwrap();
    println!(
        "knowledge index: {} files, {} chunks, {:.1} MB in {:.2} s = {:.2} MB/s",
        report.indexed,
        status.chunks,
        bytes as f64 / 1e6,
        seconds,
        bytes as f64 / 1e6 / seconds
    );
    // One and two Chinese characters, four (two words), English words, and mixed.
    let queries = [
        "季",
        "预算",
        "季度销售",
        "revenbud",
        "planforecast castmarket",
        "计划 castmarket",
        "北京研发",
    ];
    let mut times = Vec::new();
    let mut per_query = vec![Vec::new(); queries.len()];
    for round in 0..30 {
        for (i, query) in queries.iter().enumerate() {
            let started = Instant::now();
            let hits = runtime.block_on(knowledge.search(query, 5)).unwrap();
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            times.push(ms);
            per_query[i].push(ms);
            assert!(!hits.is_empty() || round > 0, "{query} found nothing");
        }
    }
    println!(
        "knowledge_search at {} chunks: p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms ({} searches)",
        status.chunks,
        quantile(&mut times, 0.5),
        quantile(&mut times, 0.95),
        quantile(&mut times, 1.0),
        times.len()
    );
    for (query, mut times) in queries.iter().zip(per_query) {
        println!(
            "  {query}: p50 {:.2} ms, max {:.2} ms",
            quantile(&mut times, 0.5),
            quantile(&mut times, 1.0)
        );
    }
}

/// The `q` quantile (0 to 1) of `times`, nearest rank.
fn quantile(times: &mut [f64], q: f64) -> f64 {
    times.sort_by(f64::total_cmp);
    times[((times.len() as f64 - 1.0) * q).round() as usize]
}
