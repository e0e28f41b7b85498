// English strings for the cards of commands, code runs and skill scripts.
export const commandEn = {
  'command.label': 'Run of {command}',
  'command.skill': 'Skill {name}',
  'command.exitCode': 'exit code {code}',
  'command.timedOut': 'stopped: over the time limit ({seconds} s)',
  'command.signal': 'ended by signal {signal}',
  'command.noExitCode': 'ended without an exit code',
  'command.stdout': 'Output',
  'command.stderr': 'Errors',
  'command.noOutput': 'No output.',
  'command.cut': 'The output was long: the start and end of each stream are shown (the agent can read all of it).',
  'command.showAll': 'Show all {n} lines',
  'command.showLess': 'Show less',
} as const;
