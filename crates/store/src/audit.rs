//! The audit log: one row per tool-approval decision, kept even after its session is deleted.

use rusqlite::{params, Row};
use serde::{Deserialize, Serialize};

use hearth_protocol::AuditReason;

use crate::messages::{enum_column, json_column, optional_json};
use crate::{Result, Store};
use ts_rs::TS;

/// What was decided about a tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AuditDecision {
    /// The call may run.
    Allow,
    /// The call was refused.
    Deny,
    /// The call waits for the user's answer.
    Ask,
}

impl AuditDecision {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditDecision::Allow => "allow",
            AuditDecision::Deny => "deny",
            AuditDecision::Ask => "ask",
        }
    }

    pub fn parse(s: &str) -> Option<AuditDecision> {
        match s {
            "allow" => Some(AuditDecision::Allow),
            "deny" => Some(AuditDecision::Deny),
            "ask" => Some(AuditDecision::Ask),
            _ => None,
        }
    }
}

/// A decision to record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AuditEntry {
    /// The session the call came from, if any.
    pub session_id: Option<String>,
    /// The tool's name.
    pub tool: String,
    /// The call's arguments as the model wrote them (JSON text, stored even if malformed).
    pub arguments: String,
    pub decision: AuditDecision,
    /// Why, in English, e.g. the rule that matched or "allowed for this session".
    pub reason: Option<String>,
    /// The same reason as data, for the viewer's language (`None` in rows older than it).
    pub reason_code: Option<AuditReason>,
    /// Who decided, e.g. `policy`, `user`, `timeout`.
    pub actor: String,
}

/// A recorded decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AuditRecord {
    pub id: i64,
    #[serde(flatten)]
    pub entry: AuditEntry,
    /// Unix milliseconds.
    pub created_at: i64,
}

fn record_from_row(row: &Row<'_>) -> rusqlite::Result<AuditRecord> {
    Ok(AuditRecord {
        id: row.get(0)?,
        entry: AuditEntry {
            session_id: row.get(1)?,
            tool: row.get(2)?,
            arguments: row.get(3)?,
            decision: enum_column(row, 4, AuditDecision::parse)?,
            reason: row.get(5)?,
            actor: row.get(6)?,
            reason_code: json_column(row, 8)?,
        },
        created_at: row.get(7)?,
    })
}

impl Store {
    /// Appends a decision to the log.
    pub fn record_audit(&self, entry: &AuditEntry) -> Result<AuditRecord> {
        let conn = self.conn();
        let now = self.now_ms();
        conn.prepare_cached(
            "INSERT INTO audit_log (session_id, tool, arguments, decision, reason, actor, \
             created_at, reason_code) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?
        .execute(params![
            entry.session_id,
            entry.tool,
            entry.arguments,
            entry.decision.as_str(),
            entry.reason,
            entry.actor,
            now,
            optional_json(entry.reason_code.as_ref())?
        ])?;
        Ok(AuditRecord {
            id: conn.last_insert_rowid(),
            entry: entry.clone(),
            created_at: now,
        })
    }

    /// The `limit` most recent decisions, newest first.
    pub fn list_audit(&self, limit: usize) -> Result<Vec<AuditRecord>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT id, session_id, tool, arguments, decision, reason, actor, created_at, \
             reason_code FROM audit_log ORDER BY id DESC LIMIT ?1",
        )?;
        let records = stmt
            .query_map([i64::try_from(limit).unwrap_or(i64::MAX)], record_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(records)
    }
}

#[cfg(test)]
#[path = "audit_tests.rs"]
mod tests;
