//! Model-written chat titles: after a chat's first reply, a separate small request (bounded in
//! tokens and time, nothing stored in the chat) asks the model for a short title in the
//! conversation's language. It replaces only the first-words title the first message gave the
//! chat, so a title the user edited — before or while it is written — is kept; when the model
//! fails, the first words stay.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use hearth_llm::{ChatMessage, ChatRequest, StreamEvent};
use hearth_protocol::{MessageKind, MessageStatus, Role};

use crate::engine::Engine;
use crate::turns::{asked, title_from};
use crate::EngineError;
use hearth_store::StoreError;

/// The longest a title request may take, start to end.
pub const TITLE_TIMEOUT: Duration = Duration::from_secs(20);
/// Tokens the title may take.
const TITLE_MAX_TOKENS: u32 = 40;
/// Characters of the first message and reply the title request quotes.
const QUOTED_CHARS: usize = 2_000;
/// The longest title kept, in characters.
const TITLE_CHARS: usize = 60;

/// The instruction of a title request (also how tests recognise one in the journal).
pub const TITLE_PROMPT: &str = "You name conversations. Reply with a title of at most six words \
for the conversation below, written in the same language as the user's message (Chinese for a \
Chinese conversation). Reply with the title only: no quotes, no punctuation at the end, no \
explanation.";

impl Engine {
    /// After the first reply of `session_id`, replaces its first-words title with one the model
    /// writes; the new title, or `None` when there is nothing to do (not the first reply, a
    /// title the user chose) or the model failed (the first words stay).
    pub async fn write_title(&self, session_id: &str) -> Result<Option<String>, EngineError> {
        let id = session_id.to_string();
        let read = self
            .db
            .read(move |store| {
                let Some(session) = store.get_session(&id)? else {
                    return Ok(None);
                };
                Ok::<_, StoreError>(Some((session, store.list_messages(&id)?)))
            })
            .await?;
        let Some((session, messages)) = read else {
            return Ok(None);
        };
        let normal = || messages.iter().filter(|m| m.kind == MessageKind::Normal);
        let mut users = normal().filter(|m| m.role == Role::User);
        let (Some(first), None) = (users.next(), users.next()) else {
            return Ok(None);
        };
        let question = asked(&first.content);
        let Some(fallback) = title_from(&question) else {
            return Ok(None);
        };
        let reply = normal()
            .filter(|m| m.role == Role::Assistant && m.status == MessageStatus::Complete)
            .map(|m| m.text())
            .find(|text| !text.trim().is_empty());
        let (Some(reply), true) = (reply, session.title == fallback) else {
            return Ok(None);
        };
        let model = session
            .model
            .clone()
            .unwrap_or_else(|| self.options.default_model.clone());
        let written = match tokio::time::timeout(
            TITLE_TIMEOUT,
            self.ask_title(&model, &question, &reply),
        )
        .await
        {
            Ok(Ok(title)) => title,
            Ok(Err(error)) => {
                tracing::warn!(%error, session = session_id, "no title from the model: the first words stay");
                None
            }
            Err(_) => {
                tracing::warn!(
                    session = session_id,
                    "the title request timed out: the first words stay"
                );
                None
            }
        };
        let Some(title) = written else {
            return Ok(None);
        };
        let (id, written) = (session_id.to_string(), title.clone());
        let retitled = self
            .db
            .write(move |store| store.retitle_session(&id, &fallback, &written))
            .await?;
        Ok(retitled.then_some(title))
    }

    /// One title request, streamed and collected.
    async fn ask_title(
        &self,
        model: &str,
        question: &str,
        reply: &str,
    ) -> Result<Option<String>, EngineError> {
        let quote = |text: &str| text.chars().take(QUOTED_CHARS).collect::<String>();
        let request = ChatRequest {
            model: model.to_string(),
            system: TITLE_PROMPT.to_string(),
            messages: vec![ChatMessage::user(format!(
                "User:\n{}\n\nAssistant:\n{}",
                quote(question),
                quote(reply)
            ))],
            tools: Arc::from([]),
            max_tokens: Some(TITLE_MAX_TOKENS),
            temperature: Some(0.2),
            tool_choice: hearth_llm::ToolChoice::Auto,
        };
        let mut stream = self.model.stream(&request).await?;
        let mut text = String::new();
        while let Some(event) = stream.next().await {
            if let StreamEvent::TextDelta(delta) = event? {
                text.push_str(&delta);
            }
        }
        Ok(clean_title(&text))
    }
}

/// The title in a model's answer: after any `<think>` block, its first non-empty line without
/// quotes, Markdown marks or a "Title:" label, at most [`TITLE_CHARS`] characters; `None` when
/// nothing is left.
fn clean_title(answer: &str) -> Option<String> {
    let answer = answer
        .rsplit_once("</think>")
        .map_or(answer, |(_, after)| after);
    let line = answer
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())?;
    let line = ["Title:", "title:", "标题：", "标题:"]
        .iter()
        .find_map(|label| line.strip_prefix(label))
        .unwrap_or(line);
    let trimmed =
        line.trim_matches(|c: char| c.is_whitespace() || "\"'“”‘’「」《》*#`.。".contains(c));
    let title: String = trimmed.chars().take(TITLE_CHARS).collect();
    (!title.is_empty()).then_some(title)
}

#[cfg(test)]
mod tests {
    use super::clean_title;

    #[test]
    fn a_title_is_cleaned_of_quotes_labels_and_marks() {
        assert_eq!(
            clean_title("\"Watering the plants\"\n").as_deref(),
            Some("Watering the plants")
        );
        assert_eq!(
            clean_title("Title: **Tomato sowing**.").as_deref(),
            Some("Tomato sowing")
        );
        assert_eq!(
            clean_title("\n  《番茄播种时间》。").as_deref(),
            Some("番茄播种时间")
        );
        assert_eq!(clean_title("  \n\"\"  "), None);
        assert_eq!(
            clean_title("<think>\nhmm\n</think>\nSeedlings").as_deref(),
            Some("Seedlings")
        );
        assert_eq!(
            clean_title(&"x".repeat(90)).map(|t| t.chars().count()),
            Some(60)
        );
    }
}
