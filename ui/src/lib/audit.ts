// The audit log's stored values (decision, actor) in the UI language: known values are
// translated, others (written by a newer Hearth) are shown as stored.
import type { MessageKey } from './i18n/en';

const DECISIONS: Record<string, MessageKey> = {
  allow: 'audit.value.allow',
  deny: 'audit.value.deny',
  ask: 'audit.value.ask',
};

const ACTORS: Record<string, MessageKey> = {
  policy: 'audit.value.policy',
  user: 'audit.value.user',
  timeout: 'audit.value.timeout',
  'no answer (window closed or no terminal)': 'audit.value.noAnswer',
};

/** The translation key of a stored decision or actor, or null to show it as stored. */
export function auditValueKey(column: 'decision' | 'actor', value: string): MessageKey | null {
  const table = column === 'decision' ? DECISIONS : ACTORS;
  return Object.hasOwn(table, value) ? table[value] : null;
}
