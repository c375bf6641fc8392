//! `/firma`: «Firma digital» (issue 26 item 4). A jurídico or an administrator loads a
//! certificate for the session: uploads its PKCS#12 file and types its password, or, when the
//! office keeps the key files on the server (`VIGIA_SIGN_KEYS`), types the password of theirs.
//! The file is read into memory (bounded), never written; the signer is kept in the session
//! (`auth::Sessions::set_signer`) and dropped with it. `/avisos/{id}/firmar` and
//! `/paz-y-salvo/{id}/firmar` then sign a document's PDF with it and download it.

use super::auth::User;
use super::extract::Path;
use super::form::{Inputs, Page, Posted, Sent, hidden_in_field, ok, see_other, with_status};
use super::views::{self, csrf, page};
use super::{App, WebError, letters};
use crate::catalogue::signature_why::sign_refused;
use crate::lang::Lang;
use crate::register::signing::{self, KeyFileError, MAX_KEY_FILE};
use crate::register::user::Role;
use crate::sign::Signer;
use crate::store::notices::{self, Doc};
use crate::store::settlements;
use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use maud::{Markup, html};
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/firma", get(signing_page).post(load))
        .route("/firma/quitar", post(unload))
        .route("/avisos/{id}/firmar", post(sign_notice))
        .route("/paz-y-salvo/{id}/firmar", post(sign_settlement))
}

/// The inputs of the load form.
const FILE: &str = "archivo";
const PASSWORD: &str = "clave";

/// A form with no input but its token.
#[derive(Default)]
struct Nothing;

impl Inputs for Nothing {
    fn read(_: &Sent) -> Nothing {
        Nothing
    }
}

