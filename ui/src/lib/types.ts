// One row of the approval/audit log, as returned by `list_audit`. Hand-written until the Rust side
// exports it through ts-rs; keep the field names identical to the serialized struct.
export interface AuditRecord {
  id: number;
  session_id: string | null;
  tool: string;
  arguments: string;
  decision: string;
  reason: string | null;
  actor: string;
  created_at: number;
}
