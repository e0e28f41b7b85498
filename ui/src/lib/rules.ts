// The Settings rules editor's model: `[[rules]]` as editable rows (allow/deny, a tool name or a
// capability, an optional workspace folder), back to rules, and moving a rule up or down.
// Whether rules are valid is decided by the backend (`validate_rules`, the loader's own check).
import type { Capability } from './bindings/Capability';
import type { PolicyRule } from './bindings/PolicyRule';
import type { RuleError } from './bindings/RuleError';

export { CAPABILITIES, RULE_EFFECTS } from './bindings/choices';
export type RuleEffect = PolicyRule['effect'];

/** What `validate_rules` rejects with: the first bad rule's place (from 0) and why. */
export type { RuleError };

/** Whether a rule names one tool (or a `prefix*` of tools) or a capability tag. */
export type RuleTarget = 'tool' | 'capability';

export interface RuleRow {
  effect: RuleEffect;
  target: RuleTarget;
  /** The tool name or the capability tag. */
  value: string;
  /** A workspace folder, or '' for everywhere. */
  workspace: string;
}

export function toRow(rule: PolicyRule): RuleRow {
  const capability = rule.capability ?? null;
  return {
    effect: rule.effect,
    target: capability !== null ? 'capability' : 'tool',
    value: capability ?? rule.tool ?? '',
    workspace: rule.workspace ?? '',
  };
}

/** The rule a row stands for: only the field its target names, no empty workspace. */
export function toRule(row: RuleRow): PolicyRule {
  const rule: PolicyRule = { effect: row.effect };
  if (row.target === 'capability') rule.capability = row.value as Capability;
  else rule.tool = row.value.trim();
  const workspace = row.workspace.trim();
  if (workspace) rule.workspace = workspace;
  return rule;
}

/** A new row: deny, by tool, everywhere. */
export function blankRow(): RuleRow {
  return { effect: 'deny', target: 'tool', value: '', workspace: '' };
}

/** `list` with the item at `from` moved to `to` (an index out of range changes nothing). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length) return next;
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

export function isRuleError(error: unknown): error is RuleError {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as Record<string, unknown>;
  return typeof e.index === 'number' && typeof e.message === 'string';
}
