//! Fitting captured output (stdout and stderr, or a terminal's raw and plain text) into the
//! model-facing cap: when the streams are too long together, each keeps its start and its end,
//! the middle is cut with a marker, and the whole text of every stream is written to `spill/`.

use crate::error::ToolError;
use crate::output::MODEL_OUTPUT_CAP;
use serde_json::{json, Map, Value};
use std::path::Path;

/// Characters of stream text a result may carry; the rest of the cap is left for the other
/// fields and for JSON escaping.
const STREAM_BUDGET: usize = MODEL_OUTPUT_CAP * 4 / 5;

/// One named stream of output.
pub(crate) struct Stream {
    pub(crate) name: &'static str,
    pub(crate) text: String,
}

/// Puts every stream into `out` under its name, cut to fit [`STREAM_BUDGET`] together. When
/// something was cut, the full texts go to `<data_dir>/spill/<uuid>.txt` (one section per
/// stream) and `out` also gets `truncated`, `spill_path`, `total_chars` and `note`.
pub(crate) async fn fit_streams(
    streams: Vec<Stream>,
    data_dir: &Path,
    out: &mut Map<String, Value>,
) -> Result<(), ToolError> {
    let lengths: Vec<usize> = streams.iter().map(|s| s.text.chars().count()).collect();
    let total: usize = lengths.iter().sum();
    if total <= STREAM_BUDGET {
        for stream in streams {
            out.insert(stream.name.to_string(), Value::String(stream.text));
        }
        return Ok(());
    }
    let shares = shares(&lengths, STREAM_BUDGET);
    let mut spill = String::new();
    let mut totals = Map::new();
    for ((stream, length), share) in streams.iter().zip(&lengths).zip(shares) {
        spill.push_str(&format!(
            "===== {} ({length} characters) =====\n{}\n",
            stream.name, stream.text
        ));
        totals.insert(stream.name.to_string(), json!(length));
        out.insert(
            stream.name.to_string(),
            Value::String(head_and_tail(&stream.text, *length, share)),
        );
    }
    let path = write_spill(data_dir, &spill).await?;
    out.insert("truncated".into(), Value::Bool(true));
    out.insert("spill_path".into(), Value::String(path));
    out.insert("total_chars".into(), Value::Object(totals));
    out.insert(
        "note".into(),
        Value::String(format!(
            "the output has {total} characters, over the {MODEL_OUTPUT_CAP}-character limit; \
             each stream shows its start and end, the whole output is in spill_path (use read_spill)"
        )),
    );
    Ok(())
}

/// Splits `budget` between streams of `lengths`: a stream shorter than an even share keeps all
/// of it, and what it leaves goes to the others.
fn shares(lengths: &[usize], budget: usize) -> Vec<usize> {
    let mut shares = vec![0; lengths.len()];
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&i| lengths[i]);
    let mut left = budget;
    for (done, &i) in order.iter().enumerate() {
        let even = left / (lengths.len() - done);
        shares[i] = lengths[i].min(even);
        left -= shares[i];
    }
    shares
}

/// `text` (of `length` characters) cut to about `share` characters: a third from its start and
/// the rest from its end, with a marker saying how much is missing in between.
fn head_and_tail(text: &str, length: usize, share: usize) -> String {
    if length <= share {
        return text.to_string();
    }
    let head = share / 3;
    let tail = share - head;
    let cut = length - head - tail;
    let head_end = text.char_indices().nth(head).map_or(text.len(), |(i, _)| i);
    let tail_start = text
        .char_indices()
        .nth(length - tail)
        .map_or(text.len(), |(i, _)| i);
    format!(
        "{}\n[… {cut} characters cut; the whole output is in spill_path …]\n{}",
        &text[..head_end],
        &text[tail_start..]
    )
}

/// Writes `text` to a new file under `<data_dir>/spill/` and returns its path.
async fn write_spill(data_dir: &Path, text: &str) -> Result<String, ToolError> {
    let dir = data_dir.join("spill");
    let path = dir.join(format!("{}.txt", uuid::Uuid::new_v4()));
    let written = async {
        tokio::fs::create_dir_all(&dir).await?;
        tokio::fs::write(&path, text).await
    };
    written.await.map_err(|e| {
        ToolError::internal(format!(
            "the output is over the cap and could not be spilled to {}: {e}",
            path.display()
        ))
    })?;
    tracing::debug!(path = %path.display(), "command output spilled");
    Ok(path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_stream_keeps_everything_and_the_long_one_gets_the_rest() {
        assert_eq!(shares(&[10, 1_000], 100), [10, 90]);
        assert_eq!(shares(&[500, 1_000], 100), [50, 50]);
        assert_eq!(shares(&[0, 0], 100), [0, 0]);
    }

    #[test]
    fn head_and_tail_marks_the_cut() {
        let text: String = ('a'..='z').collect();
        let cut = head_and_tail(&text, 26, 9);
        assert_eq!(
            cut,
            "abc\n[… 17 characters cut; the whole output is in spill_path …]\nuvwxyz"
        );
        assert_eq!(head_and_tail("héllo", 5, 5), "héllo");
    }
}
