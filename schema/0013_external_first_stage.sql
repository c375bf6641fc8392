-- vigia register, migration 0013: a first stage concluded outside vigia (issue 27). A program whose
-- first-stage offer was run and adjudicated elsewhere (its holders imported with `adjudications
-- import`) records here, once, what that adjudication decided: its date, the shares offered, the
-- shares awarded and those left over (Decreto 3939 art. 13: the Second Stage offers "la totalidad
-- de las Acciones que no sean enajenados en la Primera Etapa"), and the reference of the acta that
-- states it. Refused when vigia ran the first stage itself; never edited nor deleted.

CREATE TABLE external_first_stages (
    id              INTEGER PRIMARY KEY,
    program_id      INTEGER NOT NULL UNIQUE REFERENCES programs(id),
    adjudicated_on  TEXT NOT NULL,
    offered         INTEGER NOT NULL CHECK (offered > 0),
    awarded         INTEGER NOT NULL CHECK (awarded >= 0 AND awarded <= offered),
    leftover        INTEGER NOT NULL CHECK (leftover = offered - awarded),
    acta            TEXT NOT NULL CHECK (length(trim(acta)) > 0),
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL
);

CREATE TRIGGER external_first_stages_no_update BEFORE UPDATE ON external_first_stages BEGIN SELECT RAISE(ABORT, 'external_first_stages is append-only: record a correction instead'); END;
CREATE TRIGGER external_first_stages_no_delete BEFORE DELETE ON external_first_stages BEGIN SELECT RAISE(ABORT, 'external_first_stages is append-only: record a correction instead'); END;
