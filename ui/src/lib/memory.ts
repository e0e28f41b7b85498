// Long-term memories as the store serializes them (hand-written until exported through ts-rs;
// keep the field names identical), and the Memory page's small pieces of logic.

export interface Memory {
  id: number;
  key: string | null;
  content: string;
  tags: string[];
  /** 0 to 1. */
  importance: number;
  pinned: boolean;
  source: 'user_stated' | 'model_inferred';
  target: 'user' | 'environment';
  category: string;
  /** Held back by an open contradiction. */
  pending: boolean;
  created_at: number;
  updated_at: number;
}

export interface MemoryList {
  memories: Memory[];
  total: number;
}

export interface Contradiction {
  id: number;
  memory_a: number;
  memory_b: number;
  content_a: string;
  content_b: string;
  reason: string;
  held_back: boolean;
  status: 'open' | 'resolved';
  winner_id: number | null;
  created_at: number;
  resolved_at: number | null;
}

export interface MemoryForm {
  content: string;
  tags: string[];
  importance: number;
}

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
