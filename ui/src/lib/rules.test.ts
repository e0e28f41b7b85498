import { describe, expect, it } from 'vitest';
import type { PolicyRule } from './bindings/PolicyRule';
import { blankRow, isRuleError, moved, toRow, toRule, type RuleRow } from './rules';

describe('rules editor model', () => {
  it('turns rules into rows and back without empty fields', () => {
    const rules: PolicyRule[] = [
      { effect: 'deny', tool: 'exec' },
      { effect: 'allow', capability: 'fs.write', workspace: '/home/me/project' },
    ];
    const rows = rules.map(toRow);
    expect(rows).toEqual([
      { effect: 'deny', target: 'tool', value: 'exec', workspace: '' },
      { effect: 'allow', target: 'capability', value: 'fs.write', workspace: '/home/me/project' },
    ]);
    expect(rows.map(toRule)).toEqual(rules);
  });

  it('keeps only the field the row targets, trimmed', () => {
    const row: RuleRow = { effect: 'allow', target: 'capability', value: 'network.outbound', workspace: '  ' };
    expect(toRule(row)).toEqual({ effect: 'allow', capability: 'network.outbound' });
    expect(toRule({ ...row, target: 'tool', value: ' mcp__github__* ' })).toEqual({ effect: 'allow', tool: 'mcp__github__*' });
    expect(toRule(blankRow())).toEqual({ effect: 'deny', tool: '' });
  });

  it('moves a rule up or down and ignores moves past either end', () => {
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moved(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
  });

  it('recognises the backend rule error', () => {
    expect(isRuleError({ index: 1, message: 'unknown capability' })).toBe(true);
    expect(isRuleError('rule 2 in config.toml: …')).toBe(false);
    expect(isRuleError({ index: '1', message: 'x' })).toBe(false);
    expect(isRuleError(null)).toBe(false);
  });
});
