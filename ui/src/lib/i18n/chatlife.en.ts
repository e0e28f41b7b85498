// English strings of the chat's life cycle: context-limit refusals and model-written titles.
export const chatlifeEn = {
  'error.message_too_long':
    'This message is too long for the model: about {tokens} tokens with the system prompt and tools, and the model’s context window is {window} tokens. Shorten it, attach less, or pick a model with a larger context.',
  'error.run_stopped_at_iterations': 'The run stopped after {iterations} tool iterations without an answer.',
  'error.run_cancelled': 'The run was cancelled.',
  'error.run_without_answer': 'The run ended without an answer.',
  'error.run_crashed': 'The run crashed: {message}',
} as const;
