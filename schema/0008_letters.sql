-- vigia register, version 8 (issue 14): notices as letters. Every file vigia writes of a notice
-- or a paz y salvo is recorded with its format and SHA-256 (a rendering), so `notice verify` can
-- tell the file that was issued from one that was changed; the delivery of a notice (from which
-- the payment term runs, when the program says so); the paz y salvo of a settled fine, numbered
-- per program and year like the notices (PAZ-2025-0001); and the holder's address, city and
-- e-mail, as versions (the latest in force; each notice shows the version in force when it was
-- recorded). Append-only, like every table of the register.

CREATE TABLE settlements (
    id              INTEGER PRIMARY KEY,
    program_id      INTEGER NOT NULL REFERENCES programs(id),
    year            INTEGER NOT NULL,
    seq             INTEGER NOT NULL,
    number          TEXT NOT NULL,
    breach_id       INTEGER NOT NULL UNIQUE REFERENCES breaches(id),
    liquidation_id  INTEGER NOT NULL REFERENCES liquidations(id),
    settlement_date TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    UNIQUE (program_id, year, seq)
);

CREATE TABLE renderings (
    id              INTEGER PRIMARY KEY,
    notice_id       INTEGER REFERENCES notices(id),
    settlement_id   INTEGER REFERENCES settlements(id),
    format          TEXT NOT NULL CHECK (format IN ('pdf', 'html', 'md')),
    sha256          TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    CHECK ((notice_id IS NULL) <> (settlement_id IS NULL))
);
CREATE INDEX renderings_notice ON renderings(notice_id);
CREATE INDEX renderings_settlement ON renderings(settlement_id);

CREATE TABLE notice_deliveries (
    id              INTEGER PRIMARY KEY,
    notice_id       INTEGER NOT NULL UNIQUE REFERENCES notices(id),
    delivered_on    TEXT NOT NULL,
    via             TEXT NOT NULL CHECK (via IN ('correo-certificado', 'correo-electronico', 'personal')),
    evidence        TEXT,
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL
);

CREATE TABLE holder_contacts (
    id              INTEGER PRIMARY KEY,
    holder_id       INTEGER NOT NULL REFERENCES holders(id),
    address         TEXT,
    city            TEXT,
    email           TEXT,
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL
);
CREATE INDEX holder_contacts_holder ON holder_contacts(holder_id);

CREATE TRIGGER settlements_no_update BEFORE UPDATE ON settlements BEGIN SELECT RAISE(ABORT, 'settlements is append-only: record a correction instead'); END;
CREATE TRIGGER settlements_no_delete BEFORE DELETE ON settlements BEGIN SELECT RAISE(ABORT, 'settlements is append-only: record a correction instead'); END;
CREATE TRIGGER renderings_no_update BEFORE UPDATE ON renderings BEGIN SELECT RAISE(ABORT, 'renderings is append-only: record a correction instead'); END;
CREATE TRIGGER renderings_no_delete BEFORE DELETE ON renderings BEGIN SELECT RAISE(ABORT, 'renderings is append-only: record a correction instead'); END;
CREATE TRIGGER notice_deliveries_no_update BEFORE UPDATE ON notice_deliveries BEGIN SELECT RAISE(ABORT, 'notice_deliveries is append-only: record a correction instead'); END;
CREATE TRIGGER notice_deliveries_no_delete BEFORE DELETE ON notice_deliveries BEGIN SELECT RAISE(ABORT, 'notice_deliveries is append-only: record a correction instead'); END;
CREATE TRIGGER holder_contacts_no_update BEFORE UPDATE ON holder_contacts BEGIN SELECT RAISE(ABORT, 'holder_contacts is append-only: record a correction instead'); END;
CREATE TRIGGER holder_contacts_no_delete BEFORE DELETE ON holder_contacts BEGIN SELECT RAISE(ABORT, 'holder_contacts is append-only: record a correction instead'); END;
