//! Benchmark: memory search, the system-prompt selection and `add_memory` (with its duplicate
//! and contradiction checks) on stores of 1,000 and 10,000 generated memories (English, Chinese
//! and mixed, word frequencies skewed like real text), plus timeline search over 2,000 session
//! summaries.
// A benchmark is test code: it reports on stderr and fails loudly on any error.
#![allow(clippy::print_stderr, clippy::unwrap_used)]

use std::time::{Duration, Instant};

use criterion::Criterion;
use hearth_store::{MemoryFilter, MemorySource, NewMemory, NewSession, Store};

const MEMORIES: usize = 10_000;
const SUMMARIES: usize = 2_000;

const ENGLISH: &str = "prefers dark roast coffee tea works remote office Berlin project deadline \
    Friday meeting morning evening server backup laptop editor vim rust python daughter son \
    birthday allergic peanuts vegetarian running cycling music jazz piano travel Japan budget \
    invoice client report weekly language English German timezone password manager calendar \
    doctor dentist gym apartment rent landlord car bike train flight hotel passport visa bank \
    account salary tax insurance health sleep diet breakfast lunch dinner recipe cooking garden \
    plants dog cat vet school teacher homework exam university thesis paper conference talk \
    slides deploy cluster database postgres redis docker kubernetes linux windows macos phone \
    android iphone email newsletter podcast book novel author movie series football tennis \
    swimming yoga meditation therapist medication vitamins coffee-shop bakery market groceries \
    wine beer whisky chocolate spicy food sushi pizza pasta noodles ramen curry mother father \
    sister brother wife husband partner friend neighbour colleague boss team startup company \
    contract freelance invoice-template accounting spreadsheet notes journal habit goal \
    reading writing drawing photography camera lens guitar violin concert festival museum";

const CHINESE: &str = "用户 喜欢 绿茶 咖啡 每天 早上 晚上 项目 会议 周五 北京 上海 女儿 儿子 生日 \
    过敏 花生 素食 跑步 音乐 钢琴 旅行 日本 预算 客户 报告 服务器 备份 电脑 编辑器 公寓 房租 \
    汽车 自行车 火车 航班 酒店 护照 签证 银行 工资 保险 健康 睡眠 早餐 午餐 晚餐 菜谱 花园 \
    小狗 小猫 学校 老师 作业 考试 大学 论文 数据库 手机 邮件 播客 小说 电影 足球 游泳 瑜伽 \
    妈妈 爸爸 姐姐 弟弟 朋友 同事 老板 团队 公司 合同 笔记 目标 阅读 写作 摄影 吉他 博物馆";

/// SplitMix64: deterministic, so every run measures the same data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Index into a list of `n`, skewed towards the front like word frequencies.
    fn skewed(&mut self, n: usize) -> usize {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((u * u * n as f64) as usize).min(n - 1)
    }

    /// `n` words, a third of them Chinese, with a number now and then.
    fn sentence(&mut self, vocabulary: &Vocabulary, n: usize) -> String {
        let mut out = Vec::new();
        for i in 0..n {
            let words = if self.below(3) == 0 {
                &vocabulary.chinese
            } else {
                &vocabulary.english
            };
            out.push(words[self.skewed(words.len())].to_string());
            if i % 5 == 4 {
                out.push(format!("{}", self.below(100)));
            }
        }
        out.join(" ")
    }
}

struct Vocabulary {
    english: Vec<&'static str>,
    chinese: Vec<&'static str>,
}

