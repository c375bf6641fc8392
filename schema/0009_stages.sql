-- vigia register, migration 0009 (0007 and 0008 are other changes): the Second and Third Stages
-- (Decreto 3939 de 2004 Arts. 3, 13-19, 22; seed 002's "Todo o Nada" sale). Each tranche opened
-- with its window, the proposals as filed (a file once per program and stage, one audit event
-- covering its rows), the improvements offered in a tie round, the draw that decides a
-- persisting tie (its seed, the text hashed, the digest and the winner, all in the audit
-- payload), and the stage's conclusion, once: adjudicated (one award per tranche, with the
-- price that becomes Art. 9 (iii)'s reference) or declared void (desierta).

CREATE TABLE stage_tranches (
    id            INTEGER PRIMARY KEY,
    program_id    INTEGER NOT NULL REFERENCES programs(id),
    stage         INTEGER NOT NULL CHECK (stage IN (2, 3)),
    tranche       INTEGER NOT NULL CHECK (tranche >= 1),
    shares        INTEGER NOT NULL CHECK (shares > 0),
    opens         TEXT NOT NULL,
    closes        TEXT NOT NULL,
    minimum_price TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    created_by    TEXT NOT NULL,
    UNIQUE (program_id, stage, tranche)
);

CREATE TABLE proposal_imports (
    id          INTEGER PRIMARY KEY,
    program_id  INTEGER NOT NULL REFERENCES programs(id),
    stage       INTEGER NOT NULL CHECK (stage IN (2, 3)),
    file_name   TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    encoding    TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    UNIQUE (program_id, stage, sha256)
);

-- Amounts exact decimal TEXT; filed_at `YYYY-MM-DD HH:MM:SS`; guarantee NULL = none given.
CREATE TABLE proposals (
    id               INTEGER PRIMARY KEY,
    program_id       INTEGER NOT NULL REFERENCES programs(id),
    stage            INTEGER NOT NULL CHECK (stage IN (2, 3)),
    tranche          INTEGER NOT NULL CHECK (tranche >= 1),
    import_id        INTEGER NOT NULL REFERENCES proposal_imports(id),
    line             INTEGER NOT NULL,
    reference        TEXT NOT NULL,
    filed_at         TEXT NOT NULL,
    beneficial_owner TEXT,
    shares           INTEGER NOT NULL CHECK (shares > 0),
    price_per_share  TEXT NOT NULL,
    term_days        INTEGER NOT NULL CHECK (term_days >= 0),
    guarantee        TEXT,
    funds_accredited INTEGER NOT NULL,
    review           TEXT,
    created_at       TEXT NOT NULL,
    created_by       TEXT NOT NULL,
    UNIQUE (program_id, stage, reference)
);

-- Every bidder of a proposal (a joint proposal has several, jointly liable), in the file's order.
CREATE TABLE proposal_bidders (
    id          INTEGER PRIMARY KEY,
    proposal_id INTEGER NOT NULL REFERENCES proposals(id),
    seq         INTEGER NOT NULL,
    doc_type    TEXT NOT NULL,
    doc_number  TEXT NOT NULL,
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    UNIQUE (proposal_id, seq)
);

-- A tied proposal's answer to the invitation to improve; counted = 0 when it was not higher
-- than the original (seed 002: the original stands). One answer per proposal.
CREATE TABLE stage_improvements (
    id          INTEGER PRIMARY KEY,
    proposal_id INTEGER NOT NULL UNIQUE REFERENCES proposals(id),
    price       TEXT NOT NULL,
    counted     INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

CREATE TABLE stage_draws (
    id          INTEGER PRIMARY KEY,
    program_id  INTEGER NOT NULL REFERENCES programs(id),
    stage       INTEGER NOT NULL CHECK (stage IN (2, 3)),
    tranche     INTEGER NOT NULL,
    seed        TEXT NOT NULL,
    hashed_text TEXT NOT NULL,
    digest      TEXT NOT NULL,
    number      TEXT NOT NULL,          -- the digest's first 8 bytes, big-endian, in decimal
    tied        INTEGER NOT NULL,
    winner_index INTEGER NOT NULL,
    winner      TEXT NOT NULL,          -- the winning proposal's reference
    proposal_id INTEGER NOT NULL REFERENCES proposals(id),
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    UNIQUE (program_id, stage, tranche)
);

CREATE TABLE stage_conclusions (
    id             INTEGER PRIMARY KEY,
    program_id     INTEGER NOT NULL REFERENCES programs(id),
    stage          INTEGER NOT NULL CHECK (stage IN (2, 3)),
    kind           TEXT NOT NULL CHECK (kind IN ('adjudicated', 'desert')),
    decided_on     TEXT NOT NULL,
    offered        INTEGER NOT NULL,
    awarded        INTEGER NOT NULL,
    leftover       INTEGER NOT NULL,
    price          TEXT,                -- the stage's price per share (share-weighted), if any
    stage_price_id INTEGER REFERENCES stage_prices(id),
    created_at     TEXT NOT NULL,
    created_by     TEXT NOT NULL,
    UNIQUE (program_id, stage)
);

-- One row per tranche of a concluded stage: its winner (NULL: no valid proposal) and terms.
CREATE TABLE stage_awards (
    id            INTEGER PRIMARY KEY,
    conclusion_id INTEGER NOT NULL REFERENCES stage_conclusions(id),
    tranche       INTEGER NOT NULL,
    shares        INTEGER NOT NULL,
    proposal_id   INTEGER REFERENCES proposals(id),
    price         TEXT,
    term_days     INTEGER,
    rate_ea_pct   TEXT,
    value         TEXT,
    payment_due   TEXT,
    draw_id       INTEGER REFERENCES stage_draws(id),
    created_at    TEXT NOT NULL,
    created_by    TEXT NOT NULL
);

CREATE TRIGGER stage_tranches_no_update BEFORE UPDATE ON stage_tranches BEGIN SELECT RAISE(ABORT, 'stage_tranches is append-only: record a correction instead'); END;
CREATE TRIGGER stage_tranches_no_delete BEFORE DELETE ON stage_tranches BEGIN SELECT RAISE(ABORT, 'stage_tranches is append-only: record a correction instead'); END;
CREATE TRIGGER proposal_imports_no_update BEFORE UPDATE ON proposal_imports BEGIN SELECT RAISE(ABORT, 'proposal_imports is append-only: record a correction instead'); END;
CREATE TRIGGER proposal_imports_no_delete BEFORE DELETE ON proposal_imports BEGIN SELECT RAISE(ABORT, 'proposal_imports is append-only: record a correction instead'); END;
CREATE TRIGGER proposals_no_update BEFORE UPDATE ON proposals BEGIN SELECT RAISE(ABORT, 'proposals is append-only: record a correction instead'); END;
CREATE TRIGGER proposals_no_delete BEFORE DELETE ON proposals BEGIN SELECT RAISE(ABORT, 'proposals is append-only: record a correction instead'); END;
CREATE TRIGGER proposal_bidders_no_update BEFORE UPDATE ON proposal_bidders BEGIN SELECT RAISE(ABORT, 'proposal_bidders is append-only: record a correction instead'); END;
CREATE TRIGGER proposal_bidders_no_delete BEFORE DELETE ON proposal_bidders BEGIN SELECT RAISE(ABORT, 'proposal_bidders is append-only: record a correction instead'); END;
CREATE TRIGGER stage_improvements_no_update BEFORE UPDATE ON stage_improvements BEGIN SELECT RAISE(ABORT, 'stage_improvements is append-only: record a correction instead'); END;
CREATE TRIGGER stage_improvements_no_delete BEFORE DELETE ON stage_improvements BEGIN SELECT RAISE(ABORT, 'stage_improvements is append-only: record a correction instead'); END;
CREATE TRIGGER stage_draws_no_update BEFORE UPDATE ON stage_draws BEGIN SELECT RAISE(ABORT, 'stage_draws is append-only: record a correction instead'); END;
CREATE TRIGGER stage_draws_no_delete BEFORE DELETE ON stage_draws BEGIN SELECT RAISE(ABORT, 'stage_draws is append-only: record a correction instead'); END;
CREATE TRIGGER stage_conclusions_no_update BEFORE UPDATE ON stage_conclusions BEGIN SELECT RAISE(ABORT, 'stage_conclusions is append-only: record a correction instead'); END;
CREATE TRIGGER stage_conclusions_no_delete BEFORE DELETE ON stage_conclusions BEGIN SELECT RAISE(ABORT, 'stage_conclusions is append-only: record a correction instead'); END;
CREATE TRIGGER stage_awards_no_update BEFORE UPDATE ON stage_awards BEGIN SELECT RAISE(ABORT, 'stage_awards is append-only: record a correction instead'); END;
CREATE TRIGGER stage_awards_no_delete BEFORE DELETE ON stage_awards BEGIN SELECT RAISE(ABORT, 'stage_awards is append-only: record a correction instead'); END;
