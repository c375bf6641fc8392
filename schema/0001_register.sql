-- vigia register, version 1. Append-only: records are never updated or deleted; corrections are
-- new rows that name what they void, and every write is mirrored by an event in audit_events.
-- Amounts and rates are exact decimal TEXT; dates are ISO TEXT; times are UTC RFC 3339 TEXT.

CREATE TABLE programs (
    id          INTEGER PRIMARY KEY,
    code        TEXT NOT NULL UNIQUE,
    source_toml TEXT NOT NULL,            -- the reviewed file, verbatim
    sha256      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

-- The Art. 9 (iii) price, recorded when known; the latest row wins. stage NULL = no later stage.
CREATE TABLE stage_prices (
    id          INTEGER PRIMARY KEY,
    program_id  INTEGER NOT NULL REFERENCES programs(id),
    stage       INTEGER CHECK (stage IN (2, 3)),
    price       TEXT,
    recorded_on TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    CHECK ((stage IS NULL) = (price IS NULL))
);

CREATE TABLE holders (
    id          INTEGER PRIMARY KEY,
    doc_type    TEXT NOT NULL,
    doc_number  TEXT NOT NULL,
    name        TEXT NOT NULL,
    person_type TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    UNIQUE (doc_type, doc_number)
);

CREATE TABLE imports (
    id          INTEGER PRIMARY KEY,
    program_id  INTEGER NOT NULL REFERENCES programs(id),
    file_name   TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    encoding    TEXT NOT NULL,          -- rows imported: counted in the import's audit event
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    UNIQUE (program_id, sha256)
);

CREATE TABLE adjudications (
    id              INTEGER PRIMARY KEY,
    program_id      INTEGER NOT NULL REFERENCES programs(id),
    holder_id       INTEGER NOT NULL REFERENCES holders(id),
    import_id       INTEGER NOT NULL REFERENCES imports(id),
    line            INTEGER NOT NULL,
    category        TEXT NOT NULL,
    shares          INTEGER NOT NULL CHECK (shares > 0),
    price_per_share TEXT NOT NULL,
    adjudicated_on  TEXT NOT NULL,
    lender          TEXT,
    financed_shares INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL
);
CREATE INDEX adjudications_program ON adjudications(program_id);
CREATE INDEX adjudications_holder ON adjudications(holder_id);

CREATE TABLE pledges (
    id              INTEGER PRIMARY KEY,
    adjudication_id INTEGER NOT NULL REFERENCES adjudications(id),
    rank            INTEGER NOT NULL CHECK (rank IN (1, 2)),
    beneficiary     TEXT NOT NULL,
    shares          INTEGER NOT NULL,
    lender          TEXT,
    registered_on   TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    created_by      TEXT NOT NULL
);
CREATE INDEX pledges_adjudication ON pledges(adjudication_id);

CREATE TABLE pledge_releases (
    id          INTEGER PRIMARY KEY,
    pledge_id   INTEGER NOT NULL UNIQUE REFERENCES pledges(id),
    released_on TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

CREATE TABLE breaches (
    id                      INTEGER PRIMARY KEY,
    adjudication_id         INTEGER NOT NULL REFERENCES adjudications(id),
    kind                    TEXT NOT NULL,
    breach_date             TEXT NOT NULL,
    shares                  INTEGER NOT NULL CHECK (shares > 0),
    consideration_per_share TEXT,
    consideration_total     TEXT,
    registered_on           TEXT,
    evidence                TEXT,
    created_at              TEXT NOT NULL,
    created_by              TEXT NOT NULL
);
CREATE INDEX breaches_adjudication ON breaches(adjudication_id);

CREATE TABLE breach_voids (
    id          INTEGER PRIMARY KEY,
    breach_id   INTEGER NOT NULL UNIQUE REFERENCES breaches(id),
    reason      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

CREATE TABLE payments (
    id          INTEGER PRIMARY KEY,
    breach_id   INTEGER NOT NULL REFERENCES breaches(id),
    paid_on     TEXT NOT NULL,
    amount      TEXT NOT NULL,
    reference   TEXT,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);
CREATE INDEX payments_breach ON payments(breach_id);

-- Immutable, numbered liquidations: every input (program terms, prices, payments, the rate rows
-- used) and every output, so the figure can be reproduced years later.
CREATE TABLE liquidations (
    id          INTEGER PRIMARY KEY,
    breach_id   INTEGER NOT NULL REFERENCES breaches(id),
    until       TEXT NOT NULL,
    convention  TEXT NOT NULL,
    provisional INTEGER NOT NULL,
    total_due   TEXT NOT NULL,
    inputs_json TEXT NOT NULL,
    result_json TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);
CREATE INDEX liquidations_breach ON liquidations(breach_id);

-- Certified periods added to the embedded SFC series.
CREATE TABLE rate_periods (
    id          INTEGER PRIMARY KEY,
    valid_from  TEXT NOT NULL,
    valid_to    TEXT NOT NULL,
    ibc_ea_pct  TEXT,
    usury_ea_pct TEXT,
    resolution  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

-- A period taken out of the series by a later one. superseded_rate_id names a register row;
-- shipped_valid_from names a period of the embedded series.
CREATE TABLE rate_supersessions (
    id                 INTEGER PRIMARY KEY,
    by_rate_id         INTEGER NOT NULL REFERENCES rate_periods(id),
    superseded_rate_id INTEGER REFERENCES rate_periods(id),
    shipped_valid_from TEXT,
    reason             TEXT NOT NULL,
    created_at         TEXT NOT NULL,
    created_by         TEXT NOT NULL,
    CHECK ((superseded_rate_id IS NULL) <> (shipped_valid_from IS NULL))
);

CREATE TABLE audit_events (
    seq         INTEGER PRIMARY KEY,
    at          TEXT NOT NULL,
    actor       TEXT NOT NULL,
    action      TEXT NOT NULL,
    entity      TEXT NOT NULL,
    entity_id   INTEGER NOT NULL,
    payload     TEXT NOT NULL,
    prev_hash   TEXT NOT NULL,
    hash        TEXT NOT NULL
);
CREATE INDEX audit_entity ON audit_events(entity, entity_id);

-- Records are never edited in place or deleted.
CREATE TRIGGER programs_no_update BEFORE UPDATE ON programs BEGIN SELECT RAISE(ABORT, 'programs is append-only: record a correction instead'); END;
CREATE TRIGGER programs_no_delete BEFORE DELETE ON programs BEGIN SELECT RAISE(ABORT, 'programs is append-only: record a correction instead'); END;
CREATE TRIGGER stage_prices_no_update BEFORE UPDATE ON stage_prices BEGIN SELECT RAISE(ABORT, 'stage_prices is append-only: record a correction instead'); END;
CREATE TRIGGER stage_prices_no_delete BEFORE DELETE ON stage_prices BEGIN SELECT RAISE(ABORT, 'stage_prices is append-only: record a correction instead'); END;
CREATE TRIGGER holders_no_update BEFORE UPDATE ON holders BEGIN SELECT RAISE(ABORT, 'holders is append-only: record a correction instead'); END;
CREATE TRIGGER holders_no_delete BEFORE DELETE ON holders BEGIN SELECT RAISE(ABORT, 'holders is append-only: record a correction instead'); END;
CREATE TRIGGER imports_no_update BEFORE UPDATE ON imports BEGIN SELECT RAISE(ABORT, 'imports is append-only: record a correction instead'); END;
CREATE TRIGGER imports_no_delete BEFORE DELETE ON imports BEGIN SELECT RAISE(ABORT, 'imports is append-only: record a correction instead'); END;
CREATE TRIGGER adjudications_no_update BEFORE UPDATE ON adjudications BEGIN SELECT RAISE(ABORT, 'adjudications is append-only: record a correction instead'); END;
CREATE TRIGGER adjudications_no_delete BEFORE DELETE ON adjudications BEGIN SELECT RAISE(ABORT, 'adjudications is append-only: record a correction instead'); END;
CREATE TRIGGER pledges_no_update BEFORE UPDATE ON pledges BEGIN SELECT RAISE(ABORT, 'pledges is append-only: record a correction instead'); END;
CREATE TRIGGER pledges_no_delete BEFORE DELETE ON pledges BEGIN SELECT RAISE(ABORT, 'pledges is append-only: record a correction instead'); END;
CREATE TRIGGER pledge_releases_no_update BEFORE UPDATE ON pledge_releases BEGIN SELECT RAISE(ABORT, 'pledge_releases is append-only: record a correction instead'); END;
CREATE TRIGGER pledge_releases_no_delete BEFORE DELETE ON pledge_releases BEGIN SELECT RAISE(ABORT, 'pledge_releases is append-only: record a correction instead'); END;
CREATE TRIGGER breaches_no_update BEFORE UPDATE ON breaches BEGIN SELECT RAISE(ABORT, 'breaches is append-only: record a correction instead'); END;
CREATE TRIGGER breaches_no_delete BEFORE DELETE ON breaches BEGIN SELECT RAISE(ABORT, 'breaches is append-only: record a correction instead'); END;
CREATE TRIGGER breach_voids_no_update BEFORE UPDATE ON breach_voids BEGIN SELECT RAISE(ABORT, 'breach_voids is append-only: record a correction instead'); END;
CREATE TRIGGER breach_voids_no_delete BEFORE DELETE ON breach_voids BEGIN SELECT RAISE(ABORT, 'breach_voids is append-only: record a correction instead'); END;
CREATE TRIGGER payments_no_update BEFORE UPDATE ON payments BEGIN SELECT RAISE(ABORT, 'payments is append-only: record a correction instead'); END;
CREATE TRIGGER payments_no_delete BEFORE DELETE ON payments BEGIN SELECT RAISE(ABORT, 'payments is append-only: record a correction instead'); END;
CREATE TRIGGER liquidations_no_update BEFORE UPDATE ON liquidations BEGIN SELECT RAISE(ABORT, 'liquidations is append-only: record a correction instead'); END;
CREATE TRIGGER liquidations_no_delete BEFORE DELETE ON liquidations BEGIN SELECT RAISE(ABORT, 'liquidations is append-only: record a correction instead'); END;
CREATE TRIGGER rate_periods_no_update BEFORE UPDATE ON rate_periods BEGIN SELECT RAISE(ABORT, 'rate_periods is append-only: record a correction instead'); END;
CREATE TRIGGER rate_periods_no_delete BEFORE DELETE ON rate_periods BEGIN SELECT RAISE(ABORT, 'rate_periods is append-only: record a correction instead'); END;
CREATE TRIGGER rate_supersessions_no_update BEFORE UPDATE ON rate_supersessions BEGIN SELECT RAISE(ABORT, 'rate_supersessions is append-only: record a correction instead'); END;
CREATE TRIGGER rate_supersessions_no_delete BEFORE DELETE ON rate_supersessions BEGIN SELECT RAISE(ABORT, 'rate_supersessions is append-only: record a correction instead'); END;
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events BEGIN SELECT RAISE(ABORT, 'audit_events is append-only: record a correction instead'); END;
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events BEGIN SELECT RAISE(ABORT, 'audit_events is append-only: record a correction instead'); END;
