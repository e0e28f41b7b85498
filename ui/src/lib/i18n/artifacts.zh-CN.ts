// 产物卡片及其侧栏的简体中文文案（展开进 `zhCN`）。
export const artifactsZhCN = {
  'artifact.card': '产物 {name}',
  'artifact.open': '打开',
  'artifact.panel': '产物',
  'artifact.close': '关闭',
  'artifact.loading': '正在加载产物…',
  'artifact.saveAs': '另存为…',
  'artifact.saved': '已保存到 {path}',
  'artifact.copy': '复制',
  'artifact.open.state': '尚未定稿',
  'artifact.counts':
    '{characters} 个字符 · {cjk} 个中文字 · {words} 个英文词 · {lines} 行 · {paragraphs} 段 · {headings} 个标题',
  'artifact.formatError': '格式有误：{error}',
  'artifact.failed': '无法打开产物：{error}',
};
