// Simplified Chinese strings for the cards of commands, code runs and skill scripts.
export const commandZhCN = {
  'command.label': '{command} 的运行结果',
  'command.skill': '技能 {name}',
  'command.exitCode': '退出码 {code}',
  'command.timedOut': '已停止：超过时间限制（{seconds} 秒）',
  'command.signal': '被信号 {signal} 终止',
  'command.noExitCode': '结束时没有退出码',
  'command.stdout': '输出',
  'command.stderr': '错误输出',
  'command.noOutput': '没有输出。',
  'command.cut': '输出过长：每个输出流只显示开头和结尾（智能体可以读取全部内容）。',
  'command.showAll': '显示全部 {n} 行',
  'command.showLess': '收起',
} as const;
