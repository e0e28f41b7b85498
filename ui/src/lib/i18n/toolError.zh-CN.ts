// Simplified Chinese words for the kinds of tool error a chat's tool card shows.
import type { toolErrorEn } from './toolError.en';

export const toolErrorZhCN: Record<keyof typeof toolErrorEn, string> = {
  'toolError.invalid_arguments': '模型传入了工具不接受的参数',
  'toolError.not_permitted': '不允许',
  'toolError.denied_by_user': '你拒绝了这次调用',
  'toolError.not_found': '找不到',
  'toolError.too_large': '太大',
  'toolError.timeout': '用时太长，已停止',
  'toolError.rate_limited': '请求太频繁，被限流',
  'toolError.network': '网络错误',
  'toolError.blocked_address': '该地址已被阻止',
  'toolError.delivery_failed': '无法送达',
  'toolError.unavailable': '不可用',
  'toolError.cancelled': '已取消',
  'toolError.failed': '工具报告了失败',
  'toolError.internal': 'Hearth 运行该工具时出错',
  'toolError.withField': '{kind}（{field}）',
  'toolError.details': '工具给出的详情',
};
