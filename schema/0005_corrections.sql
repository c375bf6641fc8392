-- vigia register, version 5: corrections as new entries, never edits. An adjudication, a payment
-- or a pledge recorded by mistake is voided by a row that names it (like breach_voids): it stays
-- on record with who, when and why, and every figure is computed as if it had never been
-- recorded. One void per record (UNIQUE). No index on adjudications(program_id, holder_id,
-- adjudicated_on): a re-import finds a registered award through adjudications_holder, and only
-- for holders already registered, so the first import of a program pays nothing for it.

CREATE TABLE adjudication_voids (
    id              INTEGER PRIMARY KEY,
    adjudication_id INTEGER NOT NULL UNIQUE REFERENCES adjudications(id),
    reason          TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL
);

CREATE TABLE payment_voids (
    id          INTEGER PRIMARY KEY,
    payment_id  INTEGER NOT NULL UNIQUE REFERENCES payments(id),
    reason      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

CREATE TABLE pledge_voids (
    id          INTEGER PRIMARY KEY,
    pledge_id   INTEGER NOT NULL UNIQUE REFERENCES pledges(id),
    reason      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

CREATE TRIGGER adjudication_voids_no_update BEFORE UPDATE ON adjudication_voids BEGIN SELECT RAISE(ABORT, 'adjudication_voids is append-only: record a correction instead'); END;
CREATE TRIGGER adjudication_voids_no_delete BEFORE DELETE ON adjudication_voids BEGIN SELECT RAISE(ABORT, 'adjudication_voids is append-only: record a correction instead'); END;
CREATE TRIGGER payment_voids_no_update BEFORE UPDATE ON payment_voids BEGIN SELECT RAISE(ABORT, 'payment_voids is append-only: record a correction instead'); END;
CREATE TRIGGER payment_voids_no_delete BEFORE DELETE ON payment_voids BEGIN SELECT RAISE(ABORT, 'payment_voids is append-only: record a correction instead'); END;
CREATE TRIGGER pledge_voids_no_update BEFORE UPDATE ON pledge_voids BEGIN SELECT RAISE(ABORT, 'pledge_voids is append-only: record a correction instead'); END;
CREATE TRIGGER pledge_voids_no_delete BEFORE DELETE ON pledge_voids BEGIN SELECT RAISE(ABORT, 'pledge_voids is append-only: record a correction instead'); END;
