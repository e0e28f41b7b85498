// English strings of the sub-agent cards.
export const subagentsEn = {
  'subagents.title': 'Sub-agents',
  'subagents.iterations': '{count} steps',
  'subagents.tool': 'running {tool}',
  'subagents.elapsed': '{seconds} s',
  'subagents.tokens': '{input} in · {output} out',
  'subagents.transcript': 'Open transcript',
  'subagents.mode.inline': 'inline',
  'subagents.mode.parallel': 'parallel',
  'subagents.mode.background': 'background',
  'subagents.status.running': 'running',
  'subagents.status.completed': 'completed',
  'subagents.status.failed': 'failed',
  'subagents.status.timeout': 'timed out',
  'subagents.status.cancelled': 'cancelled',
  'subagents.status.interrupted': 'interrupted',
} as const;
