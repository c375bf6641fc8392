//! `/respaldo`: `vigia backup` for an administrator in the browser. The same consistent copy
//! (`store::backup::backup`: one snapshot while officers keep writing, checked, 0600) written to
//! a new private temporary directory, opened, its name removed, and streamed as a download from
//! the open file: the copy is never held in memory nor left on disk. Like the command line's it
//! writes nothing in the register; the server's log says who took it, with the copy's audit
//! events and chain head, which the response's headers carry too.

use super::auth::User;
use super::form::{Nothing, Page, Posted, ok};
use super::views::{csrf, page};
use super::{App, WebError};
use crate::register::user::Role;
use crate::store::backup;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use http_body::Frame;
use maud::html;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route("/respaldo", get(backup_page).post(backup_download))
}

const TITLE: &str = "Copia de respaldo";

/// Bytes read from the copy per chunk sent.
const CHUNK: usize = 256 << 10;

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
                "No incluye el registro de puntos de control firmados; para copiarlo junto a la copia use "
                "«vigia backup ARCHIVO» en el servidor."
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
    let (copied, file) = tokio::task::spawn_blocking(move || {
        // a new directory only its owner may enter (tempfile makes it 0700)
        let dir = tempfile::Builder::new()
            .prefix(".vigia-respaldo-")
            .tempdir()
            .map_err(|e| WebError::internal(format!("backup's temporary directory: {e}")))?;
        let target = dir.path().join("copia.db");
        let copied = backup::backup(&register, &target, false, |_, _| {})
            .map_err(|e| WebError::internal(format!("backup: {e}")))?;
        let file = std::fs::File::open(&copied.path)
            .map_err(|e| WebError::internal(format!("backup's copy: {e}")))?;
        // the open file is read to the end; its name and directory go now
        drop(dir);
        Ok::<_, WebError>((copied, file))
    })
    .await
    .map_err(|e| WebError::internal(format!("task failed: {e}")))??;
    eprintln!(
        "vigia serve: backup downloaded by {who}: {} bytes, {} audit events, head {}",
        copied.bytes,
        copied.events,
        copied.head.as_deref().unwrap_or("-")
    );
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    tokio::task::spawn_blocking(move || {
        let mut file = file;
        loop {
            let mut buf = vec![0u8; CHUNK];
            match std::io::Read::read(&mut file, &mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    buf.truncate(n);
                    if tx.blocking_send(Ok(Bytes::from(buf))).is_err() {
                        break; // the download was abandoned
                    }
                }
                Err(e) => {
                    let _ = tx.blocking_send(Err(e));
                    break;
                }
            }
        }
    });
    let name = format!("vigia-respaldo-{}.db", today.format("%Y-%m-%d"));
    Ok((
        [
            (header::CONTENT_TYPE, "application/vnd.sqlite3".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
            (header::CONTENT_LENGTH, copied.bytes.to_string()),
            (
                header::HeaderName::from_static("x-vigia-backup-events"),
                copied.events.to_string(),
            ),
            (
                header::HeaderName::from_static("x-vigia-backup-head"),
                copied.head.unwrap_or_default(),
            ),
        ],
        Body::new(Chunks { rx }),
    )
        .into_response())
}

/// The copy's bytes as they are read, as a response body.
struct Chunks {
    rx: tokio::sync::mpsc::Receiver<std::io::Result<Bytes>>,
}

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        self.rx
            .poll_recv(cx)
            .map(|chunk| chunk.map(|r| r.map(Frame::data)))
    }
}
