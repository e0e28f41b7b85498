-- The typed reason (`AuditReason` as JSON: policy's reason code and params, the confirmation the
-- user saw, how far an approval reached) next to the English text of each audited decision, so
-- the audit log reads in the viewer's language. Old rows keep only the text.
ALTER TABLE audit_log ADD COLUMN reason_code TEXT;
