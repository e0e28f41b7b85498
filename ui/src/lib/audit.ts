// The audit log's stored values in the UI language: who decided an audited tool call, as the
// engine records it ("policy", "rule 2", "cli --approve" …), and the decision (allow, deny, ask).
// Values this Hearth does not know (written by a newer one) are shown as stored.
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

const DECISIONS: Record<string, MessageKey> = {
  allow: 'audit.value.allow',
  deny: 'audit.value.deny',
  ask: 'audit.value.ask',
};

export function actorMessage(actor: string): ActorMessage | null {
  const known = Object.hasOwn(KNOWN, actor) ? KNOWN[actor] : undefined;
  if (known) return { key: known };
  const rule = /^rule (\d+)$/.exec(actor);
  if (rule) return { key: 'audit.actor.rule', params: { n: Number(rule[1]) } };
  const skill = /^skill (.+)$/.exec(actor);
  return skill ? { key: 'audit.actor.skill', params: { name: skill[1] } } : null;
}

/** The translation key of a stored decision, or null to show it as stored. */
export function decisionKey(decision: string): MessageKey | null {
  return Object.hasOwn(DECISIONS, decision) ? DECISIONS[decision] : null;
}
