//! `hearth-cli jobs authorize|revoke`: the user's approval of a job's unattended high-risk tools,
//! asked on the terminal with what it binds (the same question as in the chat), and its removal.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::anyhow;
use hearth_scheduler::JobService;
use hearth_tools::authorizable_tools;

use super::show;

/// Authorizes `key` for the high-risk tools (and every tool of the MCP servers named in
/// `mcp_servers`) after a yes on the terminal, or at once with `yes`. Without a terminal to ask
/// on and without `yes` nothing is recorded.
pub fn authorize(
    jobs: &JobService,
    key: &str,
    mcp_servers: &[String],
    yes: bool,
    json: bool,
) -> anyhow::Result<()> {
    let mut tools = authorizable_tools();
    for server in mcp_servers {
        if !hearth_mcp::valid_server_name(server) {
            return Err(anyhow!("--mcp-server {server}: not an MCP server name"));
        }
        tools.push(hearth_policy::mcp_server_scope(server));
    }
    let request = jobs.blocking().authorization_request(key, &tools)?;
    if !yes {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            return Err(anyhow!(
                "refused: there is no terminal to ask on; pass --yes to authorize job \"{}\" \
                 without asking",
                request.job.name
            ));
        }
        if !ask(
            &request.question().to_string(),
            &mut stdin.lock(),
            &mut std::io::stderr(),
        )? {
            return Err(anyhow!(
                "not authorized: job \"{}\" keeps running without high-risk tools",
                request.job.name
            ));
        }
    }
    let grant = jobs.blocking().authorize(&request.job.id, &tools)?;
    show::job(&grant.job, json)
}

/// Withdraws the job's authorization: its runs use no high-risk tool until authorized again.
pub fn revoke(jobs: &JobService, key: &str, json: bool) -> anyhow::Result<()> {
    show::job(&jobs.blocking().revoke(key)?, json)
}

/// Shows `question` and reads the answer: only `y` or `yes` (any case) agrees.
fn ask(question: &str, input: &mut impl BufRead, output: &mut impl Write) -> anyhow::Result<bool> {
    write!(output, "{question}\nAuthorize? [y/N] ")?;
    output.flush()?;
    let mut answer = String::new();
    input.read_line(&mut answer)?;
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn only_a_yes_agrees_and_the_question_is_shown_first() {
        for (typed, agreed) in [
            ("y\n", true),
            ("YES\n", true),
            (" yes \n", true),
            ("\n", false),
            ("n\n", false),
            ("yep\n", false),
            ("", false),
        ] {
            let mut shown = Vec::new();
            let answer = ask("Authorize job \"x\"?", &mut typed.as_bytes(), &mut shown).unwrap();
            assert_eq!(answer, agreed, "{typed:?}");
            assert_eq!(
                String::from_utf8(shown).unwrap(),
                "Authorize job \"x\"?\nAuthorize? [y/N] "
            );
        }
    }
}
