-- vigia register, migration 0012: acts outside a program's validity (Decreto 3939 de 2004 art. 28:
-- "un (1) año, contado a partir de la fecha de publicación"). Opening the first-stage offer or a
-- later stage's tranche on a day outside the validity the program file states is refused unless
-- the officer records why (an extension, a later decree: LEGAL_NOTES §7, item 7); the reason is
-- kept here, in the transaction that opens it, naming the act it allowed.

CREATE TABLE validity_exceptions (
    id          INTEGER PRIMARY KEY,
    program_id  INTEGER NOT NULL REFERENCES programs(id),
    act         TEXT NOT NULL CHECK (act IN ('offer', 'tranche')),
    -- the offer's or the tranche's id
    act_id      INTEGER NOT NULL,
    act_date    TEXT NOT NULL,
    reason      TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    UNIQUE (act, act_id)
);

CREATE TRIGGER validity_exceptions_no_update BEFORE UPDATE ON validity_exceptions BEGIN SELECT RAISE(ABORT, 'validity_exceptions is append-only: record a correction instead'); END;
CREATE TRIGGER validity_exceptions_no_delete BEFORE DELETE ON validity_exceptions BEGIN SELECT RAISE(ABORT, 'validity_exceptions is append-only: record a correction instead'); END;
