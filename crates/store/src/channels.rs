//! The inbox of inbound channels: each channel's poll offset and the updates it received, with
//! how far each got (received → running → replying → answered, or refused). Updates are stored
//! in the same transaction that moves the offset past them, so none is lost; a reply that may
//! have gone out before a crash is never sent again.

use rusqlite::{params, OptionalExtension, Row};

use crate::{Result, Store};

/// How far an inbound update got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InboxStatus {
    /// Stored, not yet handled.
    Received,
    /// Its turn is running (rerun after a crash: nothing was sent yet).
    Running,
    /// The reply is being sent (after a crash it may have gone out: never resent).
    Replying,
    Answered,
    /// The chat is not allowed; the refusal was sent.
    Refused,
    /// A crash interrupted the reply; whether it arrived is unknown.
    Unknown,
}

impl InboxStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            InboxStatus::Received => "received",
            InboxStatus::Running => "running",
            InboxStatus::Replying => "replying",
            InboxStatus::Answered => "answered",
            InboxStatus::Refused => "refused",
            InboxStatus::Unknown => "unknown",
        }
    }

    fn parse(s: &str) -> InboxStatus {
        match s {
            "received" => InboxStatus::Received,
            "running" => InboxStatus::Running,
            "replying" => InboxStatus::Replying,
            "answered" => InboxStatus::Answered,
            "refused" => InboxStatus::Refused,
            _ => InboxStatus::Unknown,
        }
    }
}

/// An update as a channel received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// The channel's own sequence number (Telegram: `update_id`).
    pub seq: i64,
    pub chat_id: String,
    pub sender: Option<String>,
    pub text: String,
}

/// A stored update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboxEntry {
    pub channel: String,
    pub received: Received,
    pub status: InboxStatus,
    pub note: Option<String>,
}

fn entry_from_row(row: &Row<'_>) -> rusqlite::Result<InboxEntry> {
    Ok(InboxEntry {
        channel: row.get("channel")?,
        received: Received {
            seq: row.get("seq")?,
            chat_id: row.get("chat_id")?,
            sender: row.get("sender")?,
            text: row.get("text")?,
        },
        status: InboxStatus::parse(&row.get::<_, String>("status")?),
        note: row.get("note")?,
    })
}

const INBOX_COLUMNS: &str = "channel, seq, chat_id, sender, text, status, note";

impl Store {
    /// The first sequence number `channel` has not stored yet (0 before the first update).
    pub fn channel_offset(&self, channel: &str) -> Result<i64> {
        let conn = self.conn();
        let offset = conn
            .prepare_cached("SELECT next_seq FROM channel_offsets WHERE channel = ?1")?
            .query_row([channel], |row| row.get(0))
            .optional()?;
        Ok(offset.unwrap_or(0))
    }

    /// Stores `updates` (ones already stored are left as they are) and moves the offset to
    /// `next_seq` (never back), in one transaction. Returns how many were new.
    pub fn receive_channel_updates(
        &self,
        channel: &str,
        updates: &[Received],
        next_seq: i64,
    ) -> Result<usize> {
        let now = self.now_ms();
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let mut added = 0;
        for update in updates {
            added += tx.execute(
                "INSERT OR IGNORE INTO channel_inbox \
                 (channel, seq, chat_id, sender, text, status, received_at, updated_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, 'received', ?6, ?6)",
                params![
                    channel,
                    update.seq,
                    update.chat_id,
                    update.sender,
                    update.text,
                    now
                ],
            )?;
        }
        tx.execute(
            "INSERT INTO channel_offsets (channel, next_seq, updated_at) VALUES (?1, ?2, ?3) \
             ON CONFLICT(channel) DO UPDATE SET \
             next_seq = max(next_seq, excluded.next_seq), updated_at = excluded.updated_at",
            params![channel, next_seq, now],
        )?;
        tx.commit()?;
        Ok(added)
    }

