//! One loaded model and its context: prompts are processed from the first token that differs
//! from what the context already holds (the prefix cache), replies are streamed piece by piece,
//! and a cancel is seen between two tokens.

use std::num::NonZeroU32;

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;

use super::io::{Incoming, Output};
use super::{facts, grammar};
use hearth_local::wire::{Failure, Finish, FinishReason, Generate, Load, Reply, Request};

/// The context used when neither the settings nor memory ask for less: the models worth running
/// here train with 8k to 128k, and a 128k context's cache alone would take gigabytes.
const DEFAULT_CONTEXT: u32 = 8192;

/// Tokens processed per decode call while reading a prompt.
const BATCH: u32 = 512;

/// Loads `load.path`, answers `Loaded`, then serves requests until stdin closes.
pub(super) fn serve(load: &Load, incoming: &Incoming, out: &mut Output) -> i32 {
    let opened = match Opened::open(load) {
        Ok(opened) => opened,
        Err(failure) => {
            let _ = out.send(&Reply::Failed(failure));
            return 1;
        }
    };
    let (model, backend) = (&opened.model, &opened.backend);
    let mut session = match Session::new(model, backend, load) {
        Ok(session) => session,
        Err(failure) => {
            let _ = out.send(&Reply::Failed(failure));
            return 1;
        }
    };
    if out.send(&Reply::Loaded(session.describe())).is_err() {
        return 1;
    }
    while let Some(request) = incoming.next() {
        let reply = match request {
            Ok(Request::Generate(generate)) => {
                let cancelled = incoming.cancel_check();
                match session.generate(&generate, &cancelled, out) {
                    Ok(finish) => Reply::Done(finish),
                    Err(failure) => Reply::Failed(failure),
                }
            }
            Ok(other) => Reply::Failed(Failure::Other(format!("unexpected request {other:?}"))),
            Err(reason) => Reply::Failed(Failure::Other(reason)),
        };
        if out.send(&reply).is_err() {
            return 1;
        }
    }
    0
}

/// The backend and the model, which the context borrows.
struct Opened {
    backend: LlamaBackend,
    model: LlamaModel,
}

impl Opened {
    fn open(load: &Load) -> Result<Opened, Failure> {
        let mut backend =
            LlamaBackend::init().map_err(|e| Failure::Other(format!("llama.cpp: {e}")))?;
        backend.void_logs();
        let model = LlamaModel::load_from_file(&backend, &load.path, &LlamaModelParams::default())
            .map_err(|e| Failure::Unusable(format!("llama.cpp could not load it ({e})")))?;
        Ok(Opened { backend, model })
    }
}

struct Session<'m> {
    model: &'m LlamaModel,
    context: LlamaContext<'m>,
    /// The tokens whose state the context holds, in order.
    kept: Vec<LlamaToken>,
    /// The position of the token sampled last, in the last decoded batch.
    logits_at: i32,
}

