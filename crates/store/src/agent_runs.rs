//! Sub-agent runs: the row written (with the child's session) before a child starts, its end
//! with the status the runtime saw, lookups for `check_task` and `hearth-cli tasks`, and the
//! start-up sweep that turns runs of a dead process into `interrupted`.

use hearth_protocol::{SubAgentMode, SubAgentRun, SubAgentStatus, Usage};
use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::sessions::{self, NewSession};
use crate::{owner, Result, Store, StoreError};

/// A child about to start: its session and its run row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAgentRun {
    /// The run id; the child session is `task:<id>`.
    pub id: String,
    pub parent_session_id: String,
    pub session: NewSession,
    pub goal: String,
    pub mode: SubAgentMode,
    pub agent: Option<String>,
    pub model: String,
    pub tools: Vec<String>,
    pub max_iterations: u32,
    pub timeout_secs: u64,
}

/// How a child ended, as the runtime saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentRunEnd {
    pub status: SubAgentStatus,
    pub result: String,
    pub error: Option<String>,
    pub iterations: u32,
    pub usage: Usage,
}

const RUN_SELECT: &str = "SELECT id, parent_session_id, session_id, goal, mode, agent, model, \
     tools, max_iterations, timeout_secs, status, result, error, iterations, input_tokens, \
     output_tokens, created_at, finished_at FROM agent_runs";

fn run_from_row(row: &Row<'_>) -> rusqlite::Result<SubAgentRun> {
    let text = |i: usize| row.get::<_, String>(i);
    let invalid = |i: usize, what: &str, value: &str| {
        rusqlite::Error::FromSqlConversionFailure(
            i,
            rusqlite::types::Type::Text,
            format!("unknown {what} `{value}`").into(),
        )
    };
    let mode = text(4)?;
    let status = text(10)?;
    let tools = text(7)?;
    Ok(SubAgentRun {
        id: row.get(0)?,
        parent_session_id: row.get(1)?,
        session_id: row.get(2)?,
        goal: row.get(3)?,
        mode: SubAgentMode::parse(&mode).ok_or_else(|| invalid(4, "mode", &mode))?,
        agent: row.get(5)?,
        model: row.get(6)?,
        tools: serde_json::from_str(&tools).map_err(|_| invalid(7, "tool list", &tools))?,
        max_iterations: row.get(8)?,
        timeout_secs: count(row, 9)?,
        status: SubAgentStatus::parse(&status).ok_or_else(|| invalid(10, "status", &status))?,
        result: row.get(11)?,
        error: row.get(12)?,
        iterations: row.get(13)?,
        usage: Usage {
            input_tokens: count(row, 14)?,
            output_tokens: count(row, 15)?,
        },
        created_at: row.get(16)?,
        finished_at: row.get(17)?,
    })
}

/// A stored count (never negative).
fn count(row: &Row<'_>, i: usize) -> rusqlite::Result<u64> {
    Ok(u64::try_from(row.get::<_, i64>(i)?).unwrap_or(0))
}

