-- vigia register, version 2: fine notices. A notice is numbered per program and per year
-- (MULTA-2025-0007), points at the liquidation it presents, and a re-issue names the notice it
-- replaces (which stays on record).

CREATE TABLE notices (
    id              INTEGER PRIMARY KEY,
    program_id      INTEGER NOT NULL REFERENCES programs(id),
    year            INTEGER NOT NULL,
    seq             INTEGER NOT NULL,
    number          TEXT NOT NULL,
    breach_id       INTEGER NOT NULL REFERENCES breaches(id),
    liquidation_id  INTEGER NOT NULL REFERENCES liquidations(id),
    notice_date     TEXT NOT NULL,
    deadline        TEXT NOT NULL,
    supersedes_id   INTEGER REFERENCES notices(id),
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    UNIQUE (program_id, year, seq)
);
CREATE INDEX notices_breach ON notices(breach_id);

CREATE TRIGGER notices_no_update BEFORE UPDATE ON notices BEGIN SELECT RAISE(ABORT, 'notices is append-only: record a correction instead'); END;
CREATE TRIGGER notices_no_delete BEFORE DELETE ON notices BEGIN SELECT RAISE(ABORT, 'notices is append-only: record a correction instead'); END;
