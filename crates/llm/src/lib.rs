//! Model providers behind one streaming-first trait: request/response types, typed errors,
//! retry with backoff, and the OpenAI-compatible, Anthropic, Ollama and Gemini wire formats.

mod error;
mod types;

pub use error::LlmError;
pub use types::*;
