//! `/respaldo`: `vigia backup` for an administrator in the browser. The same consistent copy
//! (`store::backup::backup`: one snapshot while officers keep writing, checked, 0600) written to
//! a new private temporary directory, zipped there with the checkpoint log's lines it reaches
//! (`register::backup`, as `vigia backup` writes FILE.checkpoints), opened, its names removed,
//! and streamed as a download from the open file: never held in memory nor left on disk. Like the command line's it
//! writes nothing in the register; the server's log says who took it, with the copy's audit
//! events and chain head, which the response's headers carry too.

use super::auth::User;
use super::form::{Nothing, Page, Posted, download_file, ok};
use super::views::{csrf, page};
use super::{App, WebError};
use crate::register::user::Role;
use crate::store::backup;
use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::routing::get;
use maud::html;
use std::os::unix::fs::OpenOptionsExt;
use std::sync::Arc;

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route("/respaldo", get(backup_page).post(backup_download))
}

const TITLE: &str = "Copia de respaldo";

async fn backup_page(user: User) -> Page {
    user.require(Role::Admin)?;
    ok(page(
        Some(&user),
        TITLE,
        html! {
            p {
                "Una copia completa del registro, como «vigia backup»: una instantánea consistente tomada mientras "
                "otros siguen escribiendo, comprobada (integridad, versión del esquema, eventos y cabeza de la cadena "
                "de auditoría) antes de enviarse. Contiene los datos personales de todos los titulares: guárdela "
                "donde solo la lean quienes deben."
            }
            p.nota {
                "Se descarga un zip con la copia (ARCHIVO.db) y las líneas del registro de puntos de control "
                "firmados que la copia alcanza (ARCHIVO.db.checkpoints), como las escribe «vigia backup»: "
                "descomprimidos juntos, «vigia --db ARCHIVO.db audit verify» comprueba la copia."
            }
            form method="post" action="/respaldo" {
                (csrf(&user))
                div.acciones { button type="submit" { "Descargar la copia" } }
            }
        },
    ))
}

/// The copy as a download: made, checked, then streamed from its open file.
async fn backup_download(State(app): State<Arc<App>>, user: User, sent: Posted<Nothing>) -> Page {
    let Nothing = sent.checked(&user, Role::Admin)?;
    let register = app.config.db.clone();
    let today = app.today();
    let who = user.name.clone();
    let log = {
        let mut p = register.clone().into_os_string();
        p.push(".checkpoints");
        std::path::PathBuf::from(p)
    };
    let name = format!("vigia-respaldo-{}", today.format("%Y-%m-%d"));
    let zip_name = name.clone();
    let (copied, file, len) = tokio::task::spawn_blocking(move || {
        let internal = |what: &str, e: &dyn std::fmt::Display| {
            WebError::internal(format!("backup's {what}: {e}"))
        };
        // a new directory only its owner may enter (tempfile makes it 0700)
        let dir = tempfile::Builder::new()
            .prefix(".vigia-respaldo-")
            .tempdir()
            .map_err(|e| internal("temporary directory", &e))?;
        let target = dir.path().join("copia.db");
        let copied = backup::backup(&register, &target, false, |_, _| {})
            .map_err(|e| internal("copy", &e))?;
        // the lines of the checkpoint log the copy reaches, as `vigia backup` copies them
        let checkpoints = match std::fs::read_to_string(&log) {
            Ok(text) => Some(crate::register::backup::checkpoints_reached(&text, copied.events).0),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(internal("checkpoint log", &e)),
        };
        let zipped = zip_copy(dir.path(), &zip_name, &copied, checkpoints.as_deref())
            .map_err(|e| internal("zip", &e))?;
        let file = std::fs::File::open(&zipped).map_err(|e| internal("zip", &e))?;
        let len = file.metadata().map_err(|e| internal("zip", &e))?.len();
        // the open file is read to the end; its name, the copy and the directory go now
        drop(dir);
        Ok::<_, WebError>((copied, file, len))
    })
    .await
    .map_err(|e| WebError::internal(format!("task failed: {e}")))??;
    eprintln!(
        "vigia serve: backup downloaded by {who}: {} bytes, {} audit events, head {}",
        copied.bytes,
        copied.events,
        copied.head.as_deref().unwrap_or("-")
    );
    download_file(
        &format!("{name}.zip"),
        "application/zip",
        (file, len),
        vec![
            (
                header::HeaderName::from_static("x-vigia-backup-events"),
                copied.events.to_string(),
            ),
            (
                header::HeaderName::from_static("x-vigia-backup-head"),
                copied.head.unwrap_or_default(),
            ),
        ],
    )
}

/// The zip sent: the copy as NAME.db and, when the register has a checkpoint log, the lines it
/// reaches as NAME.db.checkpoints (where `vigia --db NAME.db audit verify` looks for them),
/// written beside the copy in its private directory (0600).
fn zip_copy(
    dir: &std::path::Path,
    name: &str,
    copied: &backup::Copied,
    checkpoints: Option<&str>,
) -> Result<std::path::PathBuf, String> {
    use std::io::Write;
    let path = dir.join("copia.zip");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .map_err(|e| e.to_string())?;
    let mut z = zip::ZipWriter::new(std::io::BufWriter::new(file));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o600)
        .large_file(copied.bytes >= u64::from(u32::MAX));
    z.start_file(format!("{name}.db"), options)
        .map_err(|e| e.to_string())?;
    let mut db = std::fs::File::open(&copied.path).map_err(|e| e.to_string())?;
    std::io::copy(&mut db, &mut z).map_err(|e| e.to_string())?;
    if let Some(text) = checkpoints {
        z.start_file(format!("{name}.db.checkpoints"), options)
            .map_err(|e| e.to_string())?;
        z.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    let mut out = z.finish().map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    Ok(path)
}
