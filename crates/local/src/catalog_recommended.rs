//! The short list of models worth downloading first, and which fit this machine's memory.

use hearth_protocol::RecommendedModel;

const MB: u64 = 1024 * 1024;

/// (title, Hugging Face repo, file, file size, memory to run with a 4k context).
const MODELS: &[(&str, &str, &str, u64, u64)] = &[
    (
        "Qwen3 0.6B",
        "Qwen/Qwen3-0.6B-GGUF",
        "Qwen3-0.6B-Q8_0.gguf",
        639 * MB,
        1100 * MB,
    ),
    (
        "Qwen3 1.7B",
        "Qwen/Qwen3-1.7B-GGUF",
        "Qwen3-1.7B-Q8_0.gguf",
        1834 * MB,
        2600 * MB,
    ),
    (
        "Qwen3 4B",
        "Qwen/Qwen3-4B-GGUF",
        "Qwen3-4B-Q4_K_M.gguf",
        2497 * MB,
        3600 * MB,
    ),
    (
        "Llama 3.2 1B Instruct",
        "bartowski/Llama-3.2-1B-Instruct-GGUF",
        "Llama-3.2-1B-Instruct-Q4_K_M.gguf",
        808 * MB,
        1400 * MB,
    ),
    (
        "Llama 3.2 3B Instruct",
        "bartowski/Llama-3.2-3B-Instruct-GGUF",
        "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        2019 * MB,
        3000 * MB,
    ),
    (
        "Gemma 3 1B",
        "ggml-org/gemma-3-1b-it-GGUF",
        "gemma-3-1b-it-Q4_K_M.gguf",
        806 * MB,
        1400 * MB,
    ),
    (
        "Gemma 3 4B",
        "ggml-org/gemma-3-4b-it-GGUF",
        "gemma-3-4b-it-Q4_K_M.gguf",
        2490 * MB,
        3800 * MB,
    ),
];

/// The list, each marked whether it fits in `memory_bytes` with room for the system (a
/// quarter of the memory kept free).
pub(crate) fn recommended(memory_bytes: u64) -> Vec<RecommendedModel> {
    let usable = memory_bytes / 4 * 3;
    MODELS
        .iter()
        .map(
            |&(title, repo, file, size_bytes, memory)| RecommendedModel {
                title: title.into(),
                repo: repo.into(),
                file: file.into(),
                size_bytes,
                memory_bytes: memory,
                fits: memory <= usable,
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn what_fits_follows_the_memory() {
        let small = super::recommended(2 * 1024 * super::MB);
        assert!(small.iter().any(|m| m.fits) && small.iter().any(|m| !m.fits));
        assert!(super::recommended(64 * 1024 * super::MB)
            .iter()
            .all(|m| m.fits));
    }
}