fn markup(app: &App, user: &User, error: Option<&str>) -> Markup {
    let signer = app.sessions.signer(user.token());
    let kept = app.config.sign_keys.is_some();
    html! {
        p { "Los avisos y los paz y salvo se firman digitalmente (PAdES, Ley 527 de 1999) con el certificado de uno de los firmantes autorizados del programa. El certificado se usa solo en esta sesión: se guarda en la memoria del servidor, nunca en un archivo, y se descarta al cerrar la sesión o cuando esta vence." }
        @if let Some(s) = &signer {
            p.ok #firma-cargada role="status" { "Certificado cargado para esta sesión: " strong { (s.name()) } "." }
            form method="post" action="/firma/quitar" {
                (csrf(user))
                button type="submit" { "Quitar el certificado" }
            }
        } @else if user.may(Role::Juridico) {
            @if let Some(e) = error { p.error #firma-error role="alert" { (e) } }
            form method="post" action="/firma" enctype="multipart/form-data" novalidate {
                (csrf(user))
                @if kept {
                    p { "Su certificado está guardado en el servidor (" code { (user.name) ".p12" } "); escriba su contraseña para usarlo en esta sesión." }
                } @else {
                    (super::form::file_field("Archivo del certificado (.p12 o .pfx)", Some(".p12,.pfx")))
                }
                div.campo {
                    label for=(PASSWORD) { "Contraseña del certificado" }
                    input type="password" id=(PASSWORD) name=(PASSWORD) autocomplete="off";
                }
                div.acciones { button type="submit" { "Cargar el certificado" } }
            }
        } @else {
            p { "Solo el perfil jurídico o el administrador firman documentos." }
        }
    }
}

async fn signing_page(State(app): State<Arc<App>>, user: User) -> Page {
    ok(page(
        Some(&user),
        "Firma digital",
        markup(&app, &user, None),
    ))
}

/// A multipart form read into memory: its text fields and its file, each bounded (and the
/// whole body by the form limit, `Limits::form_body`: `/firma` is no upload route); nothing is
/// written anywhere (unlike `form::read_upload`, which streams a file to a temporary file).
async fn read_in_memory(
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Result<(Vec<(String, String)>, Option<Vec<u8>>), WebError> {
    let bad = || WebError::bad_request("El formulario no llegó completo; envíelo de nuevo.");
    let too_large = || {
        WebError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "El archivo pasa de {} KiB: un certificado .p12 ocupa unos pocos kilobytes.",
                MAX_KEY_FILE >> 10
            ),
        )
    };
    let mut m = m.map_err(|_| bad())?;
    let mut fields = Vec::new();
    let mut file = None;
    while let Some(mut part) = m.next_field().await.map_err(|_| bad())? {
        let name = part.name().unwrap_or("").to_string();
        let is_file = part.file_name().is_some();
        let limit = if is_file { MAX_KEY_FILE as usize } else { 4096 };
        let mut bytes = Vec::new();
        while let Some(chunk) = part.chunk().await.map_err(|_| bad())? {
            if bytes.len() + chunk.len() > limit {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        if is_file {
            if !bytes.is_empty() && name == FILE {
                file = Some(bytes);
            }
        } else {
            let text = String::from_utf8(bytes).map_err(|_| bad())?;
            if let Some(e) = hidden_in_field(&name, &text) {
                return Err(e);
            }
            fields.push((name, text));
        }
    }
    Ok((fields, file))
}

/// Loads a certificate for the session (jurídico and above).
async fn load(
    State(app): State<Arc<App>>,
    user: User,
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Page {
    let (fields, file) = read_in_memory(m).await?;
    let field = |n: &str| fields.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    user.check_csrf(field(views::CSRF).as_deref())?;
    user.require(Role::Juridico)?;
    let refused = |app: &App, why: String| {
        with_status(
            StatusCode::UNPROCESSABLE_ENTITY,
            page(Some(&user), "Firma digital", markup(app, &user, Some(&why))),
        )
    };
    let bytes = match (&app.config.sign_keys, file) {
        (Some(dir), _) => match signing::read_key_file(dir, &user.name) {
            Ok(b) => b,
            Err(e) => return refused(&app, key_file_refused(&e)),
        },
        (None, Some(b)) => b,
        (None, None) => {
            return refused(
                &app,
                "Elija el archivo .p12 o .pfx de su certificado; no se subió ninguno.".into(),
            );
        }
    };
    let password = field(PASSWORD).unwrap_or_default();
    // the PKCS#12's key derivation takes CPU time: off the async threads
    let opened = tokio::task::spawn_blocking(move || Signer::from_pkcs12(&bytes, &password))
        .await
        .map_err(WebError::internal)?;
    match opened {
        Ok(signer) => {
            app.sessions
                .set_signer(user.token(), Some(Arc::new(signer)));
            see_other("/firma".into())
        }
        Err(e) => refused(
            &app,
            format!("{}.", capitalised(&sign_refused(Lang::Es, &e))),
        ),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A server-kept key file's refusal, in Spanish, naming what the administrator must fix.
fn key_file_refused(e: &KeyFileError) -> String {
    match e {
        KeyFileError::Missing(p) => format!(
            "El servidor no guarda un certificado de su cuenta ({}): pida al administrador que lo ponga allí.",
            p.display()
        ),
        KeyFileError::NotPlainFile(p) => format!(
            "El certificado de su cuenta ({}) no es un archivo común (es un enlace u otra cosa): el servidor no lo lee.",
            p.display()
        ),
        KeyFileError::NotPrivate(p, mode) => format!(
            "El certificado de su cuenta ({}) pueden leerlo otros usuarios del servidor (permisos {mode:o}): el administrador debe dejarlo en 600.",
            p.display()
        ),
        KeyFileError::Unreadable(p, why) => format!(
            "El certificado de su cuenta ({}) no se pudo leer: {why}.",
            p.display()
        ),
    }
}

/// Drops the session's certificate.
async fn unload(State(app): State<Arc<App>>, user: User, sent: Posted<Nothing>) -> Page {
    let _ = sent.checked(&user, Role::Consulta)?;
    app.sessions.set_signer(user.token(), None);
    see_other("/firma".into())
}

/// The session's signer, or the refusal that says where to load one.
fn session_signer(app: &App, user: &User) -> Result<Arc<Signer>, WebError> {
    app.sessions.signer(user.token()).ok_or_else(|| {
        WebError::new(
            StatusCode::CONFLICT,
            "No hay un certificado cargado en esta sesión: cárguelo en «Firma digital» (/firma) y firme de nuevo.",
        )
    })
}

/// A notice's PDF, signed with the session's certificate (jurídico and above).
async fn sign_notice(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<Nothing>,
) -> Page {
    let _ = sent.checked(&user, Role::Juridico)?;
    let signer = session_signer(&app, &user)?;
    letters::signed_download(&app, &user, signer, move |conn| {
        let n = notices::get(conn, id)?;
        let data = crate::register::notice_data::gather(conn, &n)?;
        let bytes = crate::report::document::notice(&data, crate::notice::DocFormat::Pdf);
        let reason = signing::notice_reason(&n.number);
        Ok((
            Doc::Notice(n.id),
            n.number,
            bytes,
            reason,
            data.letters.issuer.clone(),
        ))
    })
    .await
}

/// A paz y salvo's PDF, signed with the session's certificate (jurídico and above).
async fn sign_settlement(
    State(app): State<Arc<App>>,
    user: User,
    Path(id): Path<i64>,
    sent: Posted<Nothing>,
) -> Page {
    let _ = sent.checked(&user, Role::Juridico)?;
    let signer = session_signer(&app, &user)?;
    letters::signed_download(&app, &user, signer, move |conn| {
        let s = settlements::get(conn, id)?;
        let data = crate::register::notice_data::gather_settlement(conn, &s)?;
        let bytes = crate::report::document::settlement(&data, crate::notice::DocFormat::Pdf);
        let reason = signing::settlement_reason(&s.number);
        Ok((
            Doc::Settlement(s.id),
            s.number,
            bytes,
            reason,
            data.letters.issuer.clone(),
        ))
    })
    .await
}
