// 子代理卡片的简体中文文本。
import type { subagentsEn } from './subagents.en';

export const subagentsZhCn: Record<keyof typeof subagentsEn, string> = {
  'subagents.title': '子代理',
  'subagents.iterations': '{count} 步',
  'subagents.tool': '正在运行 {tool}',
  'subagents.elapsed': '{seconds} 秒',
  'subagents.tokens': '输入 {input} · 输出 {output}',
  'subagents.transcript': '查看记录',
  'subagents.mode.inline': '内联',
  'subagents.mode.parallel': '并行',
  'subagents.mode.background': '后台',
  'subagents.status.running': '运行中',
  'subagents.status.completed': '已完成',
  'subagents.status.failed': '失败',
  'subagents.status.timeout': '超时',
  'subagents.status.cancelled': '已取消',
  'subagents.status.interrupted': '已中断',
};
