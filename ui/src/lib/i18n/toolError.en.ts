// English words for the kinds of tool error a chat's tool card shows (spread into `en`).
export const toolErrorEn = {
  'toolError.invalid_arguments': 'The model passed arguments the tool does not accept',
  'toolError.not_permitted': 'Not permitted',
  'toolError.denied_by_user': 'You declined this call',
  'toolError.not_found': 'Not found',
  'toolError.too_large': 'Too large',
  'toolError.timeout': 'Took too long and was stopped',
  'toolError.rate_limited': 'Rate limited: too many requests',
  'toolError.network': 'Network error',
  'toolError.blocked_address': 'The address is blocked',
  'toolError.delivery_failed': 'Could not be delivered',
  'toolError.unavailable': 'Not available',
  'toolError.cancelled': 'Cancelled',
  'toolError.failed': 'The tool reported a failure',
  'toolError.internal': 'Hearth failed to run the tool',
  'toolError.withField': '{kind} ({field})',
  'toolError.details': 'Details from the tool',
} as const;
