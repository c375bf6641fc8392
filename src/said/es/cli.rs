//! Las frases en español del área cli, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::cli`, tiene las mismas funciones).

pub fn already_exists_was_left_as_pass() -> String {
    "ya existe y se dejó como está; use --force para reemplazarlo, o indique otro nombre de \
             archivo (p. ej. con la fecha)"
        .to_string()
}

pub fn backup(
    f: &impl std::fmt::Display,
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!("backup {f}: {es}")
}

pub fn check_db_with_vigia_audit_verify(
    e: &impl std::fmt::Display,
    db: &impl std::fmt::Display,
) -> String {
    format!("{e}; revise --db {db} con `vigia audit verify`; no se escribió ningún archivo")
}

pub fn check_that_directory_exists_that_you(e: &impl std::fmt::Display) -> String {
    format!(
        "{e}; revise que el directorio exista, que pueda escribir allí y que haya espacio; no se \
             escribió ningún archivo"
    )
}

pub fn directory_not_plain_file_give_file() -> String {
    "es un directorio o no es un archivo común; indique un nombre de archivo, p. ej. \
             DIRECTORIO/vigia-AAAA-MM-DD.db"
        .to_string()
}

pub fn no_etapa_n_acta_n_k(flag: &impl std::fmt::Display, f: &impl std::fmt::Display) -> String {
    format!(
        "{flag} {f}: no tiene la línea «Etapa N — Acta N.º K»: no es el acta de una etapa \
                 posterior escrita por vigia (el acta de la primera etapa se verifica con `vigia offer \
                 verify`; un aviso o un paz y salvo, con `vigia notice verify`)"
    )
}

pub fn no_file_was_written_run_again(
    e: &impl std::fmt::Display,
    db: &impl std::fmt::Display,
) -> String {
    format!(
        "{e}; no se escribió ningún archivo; ejecútelo de nuevo y, si vuelve a fallar, revise el \
             registro (--db {db}) con `vigia audit verify`"
    )
}

pub fn nothing_was_signed_reanchor_starts_checkpoint(
    path: &impl std::fmt::Display,
    lines: &impl std::fmt::Display,
) -> String {
    let lineas = if lines.to_string() == "1" {
        "línea"
    } else {
        "líneas"
    };
    format!(
        "no se firmó nada: --reanchor empieza un registro de puntos de control solo \
                     donde no hay ninguno, y {path} tiene {lines} {lineas}; extiéndalo con `vigia \
                     audit checkpoint` o, si no se verifica, guárdelo aparte como prueba antes de \
                     volver a anclar"
    )
}

pub fn nothing_was_signed_run_vigia_audit(
    _en: &impl std::fmt::Display,
    es: &impl std::fmt::Display,
) -> String {
    format!("no se firmó nada: {es}; ejecute `vigia audit verify`")
}

pub fn nothing_was_signed_there_no_checkpoint(log: &impl std::fmt::Display) -> String {
    format!(
        "no se firmó nada: no hay ningún punto de control en {log} que extender; ejecute \
                 `vigia audit verify` y restaure el registro de una copia de seguridad"
    )
}

pub fn nothing_was_signed_there_no_checkpoint_2(
    path: &impl std::fmt::Display,
    _events: &impl std::fmt::Display,
    _held: &impl std::fmt::Display,
    eventos: &impl std::fmt::Display,
    tiene: &impl std::fmt::Display,
) -> String {
    format!(
        "no se firmó nada: no hay registro de puntos de control en {path}, y la cadena tiene \
         {eventos} eventos{tiene}: un registro nuevo anclaría lo que la cadena tenga ahora, \
         también una cadena reescrita. Restaure el registro de una copia de seguridad (`vigia \
         backup` lo escribe junto a cada copia como ARCHIVO.checkpoints) y ejecute `vigia audit \
         verify`; solo si se perdió para siempre, empiece uno nuevo con `vigia audit checkpoint \
         --reanchor --reason TEXTO` (el motivo queda en la cadena y lo informa cada `audit \
         verify` posterior)"
    )
}