/// A count as SQLite stores it (counts past `i64::MAX` do not happen).
fn big(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn get(conn: &Connection, id: &str) -> Result<Option<SubAgentRun>> {
    Ok(conn
        .prepare_cached(&format!("{RUN_SELECT} WHERE id = ?1"))?
        .query_row([id], run_from_row)
        .optional()?)
}

impl Store {
    /// Creates the child's session and its `running` run row in one transaction, owned by this
    /// process; fails when the parent session does not exist.
    pub fn begin_agent_run(&self, new: &NewAgentRun) -> Result<SubAgentRun> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let now = self.now_ms();
        sessions::insert(&tx, &new.session, now)?;
        let tools = serde_json::to_string(&new.tools)?;
        tx.prepare_cached(
            "INSERT INTO agent_runs (id, parent_session_id, session_id, goal, mode, agent, model, \
             tools, max_iterations, timeout_secs, status, owner, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'running', ?11, ?12)",
        )?
        .execute(params![
            new.id,
            new.parent_session_id,
            new.session.id,
            new.goal,
            new.mode.as_str(),
            new.agent,
            new.model,
            tools,
            new.max_iterations,
            big(new.timeout_secs),
            owner::current(),
            now
        ])?;
        let run = get(&tx, &new.id)?.ok_or_else(|| StoreError::not_found("agent run", &new.id))?;
        tx.commit()?;
        Ok(run)
    }

    /// Ends a `running` run with `end`. A run that already ended keeps its first end (`None`).
    pub fn finish_agent_run(&self, id: &str, end: &AgentRunEnd) -> Result<Option<SubAgentRun>> {
        let conn = self.conn();
        let changed = conn
            .prepare_cached(
                "UPDATE agent_runs SET status = ?2, result = ?3, error = ?4, iterations = ?5, \
                 input_tokens = ?6, output_tokens = ?7, finished_at = ?8 \
                 WHERE id = ?1 AND status = 'running'",
            )?
            .execute(params![
                id,
                end.status.as_str(),
                end.result,
                end.error,
                end.iterations,
                big(end.usage.input_tokens),
                big(end.usage.output_tokens),
                self.now_ms()
            ])?;
        if changed == 0 {
            return Ok(None);
        }
        get(&conn, id)
    }

    pub fn agent_run(&self, id: &str) -> Result<Option<SubAgentRun>> {
        get(&self.conn(), id)
    }

    /// Runs newest first: of one parent session, or all of them; at most `limit`.
    pub fn agent_runs(
        &self,
        parent_session_id: Option<&str>,
        limit: usize,
    ) -> Result<Vec<SubAgentRun>> {
        let conn = self.conn();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let sql = format!(
            "{RUN_SELECT} WHERE ?1 IS NULL OR parent_session_id = ?1 \
             ORDER BY created_at DESC, rowid DESC LIMIT ?2"
        );
        let runs = conn
            .prepare_cached(&sql)?
            .query_map(params![parent_session_id, limit], run_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(runs)
    }

    /// Turns `running` runs whose process is gone into `interrupted` and returns them. Call at
    /// start-up: runs of another live process (the app while `hearth-cli` runs) are left alone;
    /// runs marked with this process are stale (a dead process had its pid).
    pub fn mark_agent_runs_interrupted(&self) -> Result<Vec<SubAgentRun>> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let stale: Vec<String> = tx
            .prepare_cached("SELECT id, owner FROM agent_runs WHERE status = 'running'")?
            .query_map([], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?
            .into_iter()
            .filter(|(_, owner)| !owner::is_other_live_process(owner))
            .map(|(id, _)| id)
            .collect();
        let now = self.now_ms();
        let mut runs = Vec::with_capacity(stale.len());
        for id in stale {
            tx.prepare_cached(
                "UPDATE agent_runs SET status = 'interrupted', finished_at = ?2, \
                 error = 'the process running it ended before it did' WHERE id = ?1",
            )?
            .execute(params![id, now])?;
            runs.extend(get(&tx, &id)?);
        }
        tx.commit()?;
        Ok(runs)
    }

    /// Asks the process running `id` to cancel it (it checks twice a second); false when the
    /// run is not running.
    pub fn request_agent_run_cancel(&self, id: &str) -> Result<bool> {
        let changed = self
            .conn()
            .prepare_cached(
                "UPDATE agent_runs SET cancel_requested = 1 WHERE id = ?1 AND status = 'running'",
            )?
            .execute([id])?;
        Ok(changed > 0)
    }

    /// Whether another process asked to cancel the running run `id`.
    pub fn agent_run_cancel_requested(&self, id: &str) -> Result<bool> {
        let requested: Option<bool> = self
            .conn()
            .prepare_cached("SELECT cancel_requested FROM agent_runs WHERE id = ?1")?
            .query_row([id], |row| row.get(0))
            .optional()?;
        Ok(requested.unwrap_or(false))
    }

    /// Stores what an interrupted run had produced (read from its transcript after the sweep).
    pub fn set_agent_run_result(&self, id: &str, result: &str) -> Result<()> {
        self.conn()
            .prepare_cached("UPDATE agent_runs SET result = ?2 WHERE id = ?1")?
            .execute(params![id, result])?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "agent_runs_tests.rs"]
mod tests;
