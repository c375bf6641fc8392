//! English sentences of the cli area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::cli`, has the same functions).

pub fn already_exists_was_left_as_pass() -> String {
    "it already exists and was left as it is; pass --force to replace it, or give a new \
             file name (e.g. with the date in it)"
        .to_string()
}

pub fn backup(
    f: &impl std::fmt::Display,
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!("backup {f}: {en}")
}

pub fn check_db_with_vigia_audit_verify(
    e: &impl std::fmt::Display,
    db: &impl std::fmt::Display,
) -> String {
    format!("{e}; check --db {db} with `vigia audit verify`; no file was written")
}

pub fn check_that_directory_exists_that_you(e: &impl std::fmt::Display) -> String {
    format!(
        "{e}; check that the directory exists, that you may write there and that there is \
             room; no file was written"
    )
}

pub fn directory_not_plain_file_give_file() -> String {
    "it is a directory or not a plain file; give a file name, e.g. DIR/vigia-YYYY-MM-DD.db"
        .to_string()
}

pub fn no_etapa_n_acta_n_k(flag: &impl std::fmt::Display, f: &impl std::fmt::Display) -> String {
    format!(
        "{flag} {f}: no \"Etapa N — Acta N.º K\" line: not the acta of a later stage written by \
                 vigia (a first-stage acta is checked with `vigia offer verify`, a notice or paz y salvo \
                 with `vigia notice verify`)"
    )
}

pub fn no_file_was_written_run_again(
    e: &impl std::fmt::Display,
    db: &impl std::fmt::Display,
) -> String {
    format!(
        "{e}; no file was written; run it again, and if it fails again check the register \
             (--db {db}) with `vigia audit verify`"
    )
}

pub fn nothing_was_signed_reanchor_starts_checkpoint(
    path: &impl std::fmt::Display,
    lines: &impl std::fmt::Display,
) -> String {
    format!(
        "nothing was signed: --reanchor starts a checkpoint log only where there is \
                     none, and {path} holds {lines} line(s); extend it with `vigia audit \
                     checkpoint`, or, if it does not verify, keep it aside as evidence before \
                     re-anchoring"
    )
}

pub fn nothing_was_signed_run_vigia_audit(
    en: &impl std::fmt::Display,
    _es: &impl std::fmt::Display,
) -> String {
    format!("nothing was signed: {en}; run `vigia audit verify`")
}

pub fn nothing_was_signed_there_no_checkpoint(log: &impl std::fmt::Display) -> String {
    format!(
        "nothing was signed: there is no checkpoint in {log} to extend; run `vigia audit \
                 verify`, and restore the log from a backup"
    )
}

pub fn nothing_was_signed_there_no_checkpoint_2(
    path: &impl std::fmt::Display,
    events: &impl std::fmt::Display,
    held: &impl std::fmt::Display,
    _eventos: &impl std::fmt::Display,
    _tiene: &impl std::fmt::Display,
) -> String {
    format!(
        "nothing was signed: there is no checkpoint log at {path}, and the chain has {events} \
         events{held}: a new log would anchor whatever the chain holds now, a rewritten chain \
         included. Restore the log from a backup (`vigia backup` writes it beside each copy as \
         FILE.checkpoints) and run `vigia audit verify`; only if it is lost for good, start a \
         new one with `vigia audit checkpoint --reanchor --reason TEXT` (the reason is recorded \
         in the chain and every later `audit verify` reports it)"
    )
}

pub fn offer_verify_not_first_stage_acta(
    f: &impl std::fmt::Display,
    title: &impl std::fmt::Display,
) -> String {
    format!(
        "offer verify {f}: not a first-stage acta written by vigia (no line \"{title}\"); a notice \
                 or paz y salvo is checked with `vigia notice verify`, a later stage's acta with `vigia \
                 stage verify`"
    )
}

pub fn offer_verify_this_acta_later_stage(f: &impl std::fmt::Display) -> String {
    format!(
        "offer verify {f}: this is the acta of a later stage: check it with `vigia stage verify`"
    )
}

pub fn register_itself_db_one_wal_shm(db: &impl std::fmt::Display) -> String {
    format!(
        "it is the register itself (--db {db}) or one of its -wal/-shm/-journal files; write \
             the backup to another file"
    )
}

pub fn start_chain() -> String {
    "the start of the chain".to_string()
}

pub fn stop_whatever_opened_temporary_copy_run(e: &impl std::fmt::Display) -> String {
    format!("{e}; stop whatever opened the temporary copy and run it again; no file was written")
}

pub fn symbolic_link_which_vigia_neither_writes() -> String {
    "it is a symbolic link, which vigia neither writes through nor replaces; give the path \
             of a real file"
        .to_string()
}

pub fn evaluation_stopped_output_incomplete(
    why: &impl std::fmt::Display,
    _why_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the evaluation stopped while it was written, and what standard output received is \
             incomplete: {why}"
    )
}