pub fn offer_verify_not_first_stage_acta(
    f: &impl std::fmt::Display,
    title: &impl std::fmt::Display,
) -> String {
    format!(
        "offer verify {f}: no es un acta de la primera etapa escrita por vigia (no tiene la línea \
                 «{title}»); un aviso o un paz y salvo se verifica con `vigia notice verify`, el acta de una \
                 etapa posterior con `vigia stage verify`"
    )
}

pub fn offer_verify_this_acta_later_stage(f: &impl std::fmt::Display) -> String {
    format!(
        "offer verify {f}: es el acta de una etapa posterior: verifíquela con `vigia stage verify`"
    )
}

pub fn register_itself_db_one_wal_shm(db: &impl std::fmt::Display) -> String {
    format!(
        "es el propio registro (--db {db}) o uno de sus archivos -wal/-shm/-journal; escriba la \
             copia en otro archivo"
    )
}

pub fn start_chain() -> String {
    "el inicio de la cadena".to_string()
}

pub fn stop_whatever_opened_temporary_copy_run(e: &impl std::fmt::Display) -> String {
    format!(
        "{e}; detenga lo que abrió la copia temporal y ejecútelo de nuevo; no se escribió ningún \
             archivo"
    )
}

pub fn symbolic_link_which_vigia_neither_writes() -> String {
    "es un enlace simbólico, a través del cual vigia no escribe ni al que reemplaza; indique \
             la ruta de un archivo real"
        .to_string()
}

pub fn evaluation_stopped_output_incomplete(
    _why: &impl std::fmt::Display,
    why_es: &impl std::fmt::Display,
) -> String {
    format!(
        "la evaluación se detuvo mientras se escribía, y lo que recibió la salida estándar está \
             incompleto: {why_es}"
    )
}

pub fn vigia_lang_is_no_language(typed: &impl std::fmt::Display) -> String {
    format!(
        "VIGIA_LANG {typed}: vigia habla es (español) o en (inglés); dele uno de esos valores o \
             elimínela"
    )
}

pub fn serving_at_stop_with(url: &impl std::fmt::Display, db: &impl std::fmt::Display) -> String {
    format!("vigia serve: {url} (registro {db}); deténgalo con Ctrl-C")
}

pub fn cannot_listen_on(
    addr: &impl std::fmt::Display,
    _why: &impl std::fmt::Display,
    por_que: &impl std::fmt::Display,
) -> String {
    format!(
        "serve --listen {addr}: no se puede escuchar ahí ({por_que}); elija otro puerto (p. ej. \
             --listen 127.0.0.1:8081) o detenga lo que lo está usando"
    )
}

pub fn rates_add_refused(
    _from: &impl std::fmt::Display,
    _to: &impl std::fmt::Display,
    _why: &impl std::fmt::Display,
    desde: &impl std::fmt::Display,
    hasta: &impl std::fmt::Display,
    por_que: &impl std::fmt::Display,
) -> String {
    format!("rates add --from {desde} --to {hasta}: {por_que}")
}

pub fn usury_ratio_confirm_with_force() -> String {
    "si la resolución trae exactamente esta cifra, repita con --force --reason TEXTO".to_string()
}

pub fn brackets_decimal_comma_use_semicolons(
    split: &(impl std::fmt::Debug + std::fmt::Display),
    semicolons: &impl std::fmt::Display,
) -> String {
    format!(
        "en --brackets las comas separan los tramos, así que «{split}» quedó partido en dos; para \
         un porcentaje con coma decimal separe los tramos con punto y coma: {semicolons}"
    )
}

pub fn not_record_number_write_digits(v: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{v}» no es el número de un registro: escriba sus cifras, p. ej. 12")
}

pub fn copy_written_not_checkpoint_log(e: &impl std::fmt::Display) -> String {
    format!("la copia quedó escrita, pero no su registro de puntos de control: {e}")
}

pub fn holidays_year_range(
    first: &impl std::fmt::Display,
    last: &impl std::fmt::Display,
) -> String {
    format!("escriba un año entre {first} (vigencia de la Ley 51 de 1983) y {last}")
}

pub fn demo_needs_fresh_path() -> String {
    "la demostración construye un registro nuevo: indique una ruta donde todavía no haya un archivo"
        .to_string()
}

