// 用 OAuth 登录网址 MCP 服务器及其 OAuth 设置的简体中文文本（展开到 `zhCN`）。
import type { mcpauthEn } from './mcpauth.en';

export const mcpauthZhCN: Record<keyof typeof mcpauthEn, string> = {
  'mcpauth.state.needsSignIn': '需要登录',
  'mcpauth.signIn': '登录',
  'mcpauth.signOut': '退出登录',
  'mcpauth.waiting': '请在浏览器中打开的页面上完成登录…',
  'mcpauth.signedIn': '已登录 {name}',
  'mcpauth.signedOut': '已退出 {name}',
  'mcpauth.oauth': 'OAuth 登录',
  'mcpauth.oauthHint': '均为可选：留空时，Hearth 会向服务器的授权服务器自行注册，并请求服务器指定的权限范围。客户端密钥保存在系统钥匙串中，不写入 config.toml。',
  'mcpauth.clientId': '客户端 ID（事先注册）',
  'mcpauth.clientSecret': '客户端密钥',
  'mcpauth.secretPlaceholder': '输入新密钥以保存',
  'mcpauth.secretStored': '已保存密钥（{masked}）。',
  'mcpauth.secretNone': '未保存客户端密钥。',
  'mcpauth.secretRemove': '删除密钥',
  'mcpauth.metadataUrl': '客户端 ID 元数据文档网址',
  'mcpauth.scopes': '权限范围（以空格或逗号分隔）',
  'mcpauth.problem.metadataUrl': '客户端元数据网址必须是 https:// 地址。',
  'mcpauth.problem.secretWithoutClient': '客户端密钥需要填写对应的客户端 ID。',
};
