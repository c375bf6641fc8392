//! English sentences of the store area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::store`, has the same functions).

pub fn adjudication_belongs_not_check_file_s(
    adjudication_id: &impl std::fmt::Display,
    doc_type: &impl std::fmt::Display,
    doc_number: &impl std::fmt::Display,
    t: &impl std::fmt::Display,
    n: &impl std::fmt::Display,
) -> String {
    format!(
        "adjudication {adjudication_id} belongs to {doc_type} {doc_number}, not {t} {n}; check the file's rows"
    )
}

pub fn chain_no_longer_passes_through_head(
    count: &impl std::fmt::Display,
    hash: &impl std::fmt::Display,
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!(
        "the chain no longer passes through the head it signed ({count} events, hash {hash}): {en}"
    )
}

pub fn chain_now_has_events_events_were(now: &impl std::fmt::Display) -> String {
    format!("the chain now has {now} events: events were removed from its end")
}

pub fn chain_was_rewritten_row_forged(
    en: &impl std::fmt::Display,
    w_en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
    _w_es: &impl std::fmt::Display,
) -> String {
    format!("{en}: {w_en}; the chain was rewritten or the row forged")
}

pub fn checkpoint_chain_records_audit_checkpoints_row(
    id: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    count: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
    _count_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the checkpoint the chain records in audit_checkpoints row {id} (signed {at}, {count} events)"
    )
}

pub fn checkpoint_signed(n: &impl std::fmt::Display, at: &impl std::fmt::Display) -> String {
    format!("checkpoint {n} (signed {at})")
}

pub fn event_missing(expected: &impl std::fmt::Display) -> String {
    format!("event {expected} is missing")
}

pub fn event_not_one_signed(seq: &impl std::fmt::Display) -> String {
    format!("event {seq} is not the one it signed")
}

pub fn event_not_one_signed_chain_was(seq: &impl std::fmt::Display) -> String {
    format!(
        "event {seq} is not the one it signed: the chain was rewritten up to or \
                     after that event (and its hashes recomputed)"
    )
}

pub fn event_s_link_event_before_broken(seq: &impl std::fmt::Display) -> String {
    format!("event {seq}'s link to the event before it is broken")
}

pub fn event_was_altered(seq: &impl std::fmt::Display) -> String {
    format!("event {seq} was altered")
}

pub fn hash_does_not_match_contents_event() -> String {
    "its hash does not match its contents: the event was altered".to_string()
}

pub fn if_this_register_s_checkpoints_signed(
    en: &impl std::fmt::Display,
    w_en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
    _w_es: &impl std::fmt::Display,
) -> String {
    format!(
        "{en}: {w_en}; if this register's checkpoints are signed with another audit key, \
                     verify again with that key; if this is its key, the chain was rewritten or the row \
                     forged"
    )
}

pub fn line_checkpoint_log(
    n: &impl std::fmt::Display,
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!("line {n} of the checkpoint log: {en}")
}

pub fn line_checkpoint_log_cannot_read(
    n: &impl std::fmt::Display,
    e: &impl std::fmt::Display,
) -> String {
    format!("line {n} of the checkpoint log cannot be read ({e})")
}

pub fn previous_hash_link_does_not_match() -> String {
    "its previous-hash link does not match the event before it".to_string()
}

pub fn row_added_by_hand(id: &impl std::fmt::Display) -> String {
    format!("row {id} added by hand")
}

pub fn row_changed(id: &impl std::fmt::Display) -> String {
    format!("row {id} changed")
}

pub fn row_column_changed(
    id: &impl std::fmt::Display,
    c: &impl std::fmt::Display,
    _c_es: &impl std::fmt::Display,
) -> String {
    format!("row {id}, column {c} changed")
}

pub fn row_differs_from_what_was_recorded(
    table: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
    now: &impl std::fmt::Display,
    then: &impl std::fmt::Display,
) -> String {
    format!("{table} row {id} differs from what was recorded: stored now {now}, recorded {then}")
}

pub fn row_has_no_audit_event_was(
    table: &impl std::fmt::Display,
    id: &impl std::fmt::Display,
) -> String {
    format!("{table} row {id} has no audit event: it was inserted outside vigia")
}

pub fn row_no_longer_exists(table: &impl std::fmt::Display, id: &impl std::fmt::Display) -> String {
    format!("{table} row {id} no longer exists")
}

pub fn row_removed(id: &impl std::fmt::Display) -> String {
    format!("row {id} removed")
}

