// Who decided an audited tool call, as the engine records it ("policy", "rule 2", "cli --approve"
// …), turned into the message shown in the audit log; unknown actors are shown as recorded.
import type { MessageKey } from './i18n/en';
import type { Params } from './i18n/format';

export type ActorMessage = { key: MessageKey; params?: Params };

const KNOWN: Record<string, MessageKey> = {
  user: 'audit.actor.user',
  'user (this session)': 'audit.actor.session',
  policy: 'audit.actor.policy',
  'job authorization': 'audit.actor.job',
  timeout: 'audit.actor.timeout',
  'no answer (window closed or no terminal)': 'audit.actor.noAnswer',
  'cli --approve': 'audit.actor.cliApprove',
  'cli --deny': 'audit.actor.cliDeny',
  'cli (no terminal)': 'audit.actor.cliNoTerminal',
};

export function actorMessage(actor: string): ActorMessage | null {
  const known = KNOWN[actor];
  if (known) return { key: known };
  const rule = /^rule (\d+)$/.exec(actor);
  return rule ? { key: 'audit.actor.rule', params: { n: Number(rule[1]) } } : null;
}
