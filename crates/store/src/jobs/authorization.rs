//! A job's authorization: what the user approved, whether it still matches the job (the hash
//! that binds its instruction, schedule, zone, target and tool scope), recording it and
//! withdrawing it.

use rusqlite::{params, TransactionBehavior};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::rows::load_existing;
use super::{Job, JobsError};
use crate::{Store, StoreError};
use ts_rs::TS;

/// What the user approved, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Authorization {
    pub hash: String,
    /// Canonical names of the high-risk tools the job's runs may use.
    pub tools: Vec<String>,
    pub authorized_at: i64,
}

/// Whether a job's runs carry an authorization.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AuthorizationState {
    NotAuthorized,
    Authorized,
    /// Authorized once, but the instruction, schedule, zone or target changed since.
    NeedsReapproval,
}

impl AuthorizationState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotAuthorized => "not_authorized",
            Self::Authorized => "authorized",
            Self::NeedsReapproval => "needs_reapproval",
        }
    }
}

impl Job {
    /// The hash an authorization of this job's current fields with `tools` carries.
    pub fn binding_hash(&self, tools: &[String]) -> String {
        authorization_hash(
            &self.prompt,
            &self.schedule,
            &self.tz,
            self.target.as_deref(),
            tools,
        )
    }

    pub fn authorization_state(&self) -> AuthorizationState {
        match &self.authorization {
            None => AuthorizationState::NotAuthorized,
            Some(auth) if auth.hash == self.binding_hash(&auth.tools) => {
                AuthorizationState::Authorized
            }
            Some(_) => AuthorizationState::NeedsReapproval,
        }
    }

    /// The tools a run may use under `daemon` security: `Some` only while the authorization
    /// still matches the job.
    pub fn authorized_tools(&self) -> Option<&[String]> {
        match (&self.authorization, self.authorization_state()) {
            (Some(auth), AuthorizationState::Authorized) => Some(&auth.tools),
            _ => None,
        }
    }
}

/// sha256 over the length-prefixed instruction, schedule, zone, target and sorted tool scope.
pub fn authorization_hash(
    prompt: &str,
    schedule: &str,
    tz: &str,
    target: Option<&str>,
    tools: &[String],
) -> String {
    let mut tools: Vec<&str> = tools.iter().map(String::as_str).collect();
    tools.sort_unstable();
    tools.dedup();
    let scope = tools.join("\n");
    let mut hasher = Sha256::new();
    for part in [prompt, schedule, tz, target.unwrap_or(""), scope.as_str()] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Store {
    /// Records the user's approval of the job as it is now, for the high-risk `tools`.
    pub fn authorize_job(&self, id: &str, tools: &[String], now: i64) -> Result<Job, JobsError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let job = load_existing(&tx, id)?;
        let mut tools = tools.to_vec();
        tools.sort_unstable();
        tools.dedup();
        let hash = job.binding_hash(&tools);
        tx.prepare_cached(
            "UPDATE jobs SET auth_hash = ?2, auth_tools = ?3, authorized_at = ?4, \
             updated_at = ?4 WHERE id = ?1",
        )?
        .execute(params![
            id,
            hash,
            serde_json::to_string(&tools).map_err(StoreError::Json)?,
            now
        ])?;
        let job = load_existing(&tx, id)?;
        tx.commit()?;
        Ok(job)
    }

    /// Withdraws a job's authorization.
    pub fn revoke_job_authorization(&self, id: &str, now: i64) -> Result<Job, JobsError> {
        let conn = self.conn();
        let changed = conn
            .prepare_cached(
                "UPDATE jobs SET auth_hash = NULL, auth_tools = NULL, authorized_at = NULL, \
                 updated_at = ?2 WHERE id = ?1",
            )?
            .execute(params![id, now])?;
        if changed == 0 {
            return Err(JobsError::NotFound(id.to_string()));
        }
        load_existing(&conn, id)
    }
}
