// The Memory page's small pieces of logic; the memory types are generated (`ui/src/lib/bindings/`,
// from hearth-store and the memory commands).

export type { Contradiction } from './bindings/Contradiction';
export type { Memory } from './bindings/Memory';
export type { MemoryForm } from './bindings/MemoryForm';
export type { MemoryList } from './bindings/MemoryList';

/** Tags typed as text: split on commas (ASCII or Chinese) and whitespace, trimmed, de-duplicated. */
export function parseTags(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[,，、\s]+/)) {
    const tag = raw.trim().toLowerCase();
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** Importance as the 0–1 number the store keeps, from a 0–100 slider value. */
export function importanceFromPercent(percent: number): number {
  if (!Number.isFinite(percent)) return 0.5;
  return Math.round(Math.min(100, Math.max(0, percent))) / 100;
}