pub fn vigia_lang_is_no_language(typed: &impl std::fmt::Display) -> String {
    format!(
        "VIGIA_LANG {typed}: vigia speaks es (Spanish) or en (English); set it to one of them or \
             unset it"
    )
}

pub fn serving_at_stop_with(url: &impl std::fmt::Display, db: &impl std::fmt::Display) -> String {
    format!("vigia serve: {url} (register {db}); stop with Ctrl-C")
}

pub fn cannot_listen_on(
    addr: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    _por_que: &impl std::fmt::Display,
) -> String {
    format!(
        "serve --listen {addr}: cannot listen there ({why}); choose another port (e.g. --listen \
             127.0.0.1:8081) or stop what is using it"
    )
}

pub fn rates_add_refused(
    from: &impl std::fmt::Display,
    to: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    _desde: &impl std::fmt::Display,
    _hasta: &impl std::fmt::Display,
    _por_que: &impl std::fmt::Display,
) -> String {
    format!("rates add --from {from} --to {to}: {why}")
}

pub fn usury_ratio_confirm_with_force() -> String {
    "if the resolution prints exactly this figure, repeat with --force --reason TEXT".to_string()
}

pub fn brackets_decimal_comma_use_semicolons(
    split: &(impl std::fmt::Debug + std::fmt::Display),
    semicolons: &impl std::fmt::Display,
) -> String {
    format!(
        "in --brackets commas separate the pairs, so {split:?} was split in two; for a percentage \
         with a decimal comma separate the pairs with semicolons: {semicolons}"
    )
}

pub fn not_record_number_write_digits(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{v:?} is not a record's number: write its digits, e.g. 12")
}

pub fn copy_written_not_checkpoint_log(e: &impl std::fmt::Display) -> String {
    format!("the copy was written, but not its checkpoint log: {e}")
}

pub fn holidays_year_range(
    first: &impl std::fmt::Display,
    last: &impl std::fmt::Display,
) -> String {
    format!("give a year from {first} (Ley 51 de 1983 in force) to {last}")
}

pub fn demo_needs_fresh_path() -> String {
    "the demo builds a fresh register; give a path where no file exists yet".to_string()
}

pub fn acta_format_from_extension() -> String {
    "the acta's format comes from its extension: name it .pdf, .html or .md".to_string()
}

pub fn dry_run_records_no_acta() -> String {
    "an acta records a run, and a dry run records nothing: drop --dry-run or --acta".to_string()
}

pub fn not_shipped_program(shipped: &impl std::fmt::Display) -> String {
    format!("not a program shipped with vigia; the shipped ones are {shipped}")
}

pub fn stage_needs_price(stage: &impl std::fmt::Display) -> String {
    format!("--stage {stage} needs the per-share price obtained, greater than zero")
}

pub fn stage_none_takes_no_price() -> String {
    "--stage none records that no later stage happened; it takes no price".to_string()
}

pub fn stage_is_2_3_or_none() -> String {
    "use 2, 3 or none".to_string()
}

pub fn https_needs_key() -> String {
    "HTTPS needs the certificate's private key too: add --tls-key FILE (or drop --tls-cert to \
     serve plain HTTP)"
        .to_string()
}

pub fn https_needs_cert() -> String {
    "HTTPS needs the certificate too: add --tls-cert FILE (or drop --tls-key to serve plain HTTP)"
        .to_string()
}

pub fn keys_dir_not_directory() -> String {
    "is not a directory: it holds each signer's USER.p12 (mode 0600)".to_string()
}

pub fn not_a_certificate(e: &impl std::fmt::Display) -> String {
    format!("is not a certificate (PEM or DER): {e}")
}

pub fn trust_dir_empty() -> String {
    "holds no certificate (.pem, .crt, .cer or .der): put the certification authority's root there"
        .to_string()
}

pub fn only_pdf_signed_add_format_pdf() -> String {
    "only a PDF can carry a signature: add --format pdf".to_string()
}

pub fn only_pdf_signed_acta_as_pdf(flag: &impl std::fmt::Display) -> String {
    format!("only a PDF can carry a signature: write the acta as a PDF: {flag} FILE.pdf")
}

pub fn workbook_not_made(e: &impl std::fmt::Display) -> String {
    format!("the workbook could not be made: {e}")
}

pub fn template_xlsx_or_csv() -> String {
    "name the template FILE.xlsx (a workbook) or FILE.csv".to_string()
}

pub fn only_init_creates_register(e: &impl std::fmt::Display) -> String {
    format!("{e}: `vigia init` creates a register, and only where no file exists yet")
}

pub fn password_stdin_not_terminal() -> String {
    "standard input is not a terminal: pass --password-stdin and the password on its first line"
        .to_string()
}

pub fn passwords_differ() -> String {
    "the two passwords typed differ; nothing was changed".to_string()
}

