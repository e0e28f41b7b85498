//! Benchmark: full-text search and inserts on a store holding 100,000 generated messages
//! (English, Chinese, mixed and tool output), plus p50/p95 over 200 varied queries.
// A benchmark is test code: it reports on stderr and fails loudly on any error.
#![allow(clippy::print_stderr, clippy::unwrap_used)]

#[path = "support/timings.rs"]
mod timings;

use std::time::{Duration, Instant};

use criterion::Criterion;
use hearth_protocol::{ContentPart, Role, ToolResult};
use hearth_store::{NewMessage, NewSession, Store};
use timings::summary;

const MESSAGES: usize = 100_000;
const SESSIONS: usize = 200;
const TOP: usize = 20;

const ENGLISH: &str = "the to and a of is in it you that for on with this be are as at have not \
    but can do from file report weather rust code build test error function server client \
    request response data memory schedule job tool session message search index query database \
    token model agent browser window tray notification skill workspace folder path config key \
    network timeout retry please could would should will make sure check run fix add remove \
    update change write read open close start stop list show find help thanks great good bad \
    new old first last next time day week today tomorrow yesterday morning evening user team \
    project release version branch commit merge review issue bug feature design plan idea note \
    email meeting calendar document page line word table chart image video audio music travel \
    flight hotel city country price cost budget money bank account payment invoice order \
    customer product market sales growth revenue profit loss risk security password login \
    permission access admin deploy cluster container docker kubernetes linux windows macos \
    terminal shell script python javascript typescript compile cargo crate library framework";

const CHINESE: &str =
    "今天 天气 很好 我们 你们 他们 文件 报告 代码 测试 错误 函数 服务器 客户端 请求 \
    响应 数据 内存 计划 任务 工具 会话 消息 搜索 索引 查询 数据库 模型 浏览器 窗口 通知 技能 \
    工作区 文件夹 路径 配置 网络 超时 重试 明天 昨天 下雨 晴朗 温度 北京 上海 学习 工作 时间 \
    问题 功能 设计 方案 会议 邮件 日历 文档 页面 表格 图片 视频 音乐 旅行 航班 酒店 城市 价格 \
    成本 预算 银行 账户 支付 订单 客户 产品 市场 销售 增长 收入 利润 风险 安全 密码 登录 权限 \
    部署 集群 容器 终端 脚本 编译 框架 帮助 谢谢 检查 运行 修复 添加 删除 更新 修改 编写 阅读 \
    打开 关闭 开始 停止 显示 查找 项目 版本 分支 提交 合并 审查";

/// SplitMix64: deterministic, so every run searches the same corpus.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Index into a list of `n`, skewed towards the front like word frequencies.
    fn skewed(&mut self, n: usize) -> usize {
        let u = self.unit();
        ((u * u * n as f64) as usize).min(n - 1)
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.skewed(words.len())]
    }
}

struct Corpus {
    english: Vec<&'static str>,
    chinese: Vec<&'static str>,
}

impl Corpus {
    fn new() -> Corpus {
        Corpus {
            english: ENGLISH.split_whitespace().collect(),
            chinese: CHINESE.split_whitespace().collect(),
        }
    }

    /// `min` to `min + spread - 1` English words in sentences.
    fn english(&self, rng: &mut Rng, min: usize, spread: usize) -> String {
        let words = min + rng.below(spread);
        let mut out = String::new();
        for i in 0..words {
            if i > 0 {
                out.push_str(if i % 11 == 0 { ". " } else { " " });
            }
            out.push_str(rng.pick(&self.english));
        }
        out.push('.');
        out
    }

    /// `min` to `min + spread - 1` Chinese words, unspaced, in clauses.
    fn chinese(&self, rng: &mut Rng, min: usize, spread: usize) -> String {
        let words = min + rng.below(spread);
        let mut out = String::new();
        for i in 0..words {
            if i > 0 && i % 6 == 0 {
                out.push('，');
            }
            out.push_str(rng.pick(&self.chinese));
        }
        out.push('。');
        out
    }

    /// One message: half English, a third Chinese, some mixed, some long tool output; one in
    /// twenty carries a rare token (`xq<n>`) that almost no other message has.
    fn message(&self, rng: &mut Rng, session_id: &str, turn: usize) -> NewMessage {
        let roll = rng.unit();
        let (role, text) = if roll < 0.5 {
            (turn_role(turn), self.english(rng, 8, 50))
        } else if roll < 0.8 {
            (turn_role(turn), self.chinese(rng, 6, 34))
        } else if roll < 0.95 {
            let en = self.english(rng, 4, 20);
            let zh = self.chinese(rng, 3, 12);
            (
                turn_role(turn),
                format!("{en} {zh} {}", rng.pick(&self.english)),
            )
        } else {
            (Role::Tool, self.english(rng, 100, 300))
        };
        let text = if rng.below(20) == 0 {
            format!("{text} xq{}", rng.below(5000))
        } else {
            text
        };
        if role == Role::Tool {
            let mut new = NewMessage::new(session_id, Role::Tool, Vec::new());
            new.tool_result = Some(ToolResult {
                call_id: format!("call-{turn}"),
                name: "read_file".to_string(),
                content: serde_json::json!({ "content": text }).to_string(),
                is_error: false,
                duration_ms: 3,
                images: Vec::new(),
                views: Vec::new(),
            });
            new
        } else {
            NewMessage::new(session_id, role, vec![ContentPart::text(text)])
        }
    }
}

