// Models of the models folder for the tests: a model as `local_models` lists it (plain defaults,
// only what a test cares about given), the built-in one, a bigger one, a broken file, and the
// recommendations.
import type { LocalModel } from '../../src/lib/bindings/LocalModel';
import type { RecommendedModel } from '../../src/lib/bindings/RecommendedModel';

export const SMOL = 'SmolLM2-135M-Instruct.Q4_1';

function model(name: string, extra: Partial<LocalModel> = {}): LocalModel {
  return {
    name,
    file_name: `${name}.gguf`,
    size_bytes: 103_733_600,
    architecture: 'llama',
    quantization: 'Q4_1',
    context_length: 8192,
    run_context: 8192,
    parameters: '135M',
    builtin: false,
    problem: null,
    ...extra,
  };
}

export const smol = model(SMOL, { builtin: true });
export const qwen = model('Qwen3-1.7B-Q4_K_M', {
  size_bytes: 1_282_439_584,
  architecture: 'qwen3',
  quantization: 'Q4_K_M',
  context_length: 40960,
  run_context: 8192,
  parameters: '1.7B',
});
export const broken = model('half-download', {
  size_bytes: 4096,
  architecture: null,
  quantization: null,
  context_length: null,
  run_context: null,
  parameters: null,
  problem: 'truncated: the file ends inside its tensor data',
});
export const GiB = 1024 ** 3;
export const recommended: RecommendedModel[] = [
  { title: 'Qwen3 1.7B', repo: 'unsloth/Qwen3-1.7B-GGUF', file: 'Qwen3-1.7B-Q4_K_M.gguf', size_bytes: 1.1 * GiB, memory_bytes: 2 * GiB, fits: true },
  { title: 'Gemma 3 4B', repo: 'unsloth/gemma-3-4b-it-GGUF', file: 'gemma-3-4b-it-Q4_K_M.gguf', size_bytes: 2.5 * GiB, memory_bytes: 5 * GiB, fits: false },
];

/** The usable models of a realistic folder: a bigger one and the built-in one. */
export const localModelItems = [qwen, smol];
