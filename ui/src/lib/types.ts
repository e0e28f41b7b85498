// One row of the approval/audit log, as returned by `list_audit`. Hand-written until the Rust side
// exports it through ts-rs; keep the field names identical to the serialized struct.
import type { AuditReason } from './bindings/AuditReason';

export interface AuditRecord {
  id: number;
  session_id: string | null;
  tool: string;
  arguments: string;
  decision: string;
  reason: string | null;
  /** The reason as data (rows older than it have only the English text). */
  reason_code: AuditReason | null;
  actor: string;
  created_at: number;
}
