// 编辑框中 MCP 资源与提示词的简体中文文案（展开到 `zh-CN`）。
import type { mcpResourcesEn } from './mcpresources.en';

export const mcpResourcesZhCN: Record<keyof typeof mcpResourcesEn, string> = {
  'mcpres.resources': '资源',
  'mcpres.templates': '模板（填写后可让模型读取）',
  'mcpres.attach': '附加',
  'mcpres.attachTitle': '将 {uri} 附加到消息',
  'mcpres.none': '没有资源。',
  'mcpres.prompts': 'MCP 提示词',
  'mcpres.picker': '命令、技能与提示词',
  'mcpres.commands': '命令',
  'mcpres.command.mcp': '查看 MCP 服务器及其工具和资源',
  'mcpres.pickerEmpty': '没有与“{query}”匹配的命令、技能或提示词。',
  'mcpres.promptForm': '{command} 的参数',
  'mcpres.required': '必填',
  'mcpres.insert': '插入',
  'mcpres.cancel': '取消',
  'mcpres.missing': '请填写：{names}',
  'mcpres.failed': '无法获取 {command}：{error}',
  'mcpres.jobServers': '运行时可使用的 MCP 服务器（全部工具）',
};
