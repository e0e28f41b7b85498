// 窗口某一部分出错时改为显示的卡片的简体中文文案（展开进 `zhCN`）。
export const guardZhCN = {
  'guard.failed': '无法显示“{what}”',
  'guard.explain': '显示窗口的这一部分时出错了。Hearth 的其他部分仍可使用，你的对话和设置都没有变化。错误已写入 logs 文件夹中的日志。',
  'guard.detail': '出错详情',
  'guard.openFolder': '打开配置文件夹',
  'guard.reload': '重新加载',
  'guard.chat': '此对话',
  'guard.sidebar': '对话列表',
};
