// English strings of the session checklist and the model's questions.
export const planningEn = {
  'todo.title': 'Checklist',
  'todo.progress': '{done} of {total} done',
  'todo.pending': 'To do',
  'todo.in_progress': 'In progress',
  'todo.done': 'Done',
  'question.title': 'Hearth asks',
  'question.placeholder': 'Or type your own answer',
  'question.send': 'Answer',
  'question.sending': 'Sending your answer…',
} as const;
