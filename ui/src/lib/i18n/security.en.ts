// English strings of Settings → Security (the OS sandbox of the agent's commands) and of the
// sandbox line on approval cards.
export const securityEn = {
  'settings.security': 'Security',
  'settings.sandbox.intro':
    'Every program the agent starts (commands, code, skill scripts, terminals, MCP servers) runs in an operating-system sandbox. It cannot read your SSH and GPG keys, cloud credentials, keyrings, browser profiles or Hearth’s own data, and it writes only where the setting below allows.',
  'settings.sandbox.sandbox': 'Sandbox',
  'settings.sandbox.mode.workspace-write': 'Workspace write (writes only in the chat’s workspace and a temp folder)',
  'settings.sandbox.mode.read-only': 'Read only (no writes at all)',
  'settings.sandbox.mode.off': 'Off: run commands with all of your rights',
  'settings.sandbox.offWarning':
    'With the sandbox off, a command the agent runs can read your keys and browser data and change any of your files.',
  'settings.sandbox.network': 'Let commands use the network',
  'settings.sandbox.networkHint': 'Off by default. MCP servers always have the network.',
  'settings.sandbox.roots': 'Extra folders commands may write (one absolute path per line)',
  'settings.sandbox.denied': 'Extra paths commands may not read (one absolute path per line)',
  'settings.sandbox.status': 'On this computer: {isolation}',
  'settings.sandbox.statusReason': 'Why: {reason}',
  'settings.sandbox.isolation.landlock+netns': 'Landlock file rules and a network namespace',
  'settings.sandbox.isolation.landlock+seccomp': 'Landlock file rules and a seccomp network filter',
  'settings.sandbox.isolation.landlock': 'Landlock file rules',
  'settings.sandbox.isolation.seatbelt': 'a Seatbelt profile (sandbox-exec)',
  'settings.sandbox.isolation.none':
    'no sandbox — commands are refused unless you turn the sandbox off',
  'approval.sandbox': 'Runs in the sandbox: {mode}, network {network}',
  'approval.sandboxOff': 'Runs outside the sandbox (the sandbox is off in Settings → Security)',
  'approval.network.on': 'on',
  'approval.network.off': 'off',
  'approval.allowWithNetwork': 'Allow once with network',
  'approval.allowUnsandboxed': 'Allow once outside the sandbox',
  'approval.allow_with_network': 'Allowed once with network',
  'approval.allow_unsandboxed': 'Allowed once outside the sandbox',
  'approval.allowSandboxedInChat': 'Allow, and run sandboxed commands without asking in this chat',
  'approval.allowUnsandboxedInChat': 'Allow, and run this chat’s commands outside the sandbox',
  'approval.allow_sandboxed_in_chat': 'Allowed; sandboxed commands run without asking in this chat',
  'approval.allow_unsandboxed_in_chat': 'Allowed; this chat’s commands run outside the sandbox',
  'approval.sandboxUnavailable':
    'This computer has no sandbox for commands: it is refused unless it runs outside the sandbox',
  'approval.chatUnsandboxed': 'Runs outside the sandbox (chosen for this chat)',
  'chat.sandbox.withoutAsking':
    'Sandboxed commands run without asking in this chat. Commands that need the network or to leave the sandbox still ask.',
  'chat.sandbox.unsandboxed': 'This chat’s commands run outside the sandbox, with all of your rights.',
  'chat.sandbox.turnOff': 'Turn off',
  'policy.allowedSandboxedInChat': 'ran in the sandbox without asking (chosen for this chat): {reason}',
  'settings.sandbox.grants': 'Grants',
  'settings.sandbox.grantsHint':
    'More for some commands or skills, from [[security.grants]] in config.toml (a command with ;, &&, | or $( ) matches no grant):',
  'settings.sandbox.grantsNone': 'No grants: every command gets the sandbox above.',
  'settings.sandbox.grant.command': 'Commands matching {pattern}',
  'settings.sandbox.grant.skill': 'Scripts of the skill {skill}',
  'settings.sandbox.grant.network': 'network',
  'settings.sandbox.grant.roots': 'may write {roots}',
  'settings.sandbox.windows':
    'Commands are not sandboxed on Windows: Hearth has no sandbox there yet, so commands run only if you turn the sandbox off or choose to run a chat’s commands outside it.',
  'approval.sandboxWindows':
    'Commands are not sandboxed on Windows: this one is refused unless it runs outside the sandbox',
} as const;
