//! The form kernel every page module builds on, and no page: a form's inputs as sent ([`Sent`]),
//! read once into the page's typed form struct ([`Inputs`]; [`Posted`] extracts it with its CSRF
//! token); the messages of a refused form, each beside the input it names ([`Errors`]); a write
//! tried in a transaction rolled back ([`dry_run`]); uploads ([`read_upload`], [`upload_form`]);
//! the responses ([`ok`], [`see_other`], [`with_status`], [`download`]); and the server's one
//! clock read as a Colombian date ([`App::today`]). No rule lives here.

use super::auth::User;
use super::extract::Form;
use super::views::{self, CSRF, csrf};
use super::{App, WebError};
use crate::register::user::Role;
use crate::register::{self, Refusal};
use crate::store::{self, Store, StoreError};
use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use chrono::NaiveDate;
use maud::{Markup, html};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// What a handler answers: a page, a redirect or a download; or an error page.
pub(super) type Page = Result<Response, WebError>;

/// A form's inputs (or a query string's) as sent, in their order. Only a form struct's
/// [`Inputs::read`] looks into it, once.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(transparent)]
pub(super) struct Sent(Vec<(String, String)>);

impl Sent {
    /// The input `name` as typed; empty when it was not sent.
    pub(super) fn text(&self, name: &str) -> String {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    /// Every value sent under `name` (a list of checkboxes or hidden inputs), in order.
    pub(super) fn all(&self, name: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// The input `name` trimmed, `None` when empty or not sent.
    pub(super) fn opt(&self, name: &str) -> Option<String> {
        Some(self.text(name).trim().to_string()).filter(|s| !s.is_empty())
    }

    /// The form's CSRF token, if it sent one.
    pub(super) fn csrf(&self) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == CSRF)
            .map(|(_, v)| v.as_str())
    }
}

/// A form struct: the inputs of one form, as typed, read from what was sent. Each names its
/// inputs once (a [`crate::register::Field::as_str`] where the register has the field), and the
/// markup that draws the form shows the struct's values again beside its refusals.
pub(super) trait Inputs: Sized {
    fn read(sent: &Sent) -> Self;
}

/// A form with no input but its token (sign out).
#[derive(Default)]
pub(super) struct Nothing;

impl Inputs for Nothing {
    fn read(_: &Sent) -> Nothing {
        Nothing
    }
}

/// A record voided because it was recorded by mistake: the reason (every void form of the
/// holder and breach pages).
#[derive(Default)]
pub(super) struct VoidForm {
    pub(super) reason: String,
}

impl Inputs for VoidForm {
    fn read(sent: &Sent) -> VoidForm {
        VoidForm {
            reason: sent.text(register::Field::VoidReason.as_str()),
        }
    }
}

/// A form sent as `application/x-www-form-urlencoded`, read into its form struct, with its CSRF
/// token.
pub(super) struct Posted<T> {
    pub(super) csrf: Option<String>,
    pub(super) form: T,
}

impl<T> Posted<T> {
    /// The form, once its token is the session's and then the account has `role`: nothing is
    /// read or written before both hold.
    pub(super) fn checked(self, user: &User, role: Role) -> Result<T, WebError> {
        user.check_csrf(self.csrf.as_deref())?;
        user.require(role)?;
        Ok(self.form)
    }
}

impl<T: Inputs, S: Send + Sync> FromRequest<S> for Posted<T> {
    type Rejection = WebError;

    async fn from_request(req: Request, state: &S) -> Result<Self, WebError> {
        let Form(sent) = Form::<Sent>::from_request(req, state).await?;
        Ok(Posted {
            csrf: sent.csrf().map(str::to_string),
            form: T::read(&sent),
        })
    }
}

/// A value read from an input, or the input's message put in `errors`.
pub(super) fn keep<T>(errors: &mut Errors, name: &str, read: Result<T, String>) -> Option<T> {
    read.map_err(|e| errors.put(name, e)).ok()
}

// ---------------------------------------------------------------------------- responses

pub(super) fn ok(m: Markup) -> Page {
    Ok(Html(m.into_string()).into_response())
}

pub(super) fn see_other(to: String) -> Page {
    Ok(Redirect::to(&to).into_response())
}

