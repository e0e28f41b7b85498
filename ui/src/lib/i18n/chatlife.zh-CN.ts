// 简体中文 strings of the chat's life cycle: context-limit refusals and model-written titles.
import type { chatlifeEn } from './chatlife.en';

export const chatlifeZhCN: Record<keyof typeof chatlifeEn, string> = {
  'error.message_too_long':
    '这条消息对此模型来说太长了：连同系统提示和工具约 {tokens} 个 token，而模型的上下文窗口是 {window} 个 token。请缩短消息、少附加一些内容，或选择上下文更大的模型。',
  'error.run_stopped_at_iterations': '运行在 {iterations} 轮工具调用后停止，没有得到回答。',
  'error.run_cancelled': '运行已取消。',
  'error.run_without_answer': '运行结束了，但没有得到回答。',
  'error.run_crashed': '运行崩溃：{message}',
};
