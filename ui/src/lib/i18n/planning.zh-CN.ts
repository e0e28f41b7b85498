// Simplified Chinese strings of the session checklist and the model's questions.
import type { planningEn } from './planning.en';

export const planningZhCN: Record<keyof typeof planningEn, string> = {
  'todo.title': '待办清单',
  'todo.progress': '已完成 {done}/{total}',
  'todo.pending': '待办',
  'todo.in_progress': '进行中',
  'todo.done': '已完成',
  'question.title': 'Hearth 想问你',
  'question.placeholder': '或输入你自己的回答',
  'question.send': '回答',
  'question.sending': '正在发送你的回答…',
};
