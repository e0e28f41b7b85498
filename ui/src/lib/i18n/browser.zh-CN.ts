// Simplified Chinese strings of Settings → Browser and of the browser tool's card in chats.
export const browserZhCN = {
  'settings.browser': '浏览器',
  'settings.browser.intro':
    '智能体的浏览器工具驱动它自己的 Chrome 系浏览器，使用独立的配置文件，因此你在其中登录的网站会保持登录。它的流量经过 Hearth 的出站防护。',
  'settings.browser.found': '浏览器：{path}',
  'settings.browser.source.setting': '在下方设置',
  'settings.browser.source.HEARTH_BROWSER': '来自 HEARTH_BROWSER',
  'settings.browser.source.install': '已安装',
  'settings.browser.source.PATH': '在 PATH 中',
  'settings.browser.missing':
    '未找到 Chrome、Chromium、Microsoft Edge 或 Brave。请安装其中之一（Debian 或 Ubuntu：sudo apt install chromium），或在下方填写它的程序路径。',
  'settings.browser.running': '正在运行',
  'settings.browser.stopped': '未运行（智能体第一次使用浏览器时启动）',
  'settings.browser.executable': '浏览器程序',
  'settings.browser.executableHint': '留空则自动查找。',
  'settings.browser.visible': '显示浏览器窗口（否则以无头模式运行）',
  'settings.browser.idle': '空闲多少分钟后关闭',
  'settings.browser.open': '打开智能体的浏览器',
  'settings.browser.openHint': '打开它的窗口，方便你登录网站或旁观；之后智能体会使用这个窗口。',
  'settings.browser.opened': '智能体的浏览器已打开。',
  'settings.browser.clear': '清除浏览器数据',
  'settings.browser.clearConfirm': '关闭智能体的浏览器并删除它的 Cookie、登录信息和缓存？',
  'settings.browser.cleared': '浏览器数据已清除。',
  'settings.browser.cdpUrl': '连接到你自己的 Chrome（DevTools 地址）',
  'settings.browser.cdpUrlHint':
    '留空即关闭。用 --remote-debugging-port=9222 启动 Chrome，然后填写 http://127.0.0.1:9222（只接受本机地址）。此后智能体在你自己的浏览器中以你的身份操作，其流量不经过出站防护：每次调用都会先征得你的同意，无人值守的任务会拒绝使用。',
  'browserCard.action': '浏览器：{action}',
  'browserCard.snapshot': '页面大纲（{count} 个字符）',
} as const;
