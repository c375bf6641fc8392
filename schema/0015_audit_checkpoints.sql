-- vigia register, migration 0015: every signed checkpoint also enters the audit chain (issue 24):
-- its signature over the head at that point, so that a chain rewritten before it (its hashes
-- recomputed) breaks a signature nobody without the audit key can make again, even when the
-- checkpoint log beside the register was deleted. A checkpoint that started a new log where the
-- chain already held events carries the reason given (`audit checkpoint --reanchor --reason`);
-- every later `audit verify` reports it.

CREATE TABLE audit_checkpoints (
    id               INTEGER PRIMARY KEY,
    -- the head signed: events in the chain then (this row's own event comes after them)
    events           INTEGER NOT NULL CHECK (events >= 0),
    head             TEXT NOT NULL,
    -- UTC, RFC 3339, as signed
    signed_at        TEXT NOT NULL,
    -- the first 16 hex digits of the SHA-256 of the audit key's public half
    key_id           TEXT NOT NULL,
    -- Ed25519, hex, over the checkpoint log's message for (events, head, signed_at)
    signature        TEXT NOT NULL,
    reanchor_reason  TEXT CHECK (reanchor_reason IS NULL OR length(trim(reanchor_reason)) > 0),
    created_at       TEXT NOT NULL,
    created_by       TEXT NOT NULL
);

CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE ON audit_checkpoints BEGIN SELECT RAISE(ABORT, 'audit_checkpoints is append-only: record a correction instead'); END;
CREATE TRIGGER audit_checkpoints_no_delete BEFORE DELETE ON audit_checkpoints BEGIN SELECT RAISE(ABORT, 'audit_checkpoints is append-only: record a correction instead'); END;
