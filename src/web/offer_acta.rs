//! `/programas/{code}/oferta/acta.pdf|.html|.md`: the acta of a program's stored first-stage
//! adjudication, as `vigia offer acta` writes it, downloaded in each format the acta renderer
//! writes.

use super::auth::User;
use super::extract::Path;
use super::form::{Page, download_acta, render_to_temp};
use super::{App, WebError};
use crate::report::acta::Format;
use crate::store::offering as offers;
use crate::store::programs;
use axum::extract::State;
use std::sync::Arc;

/// The acta of the program's stored adjudication in `format`, read and rendered outside any
/// write transaction (as `vigia offer acta` renders it, `report::acta_stored`) into a private
/// temporary file, its file recorded (`register::acta_files`) under the signed-in user, and sent
/// from it as a download, a chunk at a time.
async fn acta_file(app: Arc<App>, user: User, code: String, format: Format) -> Page {
    let officer = user.name.clone();
    use crate::report::acta_stored::{self, Unwritten};
    let made = app
        .db(move |s| {
            let conn = s.conn();
            let p = programs::by_code(conn, &code)?;
            if offers::run(conn, p.id)?.is_none() {
                return Ok(None);
            }
            let (run, file) = render_to_temp(|out| {
                acta_stored::write(conn, &p, format, out).map_err(|e| match e {
                    Unwritten::NotAdjudicated => {
                        WebError::not_found("una adjudicación de la oferta de este programa")
                    }
                    Unwritten::Register(e) => WebError::from(e),
                    Unwritten::Rows { run, reason } => WebError::internal(format!(
                        "the acta of run {run} could not be written: {reason}"
                    )),
                    Unwritten::Io(e) => {
                        WebError::internal(format!("the acta could not be written: {e}"))
                    }
                })
            })?;
            // its file recorded in a short write of its own, after it is rendered
            let (mut file, len) = file;
            let acta = (crate::store::acta_files::Acta::Run(run), format);
            super::acta_files::record(s, &officer, acta, &mut file)?;
            let file = (file, len);
            // a program's code is letters, digits, '-' and '_' (program.rs), safe in a file name
            Ok(Some((format!("acta-{}-{run}", p.program.code), file)))
        })
        .await?;
    let Some((name, file)) = made else {
        return Err(WebError::not_found(
            "una adjudicación de la oferta de este programa",
        ));
    };
    download_acta(&name, format, file)
}

pub(super) async fn pdf(State(app): State<Arc<App>>, user: User, Path(code): Path<String>) -> Page {
    acta_file(app, user, code, Format::Pdf).await
}

pub(super) async fn md(State(app): State<Arc<App>>, user: User, Path(code): Path<String>) -> Page {
    acta_file(app, user, code, Format::Md).await
}

pub(super) async fn html(
    State(app): State<Arc<App>>,
    user: User,
    Path(code): Path<String>,
) -> Page {
    acta_file(app, user, code, Format::Html).await
}