/// An acta verification form's address opened with a GET (the address bar keeps the form's
/// target after an upload; a reload, a bookmark, a new tab): back to the page that holds the
/// form, at the form (`#acta`), never a bare 405. The page is the address without its last
/// segment (`…/oferta/verificar` → `…/oferta`), as the browser sent it (already encoded).
pub(super) async fn to_acta_form(_user: User, uri: axum::http::Uri) -> Page {
    let page = uri.path().rsplit_once('/').map_or("", |(page, _)| page);
    see_other(format!("{page}#acta"))
}

/// A page with a status other than 200 (a refusal: 422).
pub(super) fn with_status(status: StatusCode, m: Markup) -> Page {
    Ok((status, Html(m.into_string())).into_response())
}

/// A file sent as a download named `name`.
pub(super) fn download(name: &str, mime: &str, bytes: Vec<u8>) -> Page {
    Ok((
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// A document rendered by `write` into a new private temporary file (mode 0600, already
/// unlinked: `tempfile`), flushed and rewound, for [`download_file`]: a large acta is written
/// as it is made and sent a chunk at a time, never held in memory. What `write` returned, and
/// the file with its length.
pub(super) fn render_to_temp<T>(
    write: impl FnOnce(&mut dyn std::io::Write) -> Result<T, WebError>,
) -> Result<(T, (std::fs::File, u64)), WebError> {
    use std::io::{Seek, Write};
    let failed = |e: std::io::Error| WebError::internal(format!("temporary file: {e}"));
    let mut file = tempfile::tempfile().map_err(failed)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut file);
    let made = write(&mut out)?;
    out.flush().map_err(failed)?;
    drop(out);
    let len = file.seek(std::io::SeekFrom::End(0)).map_err(failed)?;
    file.rewind().map_err(failed)?;
    Ok((made, (file, len)))
}

/// Bytes read per chunk of a file streamed as a download.
const CHUNK: usize = 256 << 10;

/// An acta (the first stage's or a later stage's) sent as a download: `name` with the
/// extension and media type of its format.
pub(super) fn download_acta(
    name: &str,
    format: crate::report::acta::Format,
    file: (std::fs::File, u64),
) -> Page {
    use crate::report::acta::Format;
    let (extension, mime) = match format {
        Format::Pdf => ("pdf", "application/pdf"),
        Format::Md => ("md", "text/markdown; charset=utf-8"),
        Format::Html => ("html", "text/html; charset=utf-8"),
    };
    download_file(&format!("{name}.{extension}"), mime, file, Vec::new())
}

/// A file sent as a download named `name` from its open handle (`len` bytes; its name may be
/// gone already), read in chunks off the async threads: a large file (a backup, a batch's zip)
/// is never held in memory. `extra` headers go with it.
pub(super) fn download_file(
    name: &str,
    mime: &str,
    (file, len): (std::fs::File, u64),
    extra: Vec<(header::HeaderName, String)>,
) -> Page {
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
    let mut r = axum::body::Body::new(Chunks { rx }).into_response();
    let h = r.headers_mut();
    let value = |v: String| {
        header::HeaderValue::try_from(v).map_err(|e| WebError::internal(format!("header: {e}")))
    };
    h.insert(header::CONTENT_TYPE, value(mime.to_string())?);
    h.insert(
        header::CONTENT_DISPOSITION,
        value(format!("attachment; filename=\"{name}\""))?,
    );
    h.insert(header::CONTENT_LENGTH, value(len.to_string())?);
    for (k, v) in extra {
        h.insert(k, value(v)?);
    }
    Ok(r)
}

/// A file's bytes as they are read, as a response body.
struct Chunks {
    rx: tokio::sync::mpsc::Receiver<std::io::Result<Bytes>>,
}

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, std::io::Error>>> {
        self.rx
            .poll_recv(cx)
            .map(|chunk| chunk.map(|r| r.map(http_body::Frame::data)))
    }
}

// ---------------------------------------------------------------------------- the clock, the register

impl App {
    /// Today in Colombia (UTC−5) by the server's clock: every date a page defaults to and every
    /// `today` a rule is given.
    pub(super) fn today(&self) -> NaiveDate {
        crate::calendar::colombia_date(self.now())
    }

    /// The rate series, read inside a write transaction.
    pub(super) fn rates_tx(
        &self,
        tx: &store::Tx<'_>,
    ) -> register::Result<crate::rates::RateSeries> {
        match &self.config.rates_file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?;
                crate::rates::RateSeries::from_csv(&text, "--rates")
                    .map_err(|e| StoreError::Corrupt(e.to_string()).into())
            }
            None => Ok(store::rates::series(tx.conn())?),
        }
    }
}

