//! Jobs as rows: the columns read, a row into a [`Job`], loading one by id, and the checks a
//! write makes (a free name, room for one more enabled job).

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::{Authorization, Job, JobsError, MAX_ENABLED_JOBS};
use crate::Result;

pub(super) const JOB_SELECT: &str =
    "SELECT id, name, schedule, tz, prompt, target, model, enabled, notify, \
     auth_hash, auth_tools, authorized_at, created_at, updated_at, last_run_at, next_run_at, \
     run_requested_at, skill FROM jobs";

pub(super) fn job_from_row(row: &Row<'_>) -> rusqlite::Result<Job> {
    let hash: Option<String> = row.get(9)?;
    let tools: Option<String> = row.get(10)?;
    let authorized_at: Option<i64> = row.get(11)?;
    let authorization = match (hash, tools, authorized_at) {
        (Some(hash), Some(tools), Some(authorized_at)) => Some(Authorization {
            hash,
            tools: serde_json::from_str(&tools).map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(10, rusqlite::types::Type::Text, e.into())
            })?,
            authorized_at,
        }),
        _ => None,
    };
    Ok(Job {
        id: row.get(0)?,
        name: row.get(1)?,
        schedule: row.get(2)?,
        tz: row.get(3)?,
        prompt: row.get(4)?,
        target: row.get(5)?,
        model: row.get(6)?,
        enabled: row.get(7)?,
        notify: row.get(8)?,
        authorization,
        created_at: row.get(12)?,
        updated_at: row.get(13)?,
        last_run_at: row.get(14)?,
        next_run_at: row.get(15)?,
        run_requested_at: row.get(16)?,
        skill: row.get(17)?,
    })
}

pub(super) fn load(conn: &Connection, id: &str) -> Result<Option<Job>, JobsError> {
    let sql = format!("{JOB_SELECT} WHERE id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([id], job_from_row)
        .optional()?)
}

pub(super) fn load_existing(conn: &Connection, id: &str) -> Result<Job, JobsError> {
    load(conn, id)?.ok_or_else(|| JobsError::NotFound(id.to_string()))
}

pub(super) fn check_name_free(
    conn: &Connection,
    name: &str,
    except_id: &str,
) -> Result<(), JobsError> {
    let taken: Option<String> = conn
        .prepare_cached("SELECT id FROM jobs WHERE name = ?1 AND id <> ?2")?
        .query_row(params![name, except_id], |row| row.get(0))
        .optional()?;
    match taken {
        Some(_) => Err(JobsError::NameTaken(name.to_string())),
        None => Ok(()),
    }
}

pub(super) fn check_room_to_enable(conn: &Connection, except_id: &str) -> Result<(), JobsError> {
    let enabled: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM jobs WHERE enabled = 1 AND id <> ?1")?
        .query_row([except_id], |row| row.get(0))?;
    if usize::try_from(enabled).unwrap_or(usize::MAX) >= MAX_ENABLED_JOBS {
        return Err(JobsError::TooManyEnabled {
            limit: MAX_ENABLED_JOBS,
        });
    }
    Ok(())
}