impl<'m> Session<'m> {
    fn new(model: &'m LlamaModel, backend: &LlamaBackend, load: &Load) -> Result<Self, Failure> {
        let context_length = choose_context(load.context_length, model);
        let threads = i32::try_from(choose_threads(load.threads)).unwrap_or(4);
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(context_length))
            .with_n_batch(BATCH)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        let context = model
            .new_context(backend, params)
            .map_err(|e| Failure::Other(format!("no context of {context_length} tokens: {e}")))?;
        Ok(Session {
            model,
            context,
            kept: Vec::new(),
            logits_at: 0,
        })
    }

    fn describe(&self) -> hearth_local::wire::Loaded {
        let vocab = self.model.vocab();
        let text = |token| String::from_utf8_lossy(&vocab.token_to_piece(token, true, None)).into();
        hearth_local::wire::Loaded {
            facts: facts::of_model(self.model),
            context_length: self.context.n_ctx(),
            bos_token: text(vocab.bos()),
            eos_token: text(vocab.eos()),
        }
    }

    fn generate(
        &mut self,
        request: &Generate,
        cancelled: &dyn Fn() -> bool,
        out: &mut Output,
    ) -> Result<Finish, Failure> {
        let result = self.run(request, cancelled, out);
        if result.is_err() {
            // What the context holds is unknown now: start the next prompt from nothing.
            self.kept.clear();
            self.context.clear_kv_cache();
        }
        result
    }

    fn run(
        &mut self,
        request: &Generate,
        cancelled: &dyn Fn() -> bool,
        out: &mut Output,
    ) -> Result<Finish, Failure> {
        let prompt = self
            .model
            .vocab()
            .tokenize(request.prompt.as_bytes(), false, true);
        let context = self.context.n_ctx() as usize;
        if prompt.is_empty() || prompt.len() >= context {
            return Err(Failure::TooLong {
                tokens: prompt.len() as u64,
                context: context as u64,
            });
        }
        let cached = self.read_prompt(&prompt, cancelled)?;
        let mut finish = Finish {
            reason: FinishReason::Cancelled,
            prompt_tokens: prompt.len() as u64,
            cached_tokens: cached as u64,
            completion_tokens: 0,
        };
        if cancelled() {
            return Ok(finish);
        }
        let mut sampler = sampler(self.model, request);
        let mut text = Utf8Pieces::default();
        let mut batch = LlamaBatch::new(1, 1);
        finish.reason = loop {
            if cancelled() {
                break FinishReason::Cancelled;
            }
            if finish.completion_tokens >= u64::from(request.max_tokens)
                || self.kept.len() >= context
            {
                break FinishReason::Length;
            }
            let token = sampler.sample(&self.context, self.logits_at);
            if self.model.vocab().is_eog(token) {
                break FinishReason::Stop;
            }
            finish.completion_tokens += 1;
            let piece = self.model.vocab().token_to_piece(token, false, None);
            if let Some(whole) = text.push(&piece) {
                send_piece(out, whole)?;
            }
            batch.clear();
            batch
                .add(token, self.kept.len() as i32, &[0], true)
                .map_err(other)?;
            self.context.decode(&mut batch).map_err(other)?;
            self.kept.push(token);
            self.logits_at = 0;
        };
        if let Some(rest) = text.finish() {
            send_piece(out, rest)?;
        }
        Ok(finish)
    }

    /// Processes the prompt from its first token the context does not hold; returns how many
    /// were kept. At least the last token is processed again, for its logits.
    fn read_prompt(
        &mut self,
        prompt: &[LlamaToken],
        cancelled: &dyn Fn() -> bool,
    ) -> Result<usize, Failure> {
        let same = self
            .kept
            .iter()
            .zip(prompt)
            .take_while(|(a, b)| a == b)
            .count();
        let keep = same.min(prompt.len() - 1);
        self.context
            .clear_kv_cache_seq(Some(0), Some(keep as u32), None)
            .map_err(other)?;
        self.kept.truncate(keep);
        let mut batch = LlamaBatch::new(BATCH as usize, 1);
        for chunk in prompt[keep..].chunks(BATCH as usize) {
            if cancelled() {
                break;
            }
            batch.clear();
            let last_chunk = self.kept.len() + chunk.len() == prompt.len();
            for (i, token) in chunk.iter().enumerate() {
                let position = (self.kept.len() + i) as i32;
                let logits = last_chunk && i + 1 == chunk.len();
                batch.add(*token, position, &[0], logits).map_err(other)?;
            }
            self.context.decode(&mut batch).map_err(other)?;
            self.kept.extend_from_slice(chunk);
            self.logits_at = batch.n_tokens() - 1;
        }
        Ok(keep)
    }
}

fn send_piece(out: &mut Output, text: String) -> Result<(), Failure> {
    out.send(&Reply::Piece(text))
        .map_err(|e| Failure::Other(format!("the reply could not be written: {e}")))
}

fn other(error: impl std::fmt::Display) -> Failure {
    Failure::Other(error.to_string())
}