/// The codes of the programs in the register.
pub(super) async fn program_codes(app: &Arc<App>) -> Result<Vec<String>, WebError> {
    app.db(|s| {
        Ok(store::programs::list(s.conn())?
            .into_iter()
            .map(|p| p.program.code)
            .collect())
    })
    .await
}

/// The outcome of a write tried in a transaction that is always rolled back (a preview): what the
/// rules said, and nothing written.
enum Dry<T> {
    Refused(register::Error),
    Accepted(T),
}

impl<T> From<StoreError> for Dry<T> {
    fn from(e: StoreError) -> Self {
        Dry::Refused(register::Error::Store(e))
    }
}

/// What the register's rules say of a write, inside a transaction rolled back: nothing written.
pub(super) fn dry_run<T>(
    store: &mut Store,
    officer: &str,
    f: impl FnOnce(&mut store::Tx<'_>) -> register::Result<T>,
) -> Result<T, register::Error> {
    match store.write::<(), Dry<T>>(officer, |tx| match f(tx) {
        Ok(t) => Err(Dry::Accepted(t)),
        Err(e) => Err(Dry::Refused(e)),
    }) {
        Err(Dry::Accepted(t)) => Ok(t),
        Err(Dry::Refused(e)) => Err(e),
        Ok(()) => unreachable!("the closure never succeeds"),
    }
}

/// A register error as the sentences a page lists; a store failure goes up.
pub(super) fn refusal_texts(e: register::Error) -> Result<Vec<String>, WebError> {
    Ok(match e {
        register::Error::Refused(r) => vec![views::refusal_text(&r)],
        register::Error::Refusals(rs) => rs.iter().map(views::refusal_text).collect(),
        register::Error::Fine(f) => vec![views::fine_error_text(&f)],
        register::Error::Store(s) => return Err(s.into()),
    })
}

// ---------------------------------------------------------------------------- errors

/// What was wrong with a form that was sent: messages by input name, and general ones. A
/// message is shown next to its input when the page shows that input, else in the general list
/// ([`Errors::placed`]): a refusal whose field has no input on the page (the breach of a
/// payment, the adjudication of a breach, a confirmation not offered yet) is never dropped.
#[derive(Default)]
pub(super) struct Errors {
    /// By input name, in the order they were given.
    by_field: Vec<(String, String)>,
    pub(super) general: Vec<String>,
    /// The inputs that showed their message in the rendering under way.
    shown: RefCell<HashSet<String>>,
    /// What no input showed in the first rendering: the general list shows it in the second.
    unplaced: RefCell<Vec<String>>,
    /// Whether the rendering under way showed the general list.
    listed: Cell<bool>,
}

impl Errors {
    pub(super) fn put(&mut self, name: &str, message: String) {
        match self.by_field.iter_mut().find(|(k, _)| k == name) {
            Some((_, m)) => *m = message,
            None => self.by_field.push((name.to_string(), message)),
        }
    }
    /// The message for the input `name`, which the page shows next to it.
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        let m = self.by_field.iter().find(|(k, _)| k == name)?;
        self.shown.borrow_mut().insert(name.to_string());
        Some(m.1.as_str())
    }
    pub(super) fn is_empty(&self) -> bool {
        self.by_field.is_empty() && self.general.is_empty()
    }
    /// A register error: refusals by the input they name, anything else in the general list;
    /// a failure to read goes up.
    pub(super) fn register(&mut self, e: register::Error) -> Result<(), WebError> {
        match e {
            register::Error::Refused(r) => self.refusal(&r),
            register::Error::Refusals(rs) => rs.iter().for_each(|r| self.refusal(r)),
            register::Error::Fine(f) => self.general.push(views::fine_error_text(&f)),
            register::Error::Store(StoreError::Rejected(ps)) => {
                self.general.extend(ps.iter().map(views::problema))
            }
            register::Error::Store(s) => return Err(s.into()),
        }
        Ok(())
    }
    fn refusal(&mut self, r: &Refusal) {
        let text = views::refusal_text(r);
        match views::refusal_field(r) {
            Some(f) => self.put(f.as_str(), text),
            None => self.general.push(text),
        }
    }
    /// The general list, where the page puts it (above the form): the general messages and, in
    /// the second rendering of [`Errors::placed`], those no input showed.
    pub(super) fn general(&self) -> Markup {
        self.listed.set(true);
        self.list()
    }
    fn list(&self) -> Markup {
        let unplaced = self.unplaced.borrow();
        html! {
            @for g in self.general.iter().chain(unplaced.iter()) {
                p.error role="alert" { (views::sentence(g)) }
            }
        }
    }
    /// Renders a page that shows these errors: once to learn which inputs show their message,
    /// again when some did not, so that the general list holds them; a page that shows no
    /// general list gets it above everything.
    pub(super) fn placed(&self, render: impl Fn() -> Markup) -> Markup {
        self.shown.borrow_mut().clear();
        self.unplaced.borrow_mut().clear();
        self.listed.set(false);
        let mut m = render();
        let left: Vec<String> = {
            let shown = self.shown.borrow();
            self.by_field
                .iter()
                .filter(|(k, _)| !shown.contains(k))
                .map(|(_, m)| m.clone())
                .collect()
        };
        if !left.is_empty() {
            *self.unplaced.borrow_mut() = left;
            self.listed.set(false);
            m = render();
        }
        if self.listed.get() {
            m
        } else {
            html! { (self.list()) (m) }
        }
    }
}

