import { afterEach, describe, expect, it } from 'vitest';
import type { AuditReason } from './bindings/AuditReason';
import type { PolicyReason } from './bindings/PolicyReason';
import { setLanguage } from './i18n/index.svelte';
import { auditReasonText, confirmationText, policyReasonText } from './policyReason';

const every: PolicyReason[] = [
  { code: 'not_exposed', params: { tool: 'exec', profile: 'coding' } },
  { code: 'rule_refuses', params: { tool: 'read_file', index: 2, rule: 'deny tool read_file' } },
  { code: 'high_risk_refused', params: { tool: 'exec', security: 'public_gateway' } },
  { code: 'tagged_refused', params: { tool: 'write_file', security: 'public_gateway', tag: 'fs.write' } },
  { code: 'no_job_authorization', params: { tool: 'exec', security: 'daemon', job: null } },
  { code: 'no_job_authorization', params: { tool: 'exec', security: 'daemon', job: { job: 'n', state: 'not_authorized' } } },
  { code: 'no_job_authorization', params: { tool: 'exec', security: 'daemon', job: { job: 'n', state: 'not_covering' } } },
  { code: 'needs_approval', params: { tool: 'exec', security: 'personal_cli', every_time: true } },
  { code: 'always_confirm', params: { tool: 'cronjob' } },
  {
    code: 'skill_never_granted',
    params: { skill: 's', tool: 'exec', capability: 'process.exec', file: 'manifest.json', declared: [] },
  },
  { code: 'skill_not_allowed', params: { skill: 's', tool: 'exec', file: 'SKILL.md', allowed: ['read_file', 'grep'] } },
];

afterEach(() => setLanguage('en'));

describe('policy reasons', () => {
  it('word every reason in both languages with every parameter filled in', () => {
    for (const reason of every) {
      setLanguage('en');
      const english = policyReasonText(reason);
      setLanguage('zh-CN');
      const chinese = policyReasonText(reason);
      for (const text of [english, chinese]) {
        expect(text, reason.code).not.toMatch(/[{}]/);
        expect(text, reason.code).toContain(reason.params.tool);
        // A profile is named by who it stands for, never by its config id.
        expect(text, reason.code).not.toMatch(/personal_cli|public_gateway|daemon|\b(minimal|coding)\b/);
      }
      expect(chinese, reason.code).toMatch(/[\u4e00-\u9fff]/);
      expect(chinese).not.toBe(english);
    }
  });

  it('names who must approve: you at this computer', () => {
    expect(policyReasonText(every[7])).toBe('exec is high-risk: you at this computer must approve it; this action is asked every time');
    setLanguage('zh-CN');
    expect(policyReasonText(every[7])).toBe('exec 是高风险工具，需要本机用户批准；此操作每次都会询问');
  });

  it('names the rule, the declaration and what the job lacks', () => {
    expect(policyReasonText(every[1])).toBe('user rule #2 (deny tool read_file) refuses read_file');
    expect(policyReasonText(every[9])).toContain('manifest.json declares no permissions');
    expect(policyReasonText(every[10])).toContain('(read_file grep)');
    setLanguage('zh-CN');
    expect(policyReasonText(every[6])).toContain('任务“n”已获授权，但不包括此工具');
  });

  it('word a job authorization’s question in the UI language, its schedule too', () => {
    const audited: AuditReason = {
      reason: { code: 'always_confirm', params: { tool: 'cronjob' } },
      confirmation: {
        code: 'authorize_job',
        params: {
          job: 'nightly',
          tools: ['exec', 'write_file'],
          instruction: 'Back up the notes',
          schedule: { type: 'cron', expr: '* * * * *' },
          schedule_description: 'Every minute.',
          tz: 'Asia/Shanghai',
          next_run: null,
          delivers_to: null,
        },
      },
      allowed: null,
    };
    expect(auditReasonText(audited)).toContain('Authorize job “nightly” to use high-risk tools (exec, write_file) in its unattended runs?\nInstruction: Back up the notes\nFrequency: Every minute. (Asia/Shanghai); next run none scheduled');
    setLanguage('zh-CN');
    const zh = auditReasonText(audited);
    expect(zh).toContain('授权任务“nightly”在无人值守运行中使用高风险工具（exec, write_file）？');
    expect(zh).toContain('频率：每分钟（Asia/Shanghai）；下次运行：暂无');
    expect(zh).toContain('结果发往：仅任务自己的会话');
    expect(zh).not.toMatch(/Authorize|Every minute|none scheduled/);
    expect(confirmationText({ code: 'skill_tool', params: { skill: 'trip', tool: 'book' } })).toBe('技能 trip 运行其工具 book');
  });

  it('say how far an approval reached and keep an older version’s confirmation as written', () => {
    const audited: AuditReason = {
      reason: { code: 'always_confirm', params: { tool: 'cronjob' } },
      confirmation: 'Authorize job "nightly"?',
      allowed: 'once',
    };
    expect(auditReasonText(audited)).toBe(
      'allowed once: Authorize job "nightly"? (cronjob always needs your confirmation; it is never allowed for a whole session or by a rule)',
    );
    setLanguage('zh-CN');
    expect(auditReasonText({ ...audited, allowed: null })).toBe(
      'Authorize job "nightly"?（cronjob 每次都需要你确认；它不会按整个会话或按规则被允许）',
    );
  });
});
