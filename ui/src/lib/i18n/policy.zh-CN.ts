// Simplified Chinese strings of policy's reasons, as the audit log and the approval card show them.
import type { policyEn } from './policy.en';

export const policyZhCN: Record<keyof typeof policyEn, string> = {
  'policy.confirm.job':
    '授权任务“{job}”在无人值守运行中使用高风险工具（{tools}）？\n指令：{instruction}\n频率：{schedule}（{tz}）；下次运行：{next}\n结果发往：{target}\n之后对指令、计划、时区或发送目标的任何更改都会使此授权失效。',
  'policy.confirm.noNextRun': '暂无',
  'policy.confirm.ownSession': '仅任务自己的会话',
  'policy.confirm.unknownJob': '授权任务“{job}”？无法显示该任务：{error}。',
  'policy.confirm.skillTool': '技能 {skill} 运行其工具 {tool}',
  'policy.confirm.ownBrowser': '在你自己的 Chrome（{url}，browser.cdp_url）中执行浏览器操作 {action}：它以你的身份登录，其流量不经过 Hearth 的出站防护',
  'policy.notExposed': '“{profile}”工具配置不提供 {tool}',
  'policy.ruleRefuses': '用户规则 #{index}（{rule}）拒绝了 {tool}',
  'policy.highRiskRefused': '{security}不能使用高风险工具 {tool}',
  'policy.taggedRefused': '{security}不能使用 {tool}（标记为 {tag}）',
  'policy.noJobAuthorization': '{security}不能使用高风险工具 {tool}：没有涵盖它的任务授权',
  'policy.job.needs_reapproval':
    '任务“{job}”需要重新批准：它在你授权之后被修改过，在你再次批准之前，它的无人值守运行不能使用高风险工具（cronjob authorize，或在任务页面点“重新批准”）',
  'policy.job.not_authorized':
    '任务“{job}”需要批准：你还没有授权它，它的无人值守运行不能使用高风险工具（cronjob authorize，或在任务页面点“批准…”）',
  'policy.job.not_covering': '任务“{job}”已获授权，但不包括此工具；需要重新批准以涵盖它',
  'policy.needsApproval': '{tool} 是高风险工具，需要{security}批准',
  'policy.needsApprovalEveryTime': '{tool} 是高风险工具，需要{security}批准；此操作每次都会询问',
  'policy.alwaysConfirm': '{tool} 每次都需要你确认；它不会按整个会话或按规则被允许',
  'policy.skillNeverGranted':
    '技能“{skill}”不能使用此工具：{tool} 需要 {capability}，任何清单权限都不授予它（{file} 声明了{declared}）',
  'policy.skillNeedsPermission':
    '技能“{skill}”不能使用此工具：{tool} 需要“{permission}”权限（{capability}），而 {file} 声明了{declared}',
  'policy.skillNotAllowed': '技能“{skill}”不能使用此工具：{tool} 不在其 {file} 的 allowed-tools 中（{allowed}）',
  'policy.noPermissions': '无权限',
  'policy.permissions': '权限 [{list}]',
  'policy.withNote': '{reason}：{note}',
  'policy.withConfirmation': '{confirmation}（{reason}）',
  'policy.allowedOnce': '已允许一次：{reason}',
  'policy.allowedSession': '已在本会话中允许：{reason}',
  'policy.byAgent': '{agent}：{reason}',
  'audit.actor.skill': '技能 {name}',
  'policy.who.personal_cli': '本机用户',
  'policy.who.daemon': '无人值守的定时运行',
  'policy.who.public_gateway': '来自外部渠道的消息',
};
