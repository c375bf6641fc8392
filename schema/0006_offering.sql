-- vigia register, version 6 (0005 is another change): the first-stage offering (Decreto 3939 de
-- 2004 Arts. 4, 7, 8, 12). The offer's window, the acceptances as filed (imported in bulk like the
-- adjudications: a file once per program, one audit event covering its rows by range and hash),
-- and the adjudication run, once per program ("en una sola oportunidad", Art. 12): its totals,
-- its SHA-256 fingerprint and one outcome per person; its awards are adjudications of the
-- register, written by an `imports` row the run names.

CREATE TABLE offers (
    id          INTEGER PRIMARY KEY,
    program_id  INTEGER NOT NULL UNIQUE REFERENCES programs(id),
    opens       TEXT NOT NULL,
    closes      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

CREATE TABLE acceptance_imports (
    id          INTEGER PRIMARY KEY,
    program_id  INTEGER NOT NULL REFERENCES programs(id),
    file_name   TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    encoding    TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    UNIQUE (program_id, sha256)
);

-- Booleans are 0/1; amounts exact decimal TEXT; filed_at `YYYY-MM-DD HH:MM:SS`.
CREATE TABLE acceptances (
    id                        INTEGER PRIMARY KEY,
    program_id                INTEGER NOT NULL REFERENCES programs(id),
    import_id                 INTEGER NOT NULL REFERENCES acceptance_imports(id),
    line                      INTEGER NOT NULL,
    filed_at                  TEXT NOT NULL,
    doc_type                  TEXT NOT NULL,
    doc_number                TEXT NOT NULL,
    name                      TEXT NOT NULL,
    person_type               TEXT NOT NULL,
    category                  TEXT NOT NULL,
    shares                    INTEGER NOT NULL CHECK (shares > 0),
    accepts_reduction         INTEGER NOT NULL,
    files_tax_return          INTEGER NOT NULL,
    patrimonio_liquido        TEXT,
    income                    TEXT,
    is_director               INTEGER NOT NULL,
    annual_salary             TEXT,
    investment_limit          TEXT,
    patrimonio_ajustado       TEXT,
    declarations              INTEGER NOT NULL,
    dismissed_with_just_cause INTEGER NOT NULL,
    review                    TEXT,
    lender                    TEXT,
    financed_shares           INTEGER NOT NULL,
    created_at                TEXT NOT NULL,
    created_by                TEXT NOT NULL
);

CREATE TABLE offering_runs (
    id              INTEGER PRIMARY KEY,
    program_id      INTEGER NOT NULL UNIQUE REFERENCES programs(id),
    import_id       INTEGER REFERENCES imports(id),   -- NULL when nothing was awarded
    adjudicated_on  TEXT NOT NULL,
    rule            TEXT NOT NULL,
    offered         INTEGER NOT NULL,
    demand          INTEGER NOT NULL,
    awarded         INTEGER NOT NULL,
    leftover        INTEGER NOT NULL,
    oversubscribed  INTEGER NOT NULL,
    fingerprint     TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL
);

-- One row per person, in filing order (seq); quota as `whole + remainder/demand`.
CREATE TABLE offering_outcomes (
    id              INTEGER PRIMARY KEY,
    run_id          INTEGER NOT NULL REFERENCES offering_runs(id),
    seq             INTEGER NOT NULL,
    acceptance_id   INTEGER NOT NULL REFERENCES acceptances(id),
    requested       INTEGER NOT NULL,
    cap_shares      INTEGER,
    cap_rule        TEXT,
    admitted        INTEGER NOT NULL,
    quota           TEXT,
    awarded         INTEGER NOT NULL,
    status          TEXT NOT NULL,
    cause           TEXT,
    adjudication_id INTEGER REFERENCES adjudications(id),
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL
);

CREATE TRIGGER offers_no_update BEFORE UPDATE ON offers BEGIN SELECT RAISE(ABORT, 'offers is append-only: record a correction instead'); END;
CREATE TRIGGER offers_no_delete BEFORE DELETE ON offers BEGIN SELECT RAISE(ABORT, 'offers is append-only: record a correction instead'); END;
CREATE TRIGGER acceptance_imports_no_update BEFORE UPDATE ON acceptance_imports BEGIN SELECT RAISE(ABORT, 'acceptance_imports is append-only: record a correction instead'); END;
CREATE TRIGGER acceptance_imports_no_delete BEFORE DELETE ON acceptance_imports BEGIN SELECT RAISE(ABORT, 'acceptance_imports is append-only: record a correction instead'); END;
CREATE TRIGGER acceptances_no_update BEFORE UPDATE ON acceptances BEGIN SELECT RAISE(ABORT, 'acceptances is append-only: record a correction instead'); END;
CREATE TRIGGER acceptances_no_delete BEFORE DELETE ON acceptances BEGIN SELECT RAISE(ABORT, 'acceptances is append-only: record a correction instead'); END;
CREATE TRIGGER offering_runs_no_update BEFORE UPDATE ON offering_runs BEGIN SELECT RAISE(ABORT, 'offering_runs is append-only: record a correction instead'); END;
CREATE TRIGGER offering_runs_no_delete BEFORE DELETE ON offering_runs BEGIN SELECT RAISE(ABORT, 'offering_runs is append-only: record a correction instead'); END;
CREATE TRIGGER offering_outcomes_no_update BEFORE UPDATE ON offering_outcomes BEGIN SELECT RAISE(ABORT, 'offering_outcomes is append-only: record a correction instead'); END;
CREATE TRIGGER offering_outcomes_no_delete BEFORE DELETE ON offering_outcomes BEGIN SELECT RAISE(ABORT, 'offering_outcomes is append-only: record a correction instead'); END;