fn turn_role(turn: usize) -> Role {
    if turn.is_multiple_of(2) {
        Role::User
    } else {
        Role::Assistant
    }
}

fn build_store(path: &std::path::Path, corpus: &Corpus) -> Store {
    let store = Store::open(path).unwrap();
    for i in 0..SESSIONS {
        store
            .create_session(&NewSession {
                id: format!("bench:{i}"),
                title: format!("Bench chat {i}"),
                model: None,
                workspace: None,
                tool_profile: "coding".to_string(),
            })
            .unwrap();
    }
    let mut rng = Rng(42);
    let started = Instant::now();
    for turn in 0..MESSAGES {
        let session = format!("bench:{}", rng.below(SESSIONS));
        store
            .insert_message(&corpus.message(&mut rng, &session, turn))
            .unwrap();
    }
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "built {MESSAGES} messages in {:.1} s ({:.0} µs per insert_message); db file {:.1} MB",
        started.elapsed().as_secs_f64(),
        started.elapsed().as_micros() as f64 / MESSAGES as f64,
        size as f64 / 1e6
    );
    store
}

/// The 200 queries of the percentile run: (kind, query), drawn deterministically.
fn query_mix(corpus: &Corpus) -> Vec<(&'static str, String)> {
    let mut rng = Rng(7);
    let rng_word = |rng: &mut Rng| corpus.english[rng.below(corpus.english.len())];
    (0..200)
        .map(|i| match i % 8 {
            0 => ("en word", rng_word(&mut rng).to_string()),
            1 => (
                "en two words",
                format!("{} {}", rng_word(&mut rng), rng_word(&mut rng)),
            ),
            2 | 3 => (
                "zh 2-char",
                corpus.chinese[rng.below(corpus.chinese.len())].to_string(),
            ),
            4 => {
                let a = corpus.chinese[rng.skewed(corpus.chinese.len())];
                let b = corpus.chinese[rng.skewed(corpus.chinese.len())];
                ("zh phrase", format!("{a}{b}"))
            }
            5 => {
                let zh = corpus.chinese[rng.below(corpus.chinese.len())];
                ("mixed", format!("{} {zh}", rng_word(&mut rng)))
            }
            6 => ("rare token", format!("xq{}", rng.below(5000))),
            _ => loop {
                // A word's tail is not a word: only the trigram pass finds it.
                let word = rng_word(&mut rng);
                if word.len() >= 5 {
                    break ("substring", word[1..].to_string());
                }
            },
        })
        .collect()
}

/// The machine's load average (Linux), for reading wall-clock timings on a shared machine.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// CPU time this thread has used (Linux `schedstat`; updated at scheduler ticks, so only
/// meaningful summed over many queries).
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

fn report_percentiles(store: &Store, corpus: &Corpus) {
    let mut all = Vec::new();
    let mut by_kind: Vec<(&str, Vec<Duration>)> = Vec::new();
    let cpu_before = thread_cpu();
    for (kind, query) in &query_mix(corpus) {
        let started = Instant::now();
        let hits = store.search_messages(query, TOP, None, None).unwrap();
        let elapsed = started.elapsed();
        std::hint::black_box(hits);
        all.push(elapsed);
        match by_kind.iter_mut().find(|(k, _)| k == kind) {
            Some((_, times)) => times.push(elapsed),
            None => by_kind.push((kind, vec![elapsed])),
        }
    }
    let wall: Duration = all.iter().sum();
    let cpu = match thread_cpu().zip(cpu_before) {
        Some((after, before)) => format!("{:.0} ms", (after - before).as_secs_f64() * 1e3),
        None => "unknown".to_string(),
    };
    eprintln!(
        "top-{TOP} searches (load average {}; {:.0} ms wall in all, of which CPU {cpu}):",
        load_average(),
        wall.as_secs_f64() * 1e3
    );
    eprintln!("  all queries   n={:<3} {}", all.len(), summary(&mut all));
    for (kind, mut times) in by_kind {
        eprintln!("  {kind:<13} n={:<3} {}", times.len(), summary(&mut times));
    }
}

fn main() {
    let corpus = Corpus::new();
    let dir = tempfile::tempdir().unwrap();
    let store = build_store(&dir.path().join("bench.db"), &corpus);

    let mut c = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let searches = [
        ("en_common_the", "the"),
        ("en_weather", "weather"),
        ("en_rust_error", "rust error"),
        ("en_substring_eport", "eport"),
        ("en_rare_xq1234", "xq1234"),
        ("zh_2char_天气", "天气"),
        ("zh_4char_天气很好", "天气很好"),
        ("mixed_rust_代码", "rust 代码"),
    ];
    for (name, query) in searches {
        c.bench_function(&format!("search/{name}"), |b| {
            b.iter(|| store.search_messages(query, TOP, None, None).unwrap())
        });
    }
    let mut rng = Rng(99);
    let fresh: Vec<NewMessage> = (0..1000)
        .map(|turn| corpus.message(&mut rng, "bench:0", turn))
        .collect();
    let mut next = 0;
    c.bench_function("insert_message", |b| {
        b.iter(|| {
            next = (next + 1) % fresh.len();
            store.insert_message(&fresh[next]).unwrap()
        })
    });
    c.final_summary();

    // The insert bench left its messages in the indexes' backlog; a search indexes them first.
    let started = Instant::now();
    store.search_messages("weather", TOP, None, None).unwrap();
    eprintln!(
        "first search after the insert bench (indexes its backlog first): {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    report_percentiles(&store, &corpus);
}
