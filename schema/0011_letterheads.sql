-- vigia register, version 11 (issue 20 item 10): the letters' letterhead as register data, and
-- the text version of each document issued since. A letterhead (issuer, NIT, return address,
-- city, payment bank, account and reference, signatory's name and position) is set per program
-- with `program letters set`, each change a new row (the latest in force), never an edit and
-- never a new program code. A notice or paz y salvo issued from this version on records, in
-- document_texts, the text version it is rendered with (layout 2), the letterhead it shows, the
-- day it was issued and, for a notice dated earlier, why. A document with no row here is one of
-- an earlier version: it keeps its old text (layout 1) and the program file's letterhead, so it
-- still renders and verifies byte for byte. Append-only, like every table of the register.

CREATE TABLE letterheads (
    id                 INTEGER PRIMARY KEY,
    program_id         INTEGER NOT NULL REFERENCES programs(id),
    entity             TEXT,
    nit                TEXT,
    address            TEXT,
    city               TEXT,
    bank               TEXT,
    account            TEXT,
    reference          TEXT,
    signatory_name     TEXT,
    signatory_position TEXT,
    created_at         TEXT NOT NULL,
    created_by         TEXT NOT NULL
);
CREATE INDEX letterheads_program ON letterheads(program_id);

CREATE TABLE document_texts (
    id              INTEGER PRIMARY KEY,
    notice_id       INTEGER UNIQUE REFERENCES notices(id),
    settlement_id   INTEGER UNIQUE REFERENCES settlements(id),
    layout          INTEGER NOT NULL CHECK (layout >= 2),
    letterhead_id   INTEGER NOT NULL REFERENCES letterheads(id),
    issued_on       TEXT NOT NULL,
    backdate_reason TEXT,
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    CHECK ((notice_id IS NULL) <> (settlement_id IS NULL))
);

CREATE TRIGGER letterheads_no_update BEFORE UPDATE ON letterheads BEGIN SELECT RAISE(ABORT, 'letterheads is append-only: record a correction instead'); END;
CREATE TRIGGER letterheads_no_delete BEFORE DELETE ON letterheads BEGIN SELECT RAISE(ABORT, 'letterheads is append-only: record a correction instead'); END;
CREATE TRIGGER document_texts_no_update BEFORE UPDATE ON document_texts BEGIN SELECT RAISE(ABORT, 'document_texts is append-only: record a correction instead'); END;
CREATE TRIGGER document_texts_no_delete BEFORE DELETE ON document_texts BEGIN SELECT RAISE(ABORT, 'document_texts is append-only: record a correction instead'); END;
