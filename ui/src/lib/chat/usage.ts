// Whether a provider reported token usage: servers that send none leave zeros, shown as "—".
import type { Usage } from '../bindings/Usage';

/** True when `usage` holds counts the server reported (not the zeros of a server that sent none). */
export function usageReported(usage: Usage | null | undefined): usage is Usage {
  return !!usage && (usage.input_tokens > 0 || usage.output_tokens > 0);
}
