// English strings of policy's reasons, as the audit log and the approval card show them.
export const policyEn = {
  'policy.confirm.job':
    'Authorize job “{job}” to use high-risk tools ({tools}) in its unattended runs?\nInstruction: {instruction}\nFrequency: {schedule} ({tz}); next run {next}\nDelivers to: {target}\nAny later change to the instruction, schedule, time zone or target voids this approval.',
  'policy.confirm.noNextRun': 'none scheduled',
  'policy.confirm.ownSession': 'the job’s own session only',
  'policy.confirm.unknownJob': 'Authorize job “{job}”? It cannot be shown: {error}.',
  'policy.confirm.skillTool': 'The skill {skill} runs its tool {tool}',
  'policy.confirm.ownBrowser':
    'browser {action} in your own Chrome at {url} (browser.cdp_url): it is logged in as you and its traffic does not go through Hearth’s egress guard',
  'policy.notExposed': 'the “{profile}” tool profile does not offer {tool}',
  'policy.ruleRefuses': 'user rule #{index} ({rule}) refuses {tool}',
  'policy.highRiskRefused': 'high-risk tool {tool} is refused for {security}',
  'policy.taggedRefused': '{tool} (tagged {tag}) is refused for {security}',
  'policy.noJobAuthorization':
    'high-risk tool {tool} is refused for {security} without a job authorization covering it',
  'policy.job.needs_reapproval':
    'job “{job}” needs re-approval: it changed since you authorized it, so its unattended runs cannot use high-risk tools until you approve it again (cronjob authorize, or Re-approve on the Jobs page)',
  'policy.job.not_authorized':
    'job “{job}” needs approval: you have not authorized it, so its unattended runs cannot use high-risk tools (cronjob authorize, or Approve on the Jobs page)',
  'policy.job.not_covering': 'job “{job}” is authorized, but not for this tool; it needs re-approval covering it',
  'policy.needsApproval': '{tool} is high-risk: {security} must approve it',
  'policy.needsApprovalEveryTime':
    '{tool} is high-risk: {security} must approve it; this action is asked every time',
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
  // Who a security profile stands for, as the reasons above name it (never its config id).
  'policy.who.personal_cli': 'you at this computer',
  'policy.who.daemon': 'unattended scheduled runs',
  'policy.who.public_gateway': 'messages from outside channels',
} as const;
