-- vigia register, migration 0010: sign-ins to the web interface (`vigia serve`). Each attempt on
-- an account is an audited append-only row, a security event a careful officer wants in the
-- trail: who signed in and when, and every failed attempt (a wrong password, or a disabled
-- account). Five failures in a row lock the account for 15 minutes (register::user); counting
-- them here rather than in the server's memory makes the lockout survive a restart of `vigia
-- serve` and hold across several servers on one register. An attempt refused because the
-- account is locked is not recorded (it checks no password), and neither is an attempt on a
-- name that is no account (nothing to refer to; counted in the server's memory instead).

CREATE TABLE user_sign_ins (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    succeeded   INTEGER NOT NULL CHECK (succeeded IN (0, 1)),
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL
);
-- the last successful sign-in of an account, then its failures since
CREATE INDEX user_sign_ins_user ON user_sign_ins(user_id, succeeded, id);

CREATE TRIGGER user_sign_ins_no_update BEFORE UPDATE ON user_sign_ins BEGIN SELECT RAISE(ABORT, 'user_sign_ins is append-only: record a correction instead'); END;
CREATE TRIGGER user_sign_ins_no_delete BEFORE DELETE ON user_sign_ins BEGIN SELECT RAISE(ABORT, 'user_sign_ins is append-only: record a correction instead'); END;
