// English strings of the chat's life cycle: context-limit refusals and model-written titles.
export const chatlifeEn = {
  'error.message_too_long':
    'This message is too long for the model: about {tokens} tokens with the system prompt and tools, and the model’s context window is {window} tokens. Shorten it, attach less, or pick a model with a larger context.',
} as const;