// ---------------------------------------------------------------------------- uploads

/// The file input of every upload form.
pub(super) const FILE: &str = "archivo";

/// The uploaded parts of a multipart form: text inputs and files, each written to a temporary
/// file as it arrived ([`Received`]).
pub(super) struct Upload {
    pub(super) fields: Sent,
    pub(super) files: HashMap<String, Received>,
}

impl Upload {
    /// The file sent in the form's file input, if one was chosen: on disk, not in memory.
    pub(super) fn received(&self) -> Option<&Received> {
        self.files.get(FILE)
    }

    /// The file sent in the form's file input, if one was chosen, read into memory (name,
    /// bytes); `None` also when it cannot be read back. For small files (an acta); a handler
    /// of large ones reads [`Upload::received`] when it parses.
    pub(super) fn file(&self) -> Option<(String, Vec<u8>)> {
        let r = self.received()?;
        Some((r.name.clone(), r.bytes().ok()?))
    }
}

/// A file received by an upload form: written as its bytes arrived to a temporary file (mode
/// 0600, created anew in the temporary directory, never through a link), so that a large upload
/// is not held in memory while it arrives, nor at all when the request is refused; removed when
/// this is dropped (the handler's end).
pub(super) struct Received {
    /// The file's name, as the browser sent it.
    pub(super) name: String,
    file: tempfile::NamedTempFile,
    len: u64,
}

impl Received {
    /// The temporary file (it exists while `self` does).
    #[cfg(test)]
    pub(super) fn path(&self) -> &std::path::Path {
        self.file.path()
    }

    /// Its size in bytes.
    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// Its bytes, read from the file off the async threads (what a parser of whole files
    /// reads, when it parses).
    pub(super) async fn read(&self) -> Result<Vec<u8>, WebError> {
        let mut f = self
            .file
            .reopen()
            .map_err(|e| WebError::internal(format!("upload's temporary file: {e}")))?;
        let len = usize::try_from(self.len).unwrap_or(0);
        tokio::task::spawn_blocking(move || {
            let mut bytes = Vec::with_capacity(len);
            std::io::Read::read_to_end(&mut f, &mut bytes).map(|_| bytes)
        })
        .await
        .map_err(|e| WebError::internal(format!("task failed: {e}")))?
        .map_err(|e| WebError::internal(format!("upload's temporary file: {e}")))
    }

    /// Its bytes, read from the file.
    fn bytes(&self) -> std::io::Result<Vec<u8>> {
        let mut bytes = Vec::with_capacity(usize::try_from(self.len).unwrap_or(0));
        std::io::Read::read_to_end(&mut self.file.reopen()?, &mut bytes)?;
        Ok(bytes)
    }