pub fn acta_format_from_extension() -> String {
    "el formato del acta sale de su extensión: nómbrela .pdf, .html o .md".to_string()
}

pub fn dry_run_records_no_acta() -> String {
    "un acta deja constancia de una ejecución y un ensayo (--dry-run) no registra nada: quite \
     --dry-run o --acta"
        .to_string()
}

pub fn not_shipped_program(shipped: &impl std::fmt::Display) -> String {
    format!("no es un programa incluido en vigia; los incluidos son {shipped}")
}

pub fn stage_needs_price(stage: &impl std::fmt::Display) -> String {
    format!("--stage {stage} necesita el precio por acción obtenido, mayor que cero")
}

pub fn stage_none_takes_no_price() -> String {
    "--stage none deja constancia de que no hubo etapa posterior; no lleva precio".to_string()
}

pub fn stage_is_2_3_or_none() -> String {
    "escriba 2, 3 o none".to_string()
}

pub fn https_needs_key() -> String {
    "HTTPS necesita también la clave privada del certificado: agregue --tls-key ARCHIVO (o quite \
     --tls-cert para servir HTTP sin cifrar)"
        .to_string()
}

pub fn https_needs_cert() -> String {
    "HTTPS necesita también el certificado: agregue --tls-cert ARCHIVO (o quite --tls-key para \
     servir HTTP sin cifrar)"
        .to_string()
}

pub fn keys_dir_not_directory() -> String {
    "no es una carpeta: debe contener el USUARIO.p12 de cada firmante (modo 0600)".to_string()
}

pub fn not_a_certificate(e: &impl std::fmt::Display) -> String {
    format!("no es un certificado (PEM o DER): {e}")
}

pub fn trust_dir_empty() -> String {
    "no contiene ningún certificado (.pem, .crt, .cer o .der): ponga allí el certificado raíz de \
     la entidad de certificación"
        .to_string()
}

pub fn only_pdf_signed_add_format_pdf() -> String {
    "solo un PDF puede llevar firma: agregue --format pdf".to_string()
}

pub fn only_pdf_signed_acta_as_pdf(flag: &impl std::fmt::Display) -> String {
    format!("solo un PDF puede llevar firma: escriba el acta en PDF: {flag} ARCHIVO.pdf")
}

pub fn workbook_not_made(e: &impl std::fmt::Display) -> String {
    format!("no se pudo construir el libro de Excel: {e}")
}

pub fn template_xlsx_or_csv() -> String {
    "nombre la plantilla ARCHIVO.xlsx (libro de Excel) o ARCHIVO.csv".to_string()
}

pub fn only_init_creates_register(e: &impl std::fmt::Display) -> String {
    format!("{e}: `vigia init` crea un registro, y solo donde aún no hay ningún archivo")
}

pub fn password_stdin_not_terminal() -> String {
    "la entrada estándar no es una terminal: use --password-stdin y escriba la contraseña en su \
     primera línea"
        .to_string()
}

pub fn passwords_differ() -> String {
    "las dos contraseñas escritas no coinciden; no se cambió nada".to_string()
}

pub fn sign_password_unreadable(e: &impl std::fmt::Display) -> String {
    format!("no se pudo leer la contraseña de la entrada estándar ({e})")
}

pub fn sign_no_password(var: &impl std::fmt::Display) -> String {
    format!("falta la contraseña: use --sign-password-stdin y escríbala, o defina {var}")
}

pub fn acta_without_program_line() -> String {
    "no tiene la línea «Programa: CÓDIGO»: no es un acta de vigia".to_string()
}

pub fn register_holds_no_adjudication(code: &impl std::fmt::Display) -> String {
    format!("el registro no tiene ninguna adjudicación de {code}")
}

pub fn stage_acta_without_conclusion(
    acta_id: &impl std::fmt::Display,
    stage: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
) -> String {
    format!(
        "es el acta N.º {acta_id} de la etapa {stage} de {code}, pero el registro no tiene la \
         conclusión de esa etapa"
    )
}

pub fn notice_named(n: &impl std::fmt::Display) -> String {
    format!("el aviso {n}")
}

