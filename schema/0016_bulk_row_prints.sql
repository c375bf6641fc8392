-- vigia register, migration 0016: where rows written in bulk were changed by hand (issue 24.2).
-- A bulk write (an import) is covered by one audit event holding the SHA-256 of all its rows;
-- each row also leaves a short print (its id, an 8-byte hash of its audited form, a 2-byte hash
-- of each column's value), kept here one blob per 4096 rows. The event records the SHA-256 of
-- these blobs, so a print changed with its row is caught; `audit verify` compares the rows as
-- stored now with their prints to name the row and column changed. Bulk writes made before this
-- migration keep no prints and are reported by range.

CREATE TABLE bulk_row_prints (
    id          INTEGER PRIMARY KEY,
    -- the table written and the first id of the range the event covers
    table_name  TEXT NOT NULL,
    first_id    INTEGER NOT NULL,
    -- 0, 1, ...: the rows' order
    chunk       INTEGER NOT NULL CHECK (chunk >= 0),
    prints      BLOB NOT NULL,
    UNIQUE (table_name, first_id, chunk)
);

CREATE TRIGGER bulk_row_prints_no_update BEFORE UPDATE ON bulk_row_prints BEGIN SELECT RAISE(ABORT, 'bulk_row_prints is append-only: record a correction instead'); END;
CREATE TRIGGER bulk_row_prints_no_delete BEFORE DELETE ON bulk_row_prints BEGIN SELECT RAISE(ABORT, 'bulk_row_prints is append-only: record a correction instead'); END;
