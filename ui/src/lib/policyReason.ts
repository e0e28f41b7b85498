// Policy's reasons (asked about or refused a tool call) in the UI language, from the data the
// engine stores beside its English text. A code this Hearth does not know cannot compile.
import type { AuditReason } from './bindings/AuditReason';
import type { Confirmation } from './bindings/Confirmation';
import type { JobGrantNote } from './bindings/JobGrantNote';
import type { PolicyReason } from './bindings/PolicyReason';
import type { SecurityProfile } from './bindings/SecurityProfile';
import { currentLanguage, dateTime, t } from './i18n/index.svelte';
import { scheduleText } from './schedule';

function declared(list: string[]): string {
  return list.length === 0 ? t('policy.noPermissions') : t('policy.permissions', { list: list.join(', ') });
}

/** Who a security profile stands for ("you at this computer"), never its config id. */
function who(security: SecurityProfile): string {
  return t(`policy.who.${security}`);
}

function jobNote(note: JobGrantNote): string {
  return t(`policy.job.${note.state}`, { job: note.job });
}

/** One policy reason in the UI language. */
export function policyReasonText(reason: PolicyReason): string {
  switch (reason.code) {
    case 'not_exposed':
      return t('policy.notExposed', { tool: reason.params.tool, profile: t(`settings.tool.${reason.params.profile}`) });
    case 'rule_refuses':
      return t('policy.ruleRefuses', reason.params);
    case 'high_risk_refused':
      return t('policy.highRiskRefused', { tool: reason.params.tool, security: who(reason.params.security) });
    case 'tagged_refused':
      return t('policy.taggedRefused', { ...reason.params, security: who(reason.params.security) });
    case 'no_job_authorization': {
      const { tool, security, job } = reason.params;
      const text = t('policy.noJobAuthorization', { tool, security: who(security) });
      return job ? t('policy.withNote', { reason: text, note: jobNote(job) }) : text;
    }
    case 'needs_approval': {
      const { tool, security, every_time } = reason.params;
      return t(every_time ? 'policy.needsApprovalEveryTime' : 'policy.needsApproval', { tool, security: who(security) });
    }
    case 'always_confirm':
      return t('policy.alwaysConfirm', reason.params);
    case 'skill_never_granted': {
      const { skill, tool, capability, file } = reason.params;
      return t('policy.skillNeverGranted', { skill, tool, capability, file, declared: declared(reason.params.declared) });
    }
    case 'skill_needs_permission': {
      const { skill, tool, permission, capability, file } = reason.params;
      return t('policy.skillNeedsPermission', {
        skill,
        tool,
        permission,
        capability,
        file,
        declared: declared(reason.params.declared),
      });
    }
    case 'skill_not_allowed': {
      const { skill, tool, file } = reason.params;
      return t('policy.skillNotAllowed', { skill, tool, file, allowed: reason.params.allowed.join(' ') });
    }
  }
}

/** What a tool asked the user to confirm, in the UI language (a sentence an older version
 *  stored is shown as it was). */
export function confirmationText(confirmation: Confirmation): string {
  if (typeof confirmation === 'string') return confirmation;
  switch (confirmation.code) {
    case 'authorize_job': {
      const job = confirmation.params;
      const next = job.next_run ? dateTime(Date.parse(job.next_run)) : t('policy.confirm.noNextRun');
      return t('policy.confirm.job', {
        job: job.job,
        tools: job.tools.join(', '),
        instruction: job.instruction,
        schedule: scheduleText({ schedule: job.schedule, schedule_description: job.schedule_description }, currentLanguage(), dateTime),
        tz: job.tz,
        next,
        target: job.delivers_to ?? t('policy.confirm.ownSession'),
      });
    }
    case 'authorize_unknown_job':
      return t('policy.confirm.unknownJob', confirmation.params);
    case 'skill_tool':
      return t('policy.confirm.skillTool', confirmation.params);
    case 'own_browser':
      return t('policy.confirm.ownBrowser', { action: confirmation.params.action, url: confirmation.params.cdp_url });
  }
}

/** An audited reason in the UI language: how far the user allowed the call, the tool's own
 *  confirmation, and policy's reason. */
export function auditReasonText(audited: AuditReason): string {
  const reason = policyReasonText(audited.reason);
  const confirmed = audited.confirmation
    ? t('policy.withConfirmation', { confirmation: confirmationText(audited.confirmation), reason })
    : reason;
  switch (audited.allowed) {
    case 'once':
      return t('policy.allowedOnce', { reason: confirmed });
    case 'session':
      return t('policy.allowedSession', { reason: confirmed });
    case 'sandboxed_in_chat':
      return t('policy.allowedSandboxedInChat', { reason: confirmed });
    case null:
      return confirmed;
  }
}