    /// Streams `part` into a new temporary file, chunk by chunk as it arrives.
    async fn stream(
        name: String,
        mut part: axum::extract::multipart::Field<'_>,
    ) -> Result<Received, WebError> {
        use std::io::Write;
        let stored =
            |e: std::io::Error| WebError::internal(format!("upload to a temporary file: {e}"));
        // tempfile creates it with O_EXCL and mode 0600
        let mut file = tempfile::Builder::new()
            .prefix(".vigia-upload-")
            .tempfile()
            .map_err(stored)?;
        let mut len = 0u64;
        while let Some(chunk) = part.chunk().await.map_err(|_| incomplete())? {
            // (a write to the page cache: short, as the body limit bounds the whole)
            file.as_file_mut().write_all(&chunk).map_err(stored)?;
            len += chunk.len() as u64;
        }
        file.as_file_mut().flush().map_err(stored)?;
        Ok(Received { name, file, len })
    }
}

/// An upload that did not arrive whole.
fn incomplete() -> WebError {
    WebError::bad_request("El formulario no llegó completo; envíelo de nuevo con el archivo.")
}

/// The refusal of a form field that carries a character `input::text` refuses (a control
/// character, a direction override), naming the field; `None` for plain text. Every field of
/// every form goes through it: urlencoded ones in front of every route (`limits`), multipart ones
/// as [`read_upload`] reads them. The password is not quoted.
pub(super) fn hidden_in_field(name: &str, value: &str) -> Option<WebError> {
    let e = crate::input::text(value).err()?;
    let label = crate::input::escaped(name);
    Some(WebError::invalid(if name == "clave" {
        "La contraseña tiene un carácter de control: escríbala sin él.".to_string()
    } else {
        format!("El campo «{label}»: {}", e.said().es())
    }))
}