    /// The updates of `channel` still to handle, oldest first. Replies a crash interrupted are
    /// marked [`InboxStatus::Unknown`] first (they may have arrived, so they are not resent).
    pub fn pending_channel_updates(&self, channel: &str) -> Result<Vec<InboxEntry>> {
        let conn = self.conn();
        conn.execute(
            "UPDATE channel_inbox SET status = 'unknown', updated_at = ?2, \
             note = 'interrupted while the reply was being sent' \
             WHERE channel = ?1 AND status = 'replying'",
            params![channel, self.now_ms()],
        )?;
        let sql = format!(
            "SELECT {INBOX_COLUMNS} FROM channel_inbox \
             WHERE channel = ?1 AND status IN ('received', 'running') ORDER BY seq"
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt
            .query_map([channel], entry_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// Records how far an update got.
    pub fn set_channel_update_status(
        &self,
        channel: &str,
        seq: i64,
        status: InboxStatus,
        note: Option<&str>,
    ) -> Result<()> {
        self.conn().execute(
            "UPDATE channel_inbox SET status = ?3, note = ?4, updated_at = ?5 \
             WHERE channel = ?1 AND seq = ?2",
            params![channel, seq, status.as_str(), note, self.now_ms()],
        )?;
        Ok(())
    }

    /// Whether `chat_id` of `channel` was refused before update `seq` (it gets one refusal).
    pub fn channel_chat_refused_before(
        &self,
        channel: &str,
        chat_id: &str,
        seq: i64,
    ) -> Result<bool> {
        let conn = self.conn();
        let found: Option<i64> = conn
            .prepare_cached(
                "SELECT seq FROM channel_inbox WHERE channel = ?1 AND chat_id = ?2 \
                 AND status = 'refused' AND seq < ?3 LIMIT 1",
            )?
            .query_row(params![channel, chat_id, seq], |row| row.get(0))
            .optional()?;
        Ok(found.is_some())
    }

    /// Every stored update of `channel`, oldest first.
    pub fn channel_inbox(&self, channel: &str) -> Result<Vec<InboxEntry>> {
        let conn = self.conn();
        let sql =
            format!("SELECT {INBOX_COLUMNS} FROM channel_inbox WHERE channel = ?1 ORDER BY seq");
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt
            .query_map([channel], entry_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::test_support::TempStore;

    fn update(seq: i64) -> Received {
        Received {
            seq,
            chat_id: "42".into(),
            sender: Some("ann".into()),
            text: format!("hello {seq}"),
        }
    }

    #[test]
    fn updates_are_stored_once_and_the_offset_only_moves_forward() {
        let temp = TempStore::new();
        let store = &temp.store;
        assert_eq!(store.channel_offset("tg").unwrap(), 0);
        assert_eq!(
            store
                .receive_channel_updates("tg", &[update(7), update(8)], 9)
                .unwrap(),
            2
        );
        assert_eq!(store.channel_offset("tg").unwrap(), 9);
        // The same batch again (the server resent it): nothing new, offset unchanged.
        assert_eq!(
            store
                .receive_channel_updates("tg", &[update(8)], 9)
                .unwrap(),
            0
        );
        assert_eq!(store.channel_offset("tg").unwrap(), 9);
        assert_eq!(store.channel_offset("other").unwrap(), 0);
    }

    #[test]
    fn an_interrupted_reply_is_not_pending_but_an_interrupted_turn_is() {
        let temp = TempStore::new();
        let store = &temp.store;
        store
            .receive_channel_updates("tg", &[update(1), update(2), update(3)], 4)
            .unwrap();
        store
            .set_channel_update_status("tg", 1, InboxStatus::Running, None)
            .unwrap();
        store
            .set_channel_update_status("tg", 2, InboxStatus::Replying, None)
            .unwrap();
        let pending: Vec<i64> = store
            .pending_channel_updates("tg")
            .unwrap()
            .into_iter()
            .map(|e| e.received.seq)
            .collect();
        assert_eq!(pending, vec![1, 3]);
        let all = store.channel_inbox("tg").unwrap();
        assert_eq!(all[1].status, InboxStatus::Unknown);
        assert_eq!(all[0].received.text, "hello 1");
    }
}
