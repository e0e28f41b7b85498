// Context windows: which one a model has (the per-model setting, else the default), the windows
// a provider listed, and a rough token count of a message before it is sent.
import type { ContentPart } from './bindings/ContentPart';
import type { ListedModel } from './bindings/ListedModel';
import type { Settings } from './bindings/Settings';

/** Tokens an image is counted as (vision models charge roughly this for a screenshot). */
export const IMAGE_TOKENS = 1_000;

/** The context window of `model`: its per-model entry, else the settings' default. */
export function contextWindowOf(settings: Settings, model: string | null): number {
  const own = model ? settings.model_context_windows[model] : undefined;
  return own && own > 0 ? own : settings.context_window;
}

/** CJK characters: the ranges of `is_cjk` (crates/protocol/src/cjk.rs), adjacent ones joined. */
const CJK =
  /[\u{1100}-\u{11ff}\u{3000}-\u{4dbf}\u{4e00}-\u{9fff}\u{a960}-\u{a97f}\u{ac00}-\u{d7ff}\u{f900}-\u{faff}\u{ff00}-\u{ffef}\u{20000}-\u{3ffff}]/u;

/** Roughly how many tokens `text` takes: one per CJK character, one per four other characters
 * (code points), as the engine's `estimate_tokens` counts; both are tested on the cases in
 * crates/protocol/tests/token_estimates.json. */
export function estimateTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    if (CJK.test(ch)) cjk++;
    else other++;
  }
  return cjk + Math.ceil(other / 4);
}

/** Roughly how many tokens a message takes: its text, inlined files and images. */
export function messageTokens(content: ContentPart[]): number {
  let total = 0;
  for (const part of content) {
    if (part.type === 'text' || part.type === 'attached') total += estimateTokens(part.text);
    else if (part.type === 'image') total += IMAGE_TOKENS;
    else if (part.type === 'skill') total += estimateTokens(part.instructions);
    else if (part.type === 'audio') total += Math.ceil(part.data.length / 2000) + 10; // as the engine counts it
    else if (part.type === 'artifact') total += estimateTokens(`[artifact ${part.id}: ${part.name}]`);
    else total += estimateTokens(`[file: ${part.name} at ${part.path}]`);
  }
  return total;
}

/** Whether a message of `tokens` will not fit a window: the engine keeps a quarter of the window
 * for the system prompt, the tools and the reply. */
export function tooLong(tokens: number, window: number): boolean {
  return tokens > (window * 3) / 4;
}

/** `windows` with the listed window of `model` recorded (unchanged when the provider said none). */
export function withListedWindow(
  windows: Settings['model_context_windows'],
  listed: ListedModel[] | null,
  model: string | null,
): Settings['model_context_windows'] {
  const window = listed?.find((m) => m.id === model)?.context_window;
  if (!model || !window) return windows;
  return { ...windows, [model]: window };
}