/// Greedy at temperature 0, else top-k / top-p / min-p / temperature; a tool grammar first.
fn sampler(model: &LlamaModel, request: &Generate) -> LlamaSampler {
    let mut chain = Vec::new();
    if let Some(spec) = &request.tools {
        let sampler = grammar::tool_call_grammar(spec).and_then(|(gbnf, pattern)| {
            if spec.required {
                LlamaSampler::grammar(model, &gbnf, "root")
            } else {
                LlamaSampler::grammar_lazy_patterns(model, &gbnf, "root", &[pattern], &[])
            }
            .map_err(|e| e.to_string())
        });
        match sampler {
            Ok(grammar) => chain.push(grammar),
            Err(error) => tracing::warn!(%error, "tool calls are not held to a grammar"),
        }
    }
    if request.temperature <= 0.0 {
        chain.push(LlamaSampler::greedy());
    } else {
        chain.extend([
            LlamaSampler::top_k(40),
            LlamaSampler::top_p(0.95, 1),
            LlamaSampler::min_p(0.05, 1),
            LlamaSampler::temp(request.temperature),
            LlamaSampler::dist(rand_seed()),
        ]);
    }
    LlamaSampler::chain_simple(chain)
}

fn rand_seed() -> u32 {
    uuid::Uuid::new_v4().as_fields().0
}

/// The context: the setting, else the training context up to [`DEFAULT_CONTEXT`]; then at most
/// what half the free memory holds of its key/value cache.
fn choose_context(setting: u32, model: &LlamaModel) -> u32 {
    let trained = model.n_ctx_train().max(512);
    let wanted = if setting > 0 {
        setting.min(trained)
    } else {
        trained.min(DEFAULT_CONTEXT)
    };
    let per_token = kv_bytes_per_token(model).max(1);
    let free = free_memory_bytes();
    let affordable = u32::try_from(free / 2 / per_token).unwrap_or(u32::MAX);
    wanted.min(affordable).max(512) / 256 * 256
}

/// f16 keys and values of every layer.
fn kv_bytes_per_token(model: &LlamaModel) -> u64 {
    let heads = u64::from(model.n_head().max(1));
    let head_size = u64::try_from(model.n_embd()).unwrap_or(0) / heads;
    let kv_width = head_size * u64::from(model.n_head_kv());
    2 * u64::from(model.n_layer()) * kv_width * 2
}

fn free_memory_bytes() -> u64 {
    let mut system = sysinfo::System::new();
    system.refresh_memory();
    system.available_memory()
}

/// The setting, else the physical cores (generation is memory-bound: hyper-threads slow it).
fn choose_threads(setting: u32) -> u32 {
    if setting > 0 {
        return setting;
    }
    sysinfo::System::physical_core_count()
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(4)
        .max(1)
}

/// Token pieces turned into whole UTF-8 characters (a character may span tokens).
#[derive(Default)]
struct Utf8Pieces {
    pending: Vec<u8>,
}

impl Utf8Pieces {
    fn push(&mut self, piece: &[u8]) -> Option<String> {
        self.pending.extend_from_slice(piece);
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            // Not UTF-8 at all: pass it on, replaced.
            Err(_) => self.pending.len(),
        };
        if valid == 0 {
            return None;
        }
        let whole: Vec<u8> = self.pending.drain(..valid).collect();
        Some(String::from_utf8_lossy(&whole).into_owned())
    }

    fn finish(&mut self) -> Option<String> {
        (!self.pending.is_empty())
            .then(|| String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::Utf8Pieces;

    #[test]
    fn characters_split_across_tokens_come_out_whole() {
        let mut pieces = Utf8Pieces::default();
        let bytes = "好".as_bytes();
        assert_eq!(pieces.push(&bytes[..2]), None);
        assert_eq!(pieces.push(&bytes[2..]).as_deref(), Some("好"));
        assert_eq!(pieces.push(b"ok").as_deref(), Some("ok"));
        assert_eq!(pieces.push(&[0xE5]), None);
        assert_eq!(pieces.finish().as_deref(), Some("\u{FFFD}"));
    }
}