/// Reads a multipart form: its text fields (each through [`hidden_in_field`]) and its files.
pub(super) async fn read_upload(
    m: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Result<Upload, WebError> {
    let bad = incomplete;
    let mut m = m.map_err(|_| bad())?;
    let mut fields = Vec::new();
    let mut files = HashMap::new();
    while let Some(part) = m.next_field().await.map_err(|_| bad())? {
        let name = part.name().unwrap_or("").to_string();
        match part.file_name().map(str::to_string) {
            Some(file) => {
                let received = Received::stream(file, part).await?;
                // a file input left empty: the browser sends a part without name or bytes
                if !(received.name.is_empty() && received.len() == 0) {
                    files.insert(name, received);
                }
            }
            None => {
                let text = part.text().await.map_err(|_| bad())?;
                // the same refusal a urlencoded form's fields get in front of every route
                if let Some(e) = hidden_in_field(&name, &text) {
                    return Err(e);
                }
                fields.push((name, text));
            }
        }
    }
    Ok(Upload {
        fields: Sent(fields),
        files,
    })
}

/// A file's field labelled `label` (`accept`: the kinds of file offered), in Spanish whatever
/// the browser's language, without a script (the CSP allows none): the native control's button
/// is hidden, a label styled as a button, «Elegir archivo», opens the picker, and «Ningún
/// archivo elegido» shows until a file is chosen (the input is `required`, so the style sheet
/// tells an empty one by `:invalid`), then the browser's own text, the file's name. Its form is
/// `novalidate`: sent without a file, the server answers in Spanish, not the browser.
pub(super) fn file_field(label: &str, accept: Option<&str>) -> Markup {
    html! {
        div.campo {
            label for=(FILE) { (label) }
            span.archivo {
                input id=(FILE) name=(FILE) type="file" accept=[accept] required;
                label.boton for=(FILE) aria-hidden="true" { "Elegir archivo" }
                span.ninguno aria-hidden="true" { "Ningún archivo elegido" }
            }
        }
    }
}

/// An upload form: its token, `extra` inputs, the file input and the button.
pub(super) fn upload_form(
    user: &User,
    action: &str,
    file_label: &str,
    extra: Markup,
    button: &str,
) -> Markup {
    html! {
        form method="post" action=(action) enctype="multipart/form-data" novalidate {
            (csrf(user))
            (extra)
            (file_field(file_label, None))
            div.acciones { button type="submit" { (button) } }
        }
    }
}

#[cfg(test)]
mod tests {

    /// A multipart request as a browser sends an upload form: a token and a file of `bytes`.
    fn upload_request(bytes: &[u8]) -> axum::extract::Request {
        let mut body = Vec::new();
        body.extend_from_slice(
            b"--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nt0k3n\r\n\
              --XyZ\r\nContent-Disposition: form-data; name=\"archivo\"; filename=\"big.csv\"\r\n\
              Content-Type: text/csv\r\n\r\n",
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n--XyZ--\r\n");
        axum::http::Request::builder()
            .method("POST")
            .uri("/importar")
            .header("content-type", "multipart/form-data; boundary=XyZ")
            .body(axum::body::Body::from(body))
            .unwrap()
    }

    #[test]
    fn an_upload_is_written_to_a_private_temporary_file_removed_after_the_handler() {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(upload_to_a_file());
    }

    async fn upload_to_a_file() {
        use axum::extract::FromRequest;
        use std::os::unix::fs::PermissionsExt;
        // 1.5 MiB (under axum's default limit, which `pages` raises for the server): many times
        // a multipart chunk; bytes of every value, as a workbook has
        let bytes: Vec<u8> = (0..3u32 << 19).map(|i| (i * 7 % 251) as u8).collect();
        let m = Multipart::from_request(upload_request(&bytes), &()).await;
        let up = read_upload(m).await.unwrap();
        assert_eq!(up.fields.csrf(), Some("t0k3n"));
        let r = up.received().expect("the file input's file");
        assert_eq!((r.name.as_str(), r.len()), ("big.csv", bytes.len() as u64));
        let path = r.path().to_path_buf();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        assert!(meta.is_file());
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        assert_eq!(r.read().await.unwrap(), bytes);
        drop(up);
        assert!(!path.exists(), "removed with the upload");
    }
    use super::*;
    use crate::register::Field;
    use crate::said;

    /// Every field a refusal may name. The match makes a new variant a compile error here, so
    /// it cannot be left out of the test below.
    fn every_field() -> Vec<Field> {
        let all = vec![
            Field::Adjudication,
            Field::Payment,
            Field::Pledge,
            Field::AllowDuplicate,
            Field::Breach,
            Field::BreachKind,
            Field::BreachDate,
            Field::Shares,
            Field::ConsiderationPerShare,
            Field::ConsiderationTotal,
            Field::RegisteredOn,
            Field::PledgeRank,
            Field::Lender,
            Field::ReleaseDate,
            Field::PaymentDate,
            Field::PaymentAmount,
            Field::VoidReason,
            Field::SupersedeReason,
            Field::OfferOpens,
            Field::OfferCloses,
            Field::AdjudicationDate,
            Field::Stage,
            Field::Tranche,
            Field::StageOpens,
            Field::StageCloses,
            Field::Proposal,
            Field::ImprovedPrice,
            Field::DrawSeed,
            Field::StageDecisionDate,
            Field::Notice,
            Field::Program,
            Field::Settlement,
            Field::SettlementDate,
            Field::DeliveryDate,
            Field::DeliveryVia,
            Field::Evidence,
            Field::Holder,
            Field::DocType,
            Field::Address,
            Field::City,
            Field::Email,
            Field::NoticeDate,
            Field::Letterhead,
            Field::IssuerNit,
            Field::PaymentReference,
            Field::BackdateReason,
            Field::ExternalAwarded,
            Field::ActaReference,
            Field::CorrectionReason,
        ];
        for f in &all {
            match f {
                Field::Adjudication
                | Field::Payment
                | Field::Pledge
                | Field::AllowDuplicate
                | Field::Breach
                | Field::BreachKind
                | Field::BreachDate
                | Field::Shares
                | Field::ConsiderationPerShare
                | Field::ConsiderationTotal
                | Field::RegisteredOn
                | Field::PledgeRank
                | Field::Lender
                | Field::ReleaseDate
                | Field::PaymentDate
                | Field::PaymentAmount
                | Field::VoidReason
                | Field::SupersedeReason
                | Field::ValidityReason
                | Field::OfferOpens
                | Field::OfferCloses
                | Field::AdjudicationDate
                | Field::Stage
                | Field::Tranche
                | Field::StageOpens
                | Field::StageCloses
                | Field::Proposal
                | Field::ImprovedPrice
                | Field::DrawSeed
                | Field::StageDecisionDate
                | Field::Notice
                | Field::Program
                | Field::Settlement
                | Field::SettlementDate
                | Field::DeliveryDate
                | Field::DeliveryVia
                | Field::Evidence
                | Field::Holder
                | Field::DocType
                | Field::Address
                | Field::City
                | Field::Email
                | Field::NoticeDate
                | Field::Letterhead
                | Field::IssuerNit
                | Field::PaymentReference
                | Field::BackdateReason
                | Field::ExternalAwarded
                | Field::ActaReference
                | Field::CorrectionReason => {}
            }
        }
        all
    }

    /// How many times `needle` occurs in `hay`.
    fn times(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    /// The refusals a register may give about `f`, each with a reason naming the field's code.
    fn refusals_about(f: Field) -> Vec<Refusal> {
        let other = if f == Field::Lender {
            Field::Breach
        } else {
            Field::Lender
        };
        vec![
            Refusal::value(
                f,
                7i64,
                crate::lang::Said::new("x", format!("motivo sobre {}", f.as_str())),
            ),
            Refusal::Repeat {
                reason: crate::lang::Said::new("x", format!("repetido sobre {}", f.as_str())),
                with: f,
            },
            Refusal::OneOf(f, other),
        ]
    }

    #[test]
    fn a_refusal_of_every_field_is_shown_once_whatever_inputs_the_page_has() {
        for f in every_field() {
            for r in refusals_about(f) {
                let mut errors = Errors::default();
                errors.register(r.clone().into()).unwrap();
                let text = views::sentence(&views::refusal_text(&r));
                // a page with a general list but no input for the field: in the list
                let listed = errors
                    .placed(|| html! { h2 { "Pagos" } (errors.general()) p { "formulario" } })
                    .into_string();
                assert_eq!(times(&listed, &text), 1, "{f:?} {r:?}: {listed}");
                assert!(listed.find(&text) < listed.find("formulario"), "{listed}");
                // a page without a general list: above everything
                let bare = errors.placed(|| html! { p { "formulario" } }).into_string();
                assert_eq!(times(&bare, &text), 1, "{f:?} {r:?}: {bare}");
                assert!(
                    bare.starts_with("<p class=\"error\" role=\"alert\">"),
                    "{bare}"
                );
                // a page with the field's input: beside it, not in the list too
                let name = views::refusal_field(&r).map(Field::as_str).unwrap_or("");
                let beside = errors
                    .placed(|| {
                        html! {
                            (errors.general())
                            (views::input(name, "etiqueta", "", errors.get(name), None))
                        }
                    })
                    .into_string();
                assert_eq!(times(&beside, &text), 1, "{f:?} {r:?}: {beside}");
                assert!(
                    beside.contains(&format!("id=\"{name}-error\" role=\"alert\">{text}</p>")),
                    "{f:?} {r:?}: {beside}"
                );
            }
        }
    }

    #[test]
    fn general_refusals_and_unplaced_ones_are_listed_together_in_order() {
        let mut errors = Errors::default();
        errors.put(
            "payment_date",
            "falta: indique la fecha (dd/mm/aaaa)".into(),
        );
        errors.put("allow_duplicate", "el pago ya está registrado".into());
        errors
            .register(Refusal::Rule(said!("x", "nada que liberar")).into())
            .unwrap();
        let page = errors
            .placed(|| {
                html! {
                    (errors.general())
                    (views::input("payment_date", "Fecha del pago", "", errors.get("payment_date"), None))
                }
            })
            .into_string();
        assert_eq!(
            page,
            "<p class=\"error\" role=\"alert\">Nada que liberar.</p>\
             <p class=\"error\" role=\"alert\">El pago ya está registrado.</p>\
             <div class=\"campo con-error\"><label for=\"payment_date\">Fecha del pago</label>\
             <input id=\"payment_date\" name=\"payment_date\" type=\"text\" value=\"\">\
             <p class=\"error\" id=\"payment_date-error\" role=\"alert\">Falta: indique la fecha (dd/mm/aaaa).</p></div>"
        );
    }
}