pub fn rows_written_with_no_longer_match(
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!("rows written with it no longer match what was recorded: {en}")
}

pub fn rows_written_with_no_longer_match_2(
    ranges: &impl std::fmt::Display,
    _rangos: &impl std::fmt::Display,
    also_en: &impl std::fmt::Display,
    _also_es: &impl std::fmt::Display,
) -> String {
    format!(
        "rows written with it no longer match what was recorded (e.g. {ranges} edited or removed by hand){also_en}"
    )
}

pub fn sequence_jumps_from_events_were_removed(
    from: &impl std::fmt::Display,
    to: &impl std::fmt::Display,
) -> String {
    format!("sequence jumps from {from} to {to}: events were removed")
}

pub fn signature_does_not_verify_line_was() -> String {
    "its signature does not verify: the line was altered or forged".to_string()
}

pub fn signed_empty_chain_with_non_zero() -> String {
    "it signed an empty chain with a non-zero hash".to_string()
}

pub fn signed_events_chain_now_has_events(
    signed: &impl std::fmt::Display,
    expected_seq: &impl std::fmt::Display,
) -> String {
    format!(
        "it signed {signed} events and the chain now has {expected_seq}: events were removed \
                 from the end of the chain"
    )
}

pub fn was_signed_by_another_key_id(
    en: &impl std::fmt::Display,
    other: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!(
        "{en} was signed by another key (id {other}), before the log was started again: it \
                     cannot be checked with this key"
    )
}

pub fn was_signed_by_another_key_id_2(
    other: &impl std::fmt::Display,
    this: &impl std::fmt::Display,
) -> String {
    format!("it was signed by another key (id {other}; this key is {this})")
}

pub fn row_of_table(
    t: &impl std::fmt::Display,
    row_en: &impl std::fmt::Display,
    _row_es: &impl std::fmt::Display,
) -> String {
    format!("{t}: {row_en}")
}

pub fn file_not_sqlite() -> String {
    "the file is not an SQLite database".to_string()
}

pub fn vigia_id_but_schema_version(v: &impl std::fmt::Display) -> String {
    format!("it has vigia's application id but schema version {v}")
}

pub fn another_application_id(app: &impl std::fmt::Display) -> String {
    format!("it is another application's SQLite database (application id {app})")
}

pub fn sqlite_without_tables() -> String {
    "it is an SQLite database with no tables".to_string()
}

pub fn another_application_tables(
    version: &impl std::fmt::Display,
    listed: &impl std::fmt::Display,
) -> String {
    format!(
        "it is another application's SQLite database (schema version {version}, tables {listed})"
    )
}

pub fn file_empty() -> String {
    "the file is empty".to_string()
}

pub fn cannot_create(e: &impl std::fmt::Display) -> String {
    format!("it cannot be created ({e})")
}

pub fn key_directory_not_created(e: &impl std::fmt::Display) -> String {
    format!("its directory cannot be created ({e})")
}

pub fn key_no_random_bytes(e: &impl std::fmt::Display) -> String {
    format!("no random bytes from the system ({e})")
}

pub fn key_not_created(e: &impl std::fmt::Display) -> String {
    format!("cannot be created ({e})")
}

pub fn key_not_written(e: &impl std::fmt::Display) -> String {
    format!("cannot be written ({e})")
}

pub fn cannot_be_read(e: &impl std::fmt::Display) -> String {
    format!("cannot be read ({e})")
}

pub fn key_not_regular_file() -> String {
    "is not a regular file (a symbolic link is not followed)".to_string()
}

pub fn key_public_not_hex() -> String {
    "its public line is not 64 hex digits: it is not a vigia audit key".to_string()
}

pub fn key_secret_not_hex() -> String {
    "its secret line is not 64 hex digits: it is not a vigia audit key".to_string()
}

pub fn key_no_public_line() -> String {
    "it has no public line: it is not a vigia audit key".to_string()
}

pub fn key_not_ed25519() -> String {
    "its public key is not an Ed25519 key".to_string()
}

pub fn key_lines_mismatch() -> String {
    "its secret and public lines do not belong together".to_string()
}

pub fn key_readable_by_others(mode: &impl std::fmt::Display) -> String {
    format!("other users can read it (mode {mode}); make it private with chmod 600")
}

pub fn key_public_only() -> String {
    "it holds only the public key: it can verify checkpoints, not sign them".to_string()
}

pub fn log_not_appended(e: &impl std::fmt::Display) -> String {
    format!("cannot be appended to ({e})")
}
