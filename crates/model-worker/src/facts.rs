//! A model's facts from its GGUF metadata: architecture, name, size, quantization, training
//! context and chat template.

use std::path::Path;

use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::LlamaModel;

use hearth_local::wire::Facts;

/// The facts of the file at `path`, read with llama.cpp loading its vocabulary only.
pub(super) fn inspect(path: &Path) -> Result<Facts, String> {
    let mut backend = LlamaBackend::init().map_err(|e| e.to_string())?;
    backend.void_logs();
    let params = LlamaModelParams::default().with_vocab_only(true);
    let model = LlamaModel::load_from_file(&backend, path, &params)
        .map_err(|e| format!("llama.cpp could not read it ({e})"))?;
    Ok(of_model(&model))
}

/// The facts of a loaded model.
pub(super) fn of_model(model: &LlamaModel) -> Facts {
    let meta = |key: &str| model.meta_val_str(key).ok().filter(|v| !v.is_empty());
    let architecture = meta("general.architecture");
    let context_length = architecture
        .as_deref()
        .and_then(|arch| meta(&format!("{arch}.context_length")))
        .and_then(|n| n.parse().ok());
    Facts {
        name: meta("general.name"),
        size_label: meta("general.size_label"),
        quantization: meta("general.file_type")
            .and_then(|t| t.parse().ok())
            .and_then(quantization_name)
            .map(str::to_string),
        context_length,
        chat_template: model
            .chat_template(None)
            .ok()
            .and_then(|t| t.to_string().ok()),
        architecture,
    }
}

/// The name of llama.cpp's `llama_ftype` number (`general.file_type`).
fn quantization_name(file_type: u32) -> Option<&'static str> {
    Some(match file_type {
        0 => "F32",
        1 => "F16",
        2 => "Q4_0",
        3 => "Q4_1",
        7 => "Q8_0",
        8 => "Q5_0",
        9 => "Q5_1",
        10 => "Q2_K",
        11 => "Q3_K_S",
        12 => "Q3_K_M",
        13 => "Q3_K_L",
        14 => "Q4_K_S",
        15 => "Q4_K_M",
        16 => "Q5_K_S",
        17 => "Q5_K_M",
        18 => "Q6_K",
        19 => "IQ2_XXS",
        20 => "IQ2_XS",
        21 => "Q2_K_S",
        22 => "IQ3_XS",
        23 => "IQ3_XXS",
        24 => "IQ1_S",
        25 => "IQ4_NL",
        26 => "IQ3_S",
        27 => "IQ3_M",
        28 => "IQ2_S",
        29 => "IQ2_M",
        30 => "IQ4_XS",
        31 => "IQ1_M",
        32 => "BF16",
        36 => "TQ1_0",
        37 => "TQ2_0",
        38 => "MXFP4",
        _ => return None,
    })
}
