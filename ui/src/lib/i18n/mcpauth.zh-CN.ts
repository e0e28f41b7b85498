// 用 OAuth 登录网址 MCP 服务器的简体中文文本（展开到 `zhCN`）。
import type { mcpauthEn } from './mcpauth.en';

export const mcpauthZhCN: Record<keyof typeof mcpauthEn, string> = {
  'mcpauth.state.needsSignIn': '需要登录',
  'mcpauth.signIn': '登录',
  'mcpauth.signOut': '退出登录',
  'mcpauth.waiting': '请在浏览器中打开的页面上完成登录…',
  'mcpauth.signedIn': '已登录 {name}',
  'mcpauth.signedOut': '已退出 {name}',
};
