-- vigia register, migration 0017: the files vigia writes of an acta. Every acta file written
-- (the first stage's: `offer adjudicate --acta`, `offer acta`, the web's download; a later
-- stage's: `stage adjudicate|desert --acta`, `stage acta`, the web's download) is recorded with
-- its format and SHA-256 (of the file as placed: a signed acta's after its signature), in a short
-- transaction of its own after the file is written, so `offer verify` and `stage verify` can tell
-- the file vigia wrote from one whose bytes were changed. `issued` is 1 for the file written by
-- the command that recorded the run or conclusion, 0 for one written again. Actas written before
-- this migration have no record: `acta_files_since` keeps when it ran, so that a file of a run or
-- conclusion recorded before then that matches no record is said to be unrecorded, not changed.

CREATE TABLE acta_files (
    id              INTEGER PRIMARY KEY,
    run_id          INTEGER REFERENCES offering_runs(id),
    conclusion_id   INTEGER REFERENCES stage_conclusions(id),
    format          TEXT NOT NULL CHECK (format IN ('pdf', 'html', 'md')),
    sha256          TEXT NOT NULL,
    issued          INTEGER NOT NULL CHECK (issued IN (0, 1)),
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    CHECK ((run_id IS NULL) <> (conclusion_id IS NULL))
);
CREATE TABLE acta_files_since (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    since   TEXT NOT NULL
);
INSERT INTO acta_files_since (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));

CREATE INDEX acta_files_run ON acta_files(run_id);
CREATE INDEX acta_files_conclusion ON acta_files(conclusion_id);

CREATE TRIGGER acta_files_no_update BEFORE UPDATE ON acta_files BEGIN SELECT RAISE(ABORT, 'acta_files is append-only: record a correction instead'); END;
CREATE TRIGGER acta_files_no_delete BEFORE DELETE ON acta_files BEGIN SELECT RAISE(ABORT, 'acta_files is append-only: record a correction instead'); END;
CREATE TRIGGER acta_files_since_no_update BEFORE UPDATE ON acta_files_since BEGIN SELECT RAISE(ABORT, 'acta_files_since is append-only: record a correction instead'); END;
CREATE TRIGGER acta_files_since_no_delete BEFORE DELETE ON acta_files_since BEGIN SELECT RAISE(ABORT, 'acta_files_since is append-only: record a correction instead'); END;
