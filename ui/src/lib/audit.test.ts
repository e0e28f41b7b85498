import { describe, expect, it } from 'vitest';
import { actorMessage } from './audit';
import { en } from './i18n/en';
import { zhCN } from './i18n/zh-CN';

describe('actorMessage', () => {
  it('names every actor the engine records, rules with their number', () => {
    expect(actorMessage('cli --approve')).toEqual({ key: 'audit.actor.cliApprove' });
    expect(actorMessage('user (this session)')).toEqual({ key: 'audit.actor.session' });
    expect(actorMessage('rule 12')).toEqual({ key: 'audit.actor.rule', params: { n: 12 } });
    expect(actorMessage('skill daily-report')).toEqual({ key: 'audit.actor.skill', params: { name: 'daily-report' } });
    for (const actor of ['user', 'policy', 'job authorization', 'timeout', 'cli --deny', 'cli (no terminal)']) {
      const message = actorMessage(actor);
      expect(message, actor).not.toBeNull();
      expect(zhCN[message!.key]).not.toBe(en[message!.key]);
    }
  });

  it('leaves an actor it does not know to be shown as recorded', () => {
    expect(actorMessage('fixed answer')).toBeNull();
    expect(actorMessage('rule two')).toBeNull();
  });
});