pub fn sign_password_unreadable(e: &impl std::fmt::Display) -> String {
    format!("the password could not be read from standard input ({e})")
}

pub fn sign_no_password(var: &impl std::fmt::Display) -> String {
    format!("no password: pass --sign-password-stdin and type it, or set {var}")
}

pub fn acta_without_program_line() -> String {
    "no \"Programa: CODE\" line: not an acta of vigia".to_string()
}

pub fn register_holds_no_adjudication(code: &impl std::fmt::Display) -> String {
    format!("the register holds no adjudication of {code}")
}

pub fn stage_acta_without_conclusion(
    acta_id: &impl std::fmt::Display,
    stage: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
) -> String {
    format!(
        "it is the acta N.º {acta_id} of stage {stage} of {code}, but the register holds no \
         conclusion of that stage"
    )
}

pub fn notice_named(n: &impl std::fmt::Display) -> String {
    format!("notice {n}")
}

pub fn settlement_named(n: &impl std::fmt::Display) -> String {
    format!("paz y salvo {n}")
}

pub fn the_document() -> String {
    "the document".to_string()
}

pub fn in_register_document_unwritten(
    what: &impl std::fmt::Display,
    path: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    number: &impl std::fmt::Display,
) -> String {
    format!(
        "{what} is in the register, but its document could not be written at --out {path} \
         ({why}); write it again with `vigia notice render {number}`"
    )
}

pub fn in_register_document_not_placed(
    what: &impl std::fmt::Display,
    flag: &impl std::fmt::Display,
    path: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    tmp: &impl std::fmt::Display,
) -> String {
    format!(
        "{what} is in the register, but its document could not be put at {flag} {path} ({why}); \
         it was left at {tmp}: move it there yourself"
    )
}

pub fn offer_not_adjudicated(code: &impl std::fmt::Display) -> String {
    format!(
        "the offer of {code} has not been adjudicated; run `vigia offer adjudicate {code} --on D`"
    )
}

pub fn acta_of_run_unwritten(
    run: &impl std::fmt::Display,
    reason: &impl std::fmt::Display,
) -> String {
    format!("the acta of run {run} could not be written: {reason}")
}

pub fn adjudication_run_named(
    run: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
) -> String {
    format!("run {run} of {code}")
}

pub fn stage_conclusion_named(
    stage: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
) -> String {
    format!("the conclusion of stage {stage} of {code}")
}

pub fn in_register_acta_unwritten(
    what: &impl std::fmt::Display,
    flag: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    again: &impl std::fmt::Display,
) -> String {
    format!(
        "{what} is in the register, but its acta could not be written at {flag} ({why}); write it \
         again with `{again}`"
    )
}

pub fn evaluation_unwritten(e: &impl std::fmt::Display) -> String {
    format!("the evaluation could not be written: {e}")
}

pub fn acta_unwritten_at(flag: &impl std::fmt::Display, e: &impl std::fmt::Display) -> String {
    format!("the acta could not be written at {flag}: {e}")
}

pub fn written_but_unsigned(path: &impl std::fmt::Display, why: &impl std::fmt::Display) -> String {
    format!("the document {path} is in the register and written, but could not be signed: {why}")
}

pub fn program_signs_notices(code: &impl std::fmt::Display) -> String {
    format!(
        "program {code} issues its notices only signed (its [signatures] required_for): nothing \
         was issued; run `vigia notice issue` again with --sign CERT.p12, the certificate of one \
         of its authorised signatories"
    )
}

pub fn program_signs_settlements(code: &impl std::fmt::Display) -> String {
    format!(
        "program {code} issues its paz y salvo certificates only signed (its [signatures] \
         required_for): nothing was issued; run `vigia settlement issue` again with --sign \
         CERT.p12, the certificate of one of its authorised signatories"
    )
}

pub fn audit_key_missing(path: &impl std::fmt::Display) -> String {
    format!(
        "audit key {path}: there is no key there; `vigia init` creates one, or pass the key's path \
         with --key"
    )
}

pub fn audit_key_problem(path: &impl std::fmt::Display, why: &impl std::fmt::Display) -> String {
    format!("audit key {path}: {why}")
}

pub fn checkpoint_log_problem(
    path: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
) -> String {
    format!("checkpoint log {path}: {why}")
}

pub fn tsa_gave_no_timestamp(url: &impl std::fmt::Display, why: &impl std::fmt::Display) -> String {
    format!(
        "--tsa {url}: the timestamp authority gave no timestamp ({why}): nothing was issued; check \
         the address (the authority gives it with its timestamp service) and that it answers, or \
         issue without --tsa (the signing time is then the signer's clock)"
    )
}

pub fn not_found_listed_by(
    said: &impl std::fmt::Display,
    command: &impl std::fmt::Display,
) -> String {
    format!("{said}; see the list with `vigia {command}`")
}
