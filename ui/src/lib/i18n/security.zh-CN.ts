// Simplified Chinese strings of Settings → Security (the OS sandbox of the agent's commands)
// and of the sandbox line on approval cards.
export const securityZhCN = {
  'settings.security': '安全',
  'settings.sandbox.intro':
    '智能体启动的每个程序（命令、代码、技能脚本、终端、MCP 服务器）都在操作系统沙箱中运行。它无法读取你的 SSH 和 GPG 密钥、云服务凭据、密钥环、浏览器配置文件或 Hearth 自己的数据，并且只能写入下方设置允许的位置。',
  'settings.sandbox.sandbox': '沙箱',
  'settings.sandbox.mode.workspace-write': '可写工作区（只能写入对话的工作区和一个临时文件夹）',
  'settings.sandbox.mode.read-only': '只读（不允许任何写入）',
  'settings.sandbox.mode.off': '关闭：以你的全部权限运行命令',
  'settings.sandbox.offWarning': '沙箱关闭后，智能体运行的命令可以读取你的密钥和浏览器数据，并修改你的任何文件。',
  'settings.sandbox.network': '允许命令访问网络',
  'settings.sandbox.networkHint': '默认关闭。MCP 服务器始终可以访问网络。',
  'settings.sandbox.roots': '命令还可以写入的文件夹（每行一个绝对路径）',
  'settings.sandbox.status': '在这台电脑上：{isolation}',
  'settings.sandbox.statusReason': '原因：{reason}',
  'settings.sandbox.isolation.landlock+netns': 'Landlock 文件规则和网络命名空间',
  'settings.sandbox.isolation.landlock+seccomp': 'Landlock 文件规则和 seccomp 网络过滤器',
  'settings.sandbox.isolation.landlock': 'Landlock 文件规则',
  'settings.sandbox.isolation.none': '没有沙箱——除非你关闭沙箱，否则命令会被拒绝',
  'approval.sandbox': '在沙箱中运行：{mode}，网络{network}',
  'approval.sandboxOff': '在沙箱外运行（已在“设置 → 安全”中关闭沙箱）',
  'approval.network.on': '开启',
  'approval.network.off': '关闭',
  'approval.allowWithNetwork': '允许一次（开启网络）',
  'approval.allowUnsandboxed': '允许一次（在沙箱外运行）',
  'approval.allow_with_network': '已允许一次（开启网络）',
  'approval.allow_unsandboxed': '已允许一次（在沙箱外运行）',
} as const;
