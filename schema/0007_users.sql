-- vigia register: the web interface's accounts (`vigia user`, `vigia serve`). Like every other
-- table, append-only and audited: a password change is a new row of user_passwords (the latest
-- wins), a disabled account a row of user_disables. Roles: consulta < oficial < juridico < admin.
-- (Numbered 0007: 0005 and 0006 are taken by work landing beside this one.)

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    role        TEXT NOT NULL CHECK (role IN ('consulta', 'oficial', 'juridico', 'admin')),
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);

CREATE TABLE user_passwords (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    phc         TEXT NOT NULL,  -- argon2id, PHC string (salt and parameters inside)
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);
CREATE INDEX user_passwords_user ON user_passwords(user_id, id);

CREATE TABLE user_disables (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);
CREATE INDEX user_disables_user ON user_disables(user_id);

-- holder search by name prefix in the web interface
CREATE INDEX holders_name_nocase ON holders(name COLLATE NOCASE);

CREATE TRIGGER users_no_update BEFORE UPDATE ON users BEGIN SELECT RAISE(ABORT, 'users is append-only: record a correction instead'); END;
CREATE TRIGGER users_no_delete BEFORE DELETE ON users BEGIN SELECT RAISE(ABORT, 'users is append-only: record a correction instead'); END;
CREATE TRIGGER user_passwords_no_update BEFORE UPDATE ON user_passwords BEGIN SELECT RAISE(ABORT, 'user_passwords is append-only: record a correction instead'); END;
CREATE TRIGGER user_passwords_no_delete BEFORE DELETE ON user_passwords BEGIN SELECT RAISE(ABORT, 'user_passwords is append-only: record a correction instead'); END;
CREATE TRIGGER user_disables_no_update BEFORE UPDATE ON user_disables BEGIN SELECT RAISE(ABORT, 'user_disables is append-only: record a correction instead'); END;
CREATE TRIGGER user_disables_no_delete BEFORE DELETE ON user_disables BEGIN SELECT RAISE(ABORT, 'user_disables is append-only: record a correction instead'); END;
