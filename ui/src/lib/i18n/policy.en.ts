// English strings of policy's reasons, as the audit log and the approval card show them.
export const policyEn = {
  'policy.notExposed': 'tool profile {profile} does not expose {tool}',
  'policy.ruleRefuses': 'user rule #{index} ({rule}) refuses {tool}',
  'policy.highRiskRefused': 'security profile {security} refuses high-risk tool {tool}',
  'policy.taggedRefused': 'security profile {security} refuses {tool} (tagged {tag})',
  'policy.noJobAuthorization':
    'security profile {security} refuses high-risk tool {tool} without a job authorization covering it',
  'policy.job.needs_reapproval':
    'job “{job}” needs re-approval: it changed since you authorized it, so its unattended runs cannot use high-risk tools until you approve it again (cronjob authorize, or Re-approve on the Jobs page)',
  'policy.job.not_authorized':
    'job “{job}” needs approval: you have not authorized it, so its unattended runs cannot use high-risk tools (cronjob authorize, or Approve on the Jobs page)',
  'policy.job.not_covering': 'job “{job}” is authorized, but not for this tool; it needs re-approval covering it',
  'policy.needsApproval': 'security profile {security}: {tool} is high-risk and needs your approval',
  'policy.needsApprovalEveryTime':
    'security profile {security}: {tool} is high-risk and needs your approval; this action is asked every time',
  'policy.alwaysConfirm': '{tool} always needs your confirmation; it is never allowed for a whole session or by a rule',
  'policy.skillNeverGranted':
    'skill “{skill}” may not use this tool: {tool} needs {capability}, which no manifest permission grants ({file} declares {declared})',
  'policy.skillNeedsPermission':
    'skill “{skill}” may not use this tool: {tool} needs the “{permission}” permission ({capability}), and {file} declares {declared}',
  'policy.skillNotAllowed': 'skill “{skill}” may not use this tool: {tool} is not in the allowed-tools of its {file} ({allowed})',
  'policy.noPermissions': 'no permissions',
  'policy.permissions': 'permissions [{list}]',
  'policy.withNote': '{reason}: {note}',
  'policy.withConfirmation': '{confirmation} ({reason})',
  'policy.allowedOnce': 'allowed once: {reason}',
  'policy.allowedSession': 'allowed for this session: {reason}',
  'policy.byAgent': '{agent}: {reason}',
  'audit.actor.skill': 'skill {name}',
} as const;
