// Simplified Chinese strings of the form card (a form an MCP server asks the user to fill in).
import type { formsEn } from './forms.en';

export const formsZhCN: Record<keyof typeof formsEn, string> = {
  'form.title': '{source} 请你填写表单',
  'form.required': '（必填）',
  'form.send': '提交',
  'form.decline': '拒绝',
  'form.cancel': '取消',
  'form.sending': '正在提交你的回答…',
  'form.choose': '请选择…',
  'form.where': '你的回答只会发送给 {source}。',
  'form.problem.required': '必填。',
  'form.problem.number': '请输入数字。',
  'form.problem.integer': '请输入整数。',
  'form.problem.range.min': '不能小于 {min}。',
  'form.problem.range.max': '不能大于 {max}。',
  'form.problem.length.min': '至少 {min} 个字符。',
  'form.problem.length.max': '最多 {max} 个字符。',
  'form.problem.choices.min': '至少选择 {min} 项。',
  'form.problem.choices.max': '最多选择 {max} 项。',
  'form.problem.email': '请输入电子邮件地址。',
  'form.problem.uri': '请输入完整地址（https://…）。',
  'form.problem.date': '请输入日期。',
  'form.problem.date_time': '请输入日期和时间。',
};
