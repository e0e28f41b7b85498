//! Forwards a turn's events to the window. Text deltas of one message that arrive within a frame
//! (16 ms) of each other go out as one event, so a fast model costs the UI about one update per
//! frame instead of one per token. Order is kept: any other event first flushes the held text.

use std::time::Duration;

use hearth_protocol::EngineEvent;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::{timeout_at, Instant};

/// How long text may wait for more text of the same message before it is sent.
const FRAME: Duration = Duration::from_millis(16);

/// Appends `next` to `held` when both are text of the same message; otherwise gives `next` back.
fn merge(held: &mut EngineEvent, next: EngineEvent) -> Option<EngineEvent> {
    match (held, next) {
        (
            EngineEvent::TextDelta { message_id, text },
            EngineEvent::TextDelta {
                message_id: next_id,
                text: more,
            },
        ) if *message_id == next_id => {
            text.push_str(&more);
            None
        }
        (_, next) => Some(next),
    }
}

/// Passes every event from `events` to `send` until the sender is gone, merging text deltas.
pub async fn forward(mut events: UnboundedReceiver<EngineEvent>, send: impl Fn(EngineEvent)) {
    // An event that ended a merge; it is held next (text of another message merges in turn).
    let mut carried = None;
    loop {
        let mut held = match carried.take() {
            Some(event) => event,
            None => match events.recv().await {
                Some(event) => event,
                None => return,
            },
        };
        if matches!(held, EngineEvent::TextDelta { .. }) {
            let deadline = Instant::now() + FRAME;
            // Text already queued always merges (however late this task ran); otherwise wait
            // for more until the frame is over.
            loop {
                let next = match events.try_recv() {
                    Ok(next) => next,
                    Err(_) => match timeout_at(deadline, events.recv()).await {
                        Ok(Some(next)) => next,
                        _ => break,
                    },
                };
                carried = merge(&mut held, next);
                if carried.is_some() {
                    break;
                }
            }
        }
        send(held);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::{Arc, Mutex};

    use hearth_protocol::{StopReason, ToolCall, Usage};
    use tokio::sync::mpsc::unbounded_channel;

    use super::*;

    fn delta(message_id: i64, text: &str) -> EngineEvent {
        EngineEvent::TextDelta {
            message_id,
            text: text.to_string(),
        }
    }

    fn collector() -> (Arc<Mutex<Vec<EngineEvent>>>, impl Fn(EngineEvent)) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        (seen, move |event| sink.lock().unwrap().push(event))
    }

    #[tokio::test]
    async fn text_waiting_together_goes_out_merged_and_in_order() {
        let started = EngineEvent::AssistantStarted {
            message_id: 1,
            model: "m".to_string(),
        };
        let call = EngineEvent::ToolCallStarted {
            message_id: 1,
            call: ToolCall {
                id: "c1".to_string(),
                name: "calculator".to_string(),
                arguments: "{}".to_string(),
                signature: None,
            },
            views: Vec::new(),
        };
        let finished = EngineEvent::AssistantFinished {
            message_id: 2,
            usage: Usage::default(),
            stop_reason: StopReason::EndTurn,
        };
        let (tx, rx) = unbounded_channel();
        let queued = [
            started.clone(),
            delta(1, "Hel"),
            delta(1, "lo, "),
            delta(1, "world"),
            delta(2, "other"),
            delta(2, " message"),
            call.clone(),
            delta(1, "after"),
            finished.clone(),
        ];
        for event in queued {
            tx.send(event).unwrap();
        }
        drop(tx);
        let (seen, send) = collector();
        forward(rx, send).await;
        let expected = vec![
            started,
            delta(1, "Hello, world"),
            delta(2, "other message"),
            call,
            delta(1, "after"),
            finished,
        ];
        assert_eq!(*seen.lock().unwrap(), expected);
    }

    #[tokio::test]
    async fn held_text_is_sent_while_the_turn_goes_on() {
        let (tx, rx) = unbounded_channel();
        let (seen, send) = collector();
        let forwarder = tokio::spawn(forward(rx, send));
        tx.send(delta(7, "partial")).unwrap();
        // The sender stays open: the text must not wait for the turn to end.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while seen.lock().unwrap().is_empty() {
            assert!(
                std::time::Instant::now() < deadline,
                "the text was held back"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(*seen.lock().unwrap(), vec![delta(7, "partial")]);
        drop(tx);
        forwarder.await.unwrap();
    }
}