pub fn settlement_named(n: &impl std::fmt::Display) -> String {
    format!("el paz y salvo {n}")
}

pub fn the_document() -> String {
    "el documento".to_string()
}

pub fn in_register_document_unwritten(
    what: &impl std::fmt::Display,
    path: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    number: &impl std::fmt::Display,
) -> String {
    format!(
        "{what} ya está en el registro, pero su documento no se pudo escribir en --out {path} \
         ({why}); escríbalo de nuevo con `vigia notice render {number}`"
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
        "{what} ya está en el registro, pero su documento no se pudo poner en {flag} {path} \
         ({why}); quedó en {tmp}: muévalo usted allí"
    )
}

pub fn offer_not_adjudicated(code: &impl std::fmt::Display) -> String {
    format!(
        "la oferta de {code} no se ha adjudicado; ejecute `vigia offer adjudicate {code} --on D`"
    )
}

pub fn acta_of_run_unwritten(
    run: &impl std::fmt::Display,
    reason: &impl std::fmt::Display,
) -> String {
    format!("no se pudo escribir el acta de la adjudicación N.º {run}: {reason}")
}

pub fn adjudication_run_named(
    run: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
) -> String {
    format!("la adjudicación N.º {run} de {code}")
}

pub fn stage_conclusion_named(
    stage: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
) -> String {
    format!("la conclusión de la etapa {stage} de {code}")
}

pub fn in_register_acta_unwritten(
    what: &impl std::fmt::Display,
    flag: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
    again: &impl std::fmt::Display,
) -> String {
    format!(
        "{what} ya está en el registro, pero su acta no se pudo escribir en {flag} ({why}); \
         escríbala de nuevo con `{again}`"
    )
}

pub fn evaluation_unwritten(e: &impl std::fmt::Display) -> String {
    format!("no se pudo escribir la evaluación: {e}")
}

pub fn acta_unwritten_at(flag: &impl std::fmt::Display, e: &impl std::fmt::Display) -> String {
    format!("no se pudo escribir el acta en {flag}: {e}")
}

pub fn written_but_unsigned(path: &impl std::fmt::Display, why: &impl std::fmt::Display) -> String {
    format!("el documento {path} ya está en el registro y escrito, pero no se pudo firmar: {why}")
}

pub fn program_signs_notices(code: &impl std::fmt::Display) -> String {
    format!(
        "el programa {code} emite sus avisos solo firmados (su [signatures] required_for): no se \
         emitió nada; ejecute de nuevo `vigia notice issue` con --sign CERT.p12, el certificado de \
         uno de sus firmantes autorizados"
    )
}

pub fn program_signs_settlements(code: &impl std::fmt::Display) -> String {
    format!(
        "el programa {code} emite sus paz y salvos solo firmados (su [signatures] required_for): \
         no se emitió nada; ejecute de nuevo `vigia settlement issue` con --sign CERT.p12, el \
         certificado de uno de sus firmantes autorizados"
    )
}

pub fn audit_key_missing(path: &impl std::fmt::Display) -> String {
    format!(
        "clave de auditoría {path}: no hay ninguna clave allí; `vigia init` crea una, o indique la \
         ruta de la clave con --key"
    )
}

pub fn audit_key_problem(path: &impl std::fmt::Display, why: &impl std::fmt::Display) -> String {
    format!("clave de auditoría {path}: {why}")
}

pub fn checkpoint_log_problem(
    path: &impl std::fmt::Display,
    why: &impl std::fmt::Display,
) -> String {
    format!("registro de puntos de control {path}: {why}")
}

pub fn tsa_gave_no_timestamp(url: &impl std::fmt::Display, why: &impl std::fmt::Display) -> String {
    format!(
        "--tsa {url}: la autoridad de sellado de tiempo no dio un sello ({why}): no se emitió nada; \
         revise la dirección (la autoridad la entrega con su servicio de estampado) y que responda, \
         o emita sin --tsa (la hora será entonces la del reloj del firmante)"
    )
}

pub fn not_found_listed_by(
    said: &impl std::fmt::Display,
    command: &impl std::fmt::Display,
) -> String {
    format!("{said}; consulte la lista con `vigia {command}`")
}