/// A store with `memories` generated memories (one in 500 pinned) and [`SUMMARIES`] session
/// summaries.
fn build(path: &std::path::Path, vocabulary: &Vocabulary, memories: usize) -> Store {
    let store = Store::open(path).unwrap();
    let mut rng = Rng(42);
    let started = Instant::now();
    for n in 0..memories {
        let words = 4 + rng.below(12);
        let source = if n % 3 == 0 {
            MemorySource::UserStated
        } else {
            MemorySource::ModelInferred
        };
        let mut new = NewMemory::new(rng.sentence(vocabulary, words), source);
        new.importance = Some(rng.below(11) as f64 / 10.0);
        new.pinned = Some(n % 500 == 0);
        store.add_memory(&new).unwrap();
    }
    eprintln!(
        "{memories} memories: built in {:.1} s ({:.0} µs per add_memory)",
        started.elapsed().as_secs_f64(),
        started.elapsed().as_micros() as f64 / memories as f64
    );
    store
        .create_session(&NewSession {
            id: "bench:s".into(),
            title: "Bench".into(),
            model: None,
            workspace: None,
            tool_profile: "full".into(),
        })
        .unwrap();
    for n in 0..SUMMARIES {
        let words = 40 + rng.below(80);
        let text = rng.sentence(vocabulary, words);
        store
            .add_session_summary("bench:s", &text, n as i64, n as i64)
            .unwrap();
    }
    store
}

/// Median and 95th percentile of `f` over `runs` runs, in microseconds.
fn percentiles(runs: usize, mut f: impl FnMut(usize)) -> (f64, f64) {
    let mut times: Vec<f64> = (0..runs)
        .map(|i| {
            let started = Instant::now();
            f(i);
            started.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[runs / 2], times[runs * 95 / 100])
}

const QUERIES: [&str; 10] = [
    "coffee",
    "绿茶",
    "prefers dark roast coffee",
    "用户喜欢什么",
    "server backup weekly",
    "What should I cook tonight? I am vegetarian and allergic to peanuts.",
    "明天早上的会议要准备报告吗",
    "jazz piano music",
    "Japan travel budget",
    "xyzzy",
];

/// p50/p95 of search, prompt selection and summary search over the query mix.
fn report(store: &Store, memories: usize) {
    let filter = MemoryFilter::default();
    let query = |i: usize| QUERIES[i % QUERIES.len()];
    let (p50, p95) = percentiles(200, |i| {
        store.search_memories(query(i), &filter, 10).unwrap();
    });
    eprintln!("{memories} memories: search_memories p50 {p50:.0} µs, p95 {p95:.0} µs");
    let (p50, p95) = percentiles(200, |i| {
        store.pinned_and_relevant(query(i), 1_000).unwrap();
    });
    eprintln!("{memories} memories: pinned_and_relevant p50 {p50:.0} µs, p95 {p95:.0} µs");
    let (p50, p95) = percentiles(200, |i| {
        store
            .search_summaries(query(i), None, None, None, 10)
            .unwrap();
    });
    eprintln!("{SUMMARIES} summaries: search_summaries p50 {p50:.0} µs, p95 {p95:.0} µs");
}

fn main() {
    let vocabulary = Vocabulary {
        english: ENGLISH.split_whitespace().collect(),
        chinese: CHINESE.split_whitespace().collect(),
    };
    let dir = tempfile::tempdir().unwrap();
    let small = build(&dir.path().join("small.db"), &vocabulary, 1_000);
    report(&small, 1_000);
    let store = build(&dir.path().join("large.db"), &vocabulary, MEMORIES);
    report(&store, MEMORIES);

    let filter = MemoryFilter::default();
    let mut c = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for (name, query) in [("english", QUERIES[2]), ("chinese", "用户喜欢喝绿茶")] {
        c.bench_function(&format!("search_memories/{name}"), |b| {
            b.iter(|| store.search_memories(query, &filter, 10).unwrap())
        });
    }
    c.bench_function("pinned_and_relevant/sentence", |b| {
        b.iter(|| store.pinned_and_relevant(QUERIES[5], 1_000).unwrap())
    });
    let mut rng = Rng(9);
    c.bench_function("add_memory", |b| {
        b.iter(|| {
            let new = NewMemory::new(rng.sentence(&vocabulary, 10), MemorySource::ModelInferred);
            store.add_memory(&new).unwrap()
        })
    });
    c.final_summary();
}
