-- vigia register, version 4: pledges registered in bulk from a file (`vigia pledge import`), the
-- way adjudications are imported. A file is imported once (its SHA-256); the import's audit event
-- covers the pledges it wrote by id range, count and hash.

CREATE TABLE pledge_imports (
    id          INTEGER PRIMARY KEY,
    file_name   TEXT NOT NULL,
    sha256      TEXT NOT NULL UNIQUE,
    encoding    TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

CREATE TRIGGER pledge_imports_no_update BEFORE UPDATE ON pledge_imports BEGIN SELECT RAISE(ABORT, 'pledge_imports is append-only: record a correction instead'); END;
CREATE TRIGGER pledge_imports_no_delete BEFORE DELETE ON pledge_imports BEGIN SELECT RAISE(ABORT, 'pledge_imports is append-only: record a correction instead'); END;
