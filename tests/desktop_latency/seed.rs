//! The latency benchmark's backlog: chats of mixed English and Chinese messages, stored in the
//! home's `hearth.db` through `hearth_store::Store` before the launch.

use std::path::Path;

use hearth_protocol::{ContentPart, Role};
use hearth_store::{NewMessage, NewSession, Store};

/// Openings, bodies and closings of English messages: a message strings a few together.
const EN: [&str; 24] = [
    "Could you check why the release build fails on the CI runner since yesterday?",
    "The weather in Lisbon next week looks mild, around 19 degrees with light rain on Thursday.",
    "I moved the meeting with the design team to Friday morning at ten.",
    "Here is the summary of the quarterly report: revenue grew by 12% while costs stayed flat.",
    "The server returns a 502 whenever the upload is larger than 8 MB.",
    "Remember to renew the domain before the end of the month.",
    "Let me know which hotel you picked for the conference in Berlin.",
    "The function panics when the config file has no [providers] section.",
    "I read the paper on retrieval augmented generation; the evaluation section is thin.",
    "Please translate the onboarding email into Chinese and keep the tone friendly.",
    "The flight to Shanghai was delayed by two hours, so I will join the call late.",
    "Our database migration took 40 minutes on the staging cluster.",
    "Can you draft a polite reply declining the invitation?",
    "The budget spreadsheet has a formula error in column F.",
    "Try running cargo test with --nocapture to see the log lines.",
    "Kubernetes keeps restarting the pod because the readiness probe times out.",
    "I need a packing list for a four-day hiking trip in the Alps.",
    "The invoice from the printing company is still unpaid.",
    "Summarise the customer feedback from the last sprint in five bullet points.",
    "The tray icon disappears after the laptop wakes from sleep.",
    "What is a good recipe for a vegetarian lasagne for eight people?",
    "The new onboarding flow cut the drop-off rate in half.",
    "Book a table for two at the Italian place near the office.",
    "The backup job finished, but three files could not be read.",
];

/// Chinese sentences, used alone or mixed into English messages.
const ZH: [&str; 20] = [
    "明天上午十点和产品团队开会，讨论新版本的发布计划。",
    "北京今天晴朗，最高气温二十六度，适合出门散步。",
    "请帮我把这份报告翻译成英文，保留原来的格式。",
    "服务器在凌晨三点重启了一次，日志里没有错误信息。",
    "这个函数在输入为空的时候会返回错误，需要修复。",
    "上海的酒店已经订好了，离会议中心只有十分钟路程。",
    "客户反馈说登录页面加载太慢，尤其是在手机上。",
    "本季度的销售额比去年同期增长了百分之十五。",
    "周末我们打算去杭州旅行，顺便看看西湖。",
    "数据库备份完成了，但是有三个文件无法读取。",
    "请检查一下配置文件里的路径是否正确。",
    "这个问题我昨天已经在测试环境里复现了。",
    "会议纪要已经发到大家的邮箱，请查收。",
    "新的设计方案比之前的更简洁，用户也更容易理解。",
    "航班延误了两个小时，我可能会晚一点到。",
    "请把预算表里的错误公式改一下，F列的数字不对。",
    "我们需要在月底之前完成所有的代码审查。",
    "这篇论文的实验部分写得不够详细。",
    "帮我写一封邮件，礼貌地拒绝这次邀请。",
    "通知图标在电脑休眠唤醒后消失了。",
];

/// A small deterministic generator (xorshift64*): every run stores the same backlog.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// One message's text: English, Chinese or both, one to six sentences, sometimes a list or a
/// code block, and a number that makes it unlike its neighbours.
fn text(rng: &mut Rng, n: usize) -> String {
    let sentences = 1 + rng.below(6);
    let language = rng.below(10);
    let mut out = String::new();
    for i in 0..sentences {
        let zh = match language {
            0..=4 => false,
            5..=7 => true,
            _ => i % 2 == 1,
        };
        let sentence = if zh {
            ZH[rng.below(ZH.len())]
        } else {
            EN[rng.below(EN.len())]
        };
        if !out.is_empty() {
            out.push_str(if zh { "" } else { " " });
        }
        if rng.below(8) == 0 {
            out.push_str("\n- ");
        }
        out.push_str(sentence);
    }
    match rng.below(12) {
        0 => out.push_str(&format!(
            "\n\n```sh\ncargo test -p job-{n} -- --nocapture\n```"
        )),
        1 => out.push_str(&format!(" (ticket #{n})")),
        2 => out.push_str(&format!(" 编号 {n}。")),
        _ => {}
    }
    out
}

/// Stores `chats` chats holding `messages` messages in all (user and assistant in turn, spread
/// unevenly over the chats), in transactions of a thousand, and indexes them for search.
/// Returns the chats' ids.
pub fn backlog(data: &Path, chats: usize, messages: usize) -> Vec<String> {
    let store = Store::open(&data.join("hearth.db")).unwrap();
    let ids: Vec<String> = (0..chats).map(|i| format!("desktop:seed-{i:04}")).collect();
    for (i, id) in ids.iter().enumerate() {
        let title = if i % 3 == 0 {
            format!(
                "{} {i}",
                ZH[i % ZH.len()].chars().take(6).collect::<String>()
            )
        } else {
            format!(
                "{} {i}",
                EN[i % EN.len()]
                    .split(' ')
                    .take(4)
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        };
        let session = NewSession {
            id: id.clone(),
            title,
            model: None,
            workspace: None,
            tool_profile: "coding".to_string(),
        };
        store.create_session(&session).unwrap();
    }
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut batch = Vec::with_capacity(1000);
    for n in 0..messages {
        // Skewed towards the first chats: a few long chats, many short ones.
        let chat = rng.below(chats).min(rng.below(chats));
        let role = if n % 2 == 0 {
            Role::User
        } else {
            Role::Assistant
        };
        let body = text(&mut rng, n);
        batch.push(NewMessage::new(
            &ids[chat],
            role,
            vec![ContentPart::text(body)],
        ));
        if batch.len() == 1000 {
            store.insert_messages(&batch).unwrap();
            batch.clear();
        }
    }
    store.insert_messages(&batch).unwrap();
    // A search indexes the backlog now, so this store's indexing thread has nothing left to
    // write once it is dropped: a batch still running would hold the write lock and the app's
    // start would fail with "database is locked". Then wait for any writer to let go.
    store.search_messages("budget", 1, None, None).unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(data.join("hearth.db")).unwrap();
    conn.busy_timeout(std::time::Duration::from_secs(30))
        .unwrap();
    conn.execute_batch("BEGIN IMMEDIATE; COMMIT;").unwrap();
    ids
}
