//! What traffic without an account can take from `vigia serve`, bounded (issue 24.3): the
//! connections (a cap below the file-descriptor limit, a share per client, a time to send the
//! headers of each request, the idle time between requests), the bodies (a small limit for every
//! form, the large one only for an upload by a session in force, both refused from the declared
//! length before anything is read, and a body that stalls is dropped) and the failed sign-ins of
//! each client, counted beside each account's lockout. Every form field is read through
//! `input::text` here, before any handler. The password checks' own bound is `auth`'s. Also the
//! one accept loop, over plain TCP or TLS, and HSTS under TLS.

use super::auth;
use super::{WebError, tls};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body::Frame;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The bounds of one server. [`Limits::default`] is what `vigia serve` uses unless told
/// otherwise (`--max-connections`, `--header-timeout`).
#[derive(Debug, Clone)]
pub struct Limits {
    /// The largest body of any request but an upload (a form, a sign-in): bytes.
    pub form_body: usize,
    /// The largest upload (an import file of a national offering is about 100 MB), accepted
    /// only on the upload routes from a session in force.
    pub upload_body: usize,
    /// How long a client has to send a request's headers, and how long a connection may wait
    /// idle for its next request.
    pub header_read: Duration,
    /// How long a body may go without a byte arriving.
    pub body_idle: Duration,
    /// Connections open at once; further clients wait in the system's queue, unaccepted, using
    /// no descriptor of this process. Lowered below the descriptor limit at start.
    pub max_connections: usize,
    /// Connections open at once from one address; one more is closed as soon as accepted.
    pub per_client_connections: usize,
    /// Failed sign-ins (every attempt that opens no session) one address may make in
    /// [`auth::CLIENT_WINDOW`]; past it, its attempts are refused unread.
    pub client_failures: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            form_body: 64 << 10,
            upload_body: 256 << 20,
            header_read: Duration::from_secs(10),
            body_idle: Duration::from_secs(30),
            max_connections: 512,
            per_client_connections: 64,
            client_failures: 20,
        }
    }
}

/// Descriptors kept free of connections: the register's files, the log, the key, a backup.
const SPARE_DESCRIPTORS: usize = 64;

/// The routes whose POST is an upload (multipart): the large body limit applies there, and only
/// for a session in force.
const UPLOADS: &[&str] = &["/importar", "/avisos/verificar", "/programas"];

/// Whether a POST to `path` is an upload: one of [`UPLOADS`], a program's acceptances file
/// (`/programas/{code}/aceptaciones`) or an acta to verify (`/programas/{code}/oferta/verificar`),
/// a later stage's proposals file or acta (`/programas/{code}/etapas/{n}/propuestas`,
/// `/programas/{code}/etapas/{n}/verificar`).
fn is_upload(path: &str) -> bool {
    UPLOADS.contains(&path)
        || path.strip_prefix("/programas/").is_some_and(|rest| {
            let parts: Vec<&str> = rest.split('/').collect();
            let code = |c: &str| !c.is_empty();
            match parts.as_slice() {
                [c, "aceptaciones"] | [c, "oferta", "verificar"] => code(c),
                [c, "etapas", n, "propuestas" | "verificar"] => {
                    code(c) && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
                }
                _ => false,
            }
        })
}

impl Limits {
    /// `max_connections` lowered to the process's descriptor limit less [`SPARE_DESCRIPTORS`]
    /// (read from `/proc/self/limits`; where it cannot be read, left as it is).
    pub fn within_descriptors(mut self) -> Limits {
        if let Some(soft) = descriptor_limit() {
            let room = soft.saturating_sub(SPARE_DESCRIPTORS).max(1);
            self.max_connections = self.max_connections.min(room);
        }
        self
    }
}

/// The soft limit on open files, as `/proc/self/limits` says it ("Max open files  1024  4096").
fn descriptor_limit() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// What the bounds share across connections.
pub(crate) struct Guards {
    pub(crate) limits: Limits,
    per_client: Mutex<HashMap<IpAddr, usize>>,
    hsts: bool,
}

impl Guards {
    pub(crate) fn new(limits: Limits, hsts: bool) -> Arc<Guards> {
        Arc::new(Guards {
            limits,
            per_client: Mutex::new(HashMap::new()),
            hsts,
        })
    }

    /// One more connection from `ip`, unless it has its share open already.
    fn connect(self: &Arc<Self>, ip: IpAddr) -> Option<ClientSlot> {
        let mut m = self.per_client.lock().unwrap_or_else(|p| p.into_inner());
        let n = m.entry(ip).or_insert(0);
        if *n >= self.limits.per_client_connections {
            return None;
        }
        *n += 1;
        Some(ClientSlot {
            guards: Arc::clone(self),
            ip,
        })
    }
}

/// A connection counted against its client's share until dropped.
struct ClientSlot {
    guards: Arc<Guards>,
    ip: IpAddr,
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut m = self
            .guards
            .per_client
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

/// The client's address, as the accept loop saw it (an extension of every request).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Client(pub IpAddr);

/// Accepts connections until the process is stopped, each served by hyper's HTTP/1.1 with the
/// header-read timeout, after its TLS handshake when `tls`.
pub(crate) async fn accept(
    listener: TcpListener,
    tls: Option<Arc<rustls::ServerConfig>>,
    router: axum::Router,
    guards: Arc<Guards>,
) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(guards.limits.max_connections));
    let acceptor = tls.map(tokio_rustls::TlsAcceptor::from);
    loop {
        // at the cap nothing is accepted: the system queues the next clients, no descriptor
        // of ours is spent on them
        let Ok(permit) = Arc::clone(&open).acquire_owned().await else {
            return Ok(());
        };
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // e.g. out of file descriptors: wait instead of spinning
                eprintln!("vigia serve: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Some(slot) = guards.connect(peer.ip()) else {
            drop(stream); // this client has its share open
            continue;
        };
        let router = router.clone();
        let guards = Arc::clone(&guards);
        let acceptor = acceptor.clone();
        tokio::spawn(async move {
            let _held = (permit, slot);
            match acceptor {
                None => serve_connection(stream, peer, router, &guards).await,
                Some(a) => {
                    if let Some(s) = tls::handshake(&a, stream).await {
                        serve_connection(s, peer, router, &guards).await;
                    }
                }
            }
        });
    }
}

async fn serve_connection<S>(stream: S, peer: SocketAddr, router: axum::Router, guards: &Guards)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let service =
        hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(Client(peer.ip()));
            let mut router = router.clone();
            async move {
                let req = req.map(Body::new);
                tower_service::Service::call(&mut router, req).await
            }
        });
    let served = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(guards.limits.header_read)
        .max_buf_size(guards.limits.form_body.max(8192))
        .keep_alive(true)
        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
        .await;
    // a client that went away or took too long is no error of the server's
    drop(served);
}

/// The layer in front of every route: the body's limit (from its declared length, unread, and
/// as it arrives), every form field through `input::text`, the per-client sign-in throttle, and
/// HSTS under TLS.
pub(crate) async fn bound(
    State((app, guards)): State<(Arc<super::App>, Arc<Guards>)>,
    req: Request,
    next: Next,
) -> Response {
    let mut r = bounded(&app, &guards, req, next).await;
    if guards.hsts {
        r.headers_mut().insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    r
}

async fn bounded(app: &Arc<super::App>, guards: &Guards, req: Request, next: Next) -> Response {
    let l = &guards.limits;
    let path = req.uri().path().to_string();
    let post = req.method() == Method::POST;
    let upload = post
        && is_upload(&path)
        && auth::cookie(req.headers(), auth::SESSION_COOKIE)
            .is_some_and(|t| app.sessions.is_live(&t));
    let limit = if upload { l.upload_body } else { l.form_body };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return too_large(limit, upload).into_response();
    }
    let client = req.extensions().get::<Client>().map(|c| c.0);
    let sign_in = post && path == "/ingresar";
    if sign_in
        && let Some(ip) = client
        && let Err(wait) = app.sessions.client_attempt(ip, l.client_failures)
    {
        return throttled(wait).into_response();
    }
    let (parts, body) = req.into_parts();
    let body = Body::new(Limited::new(body, limit, l.body_idle));
    let form = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let body = if post && form {
        // read here (at most `limit` bytes) to check every field before any handler sees it
        let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
            return WebError::invalid(
                "El formulario no llegó completo o es más grande de lo que vigia envía. Vuelva \
                 a la página, recárguela y envíelo de nuevo.",
            )
            .into_response();
        };
        if let Some(e) = hidden_in_form(&bytes) {
            return e.into_response();
        }
        Body::from(bytes)
    } else {
        body
    };
    let r = next.run(Request::from_parts(parts, body)).await;
    if sign_in
        && let Some(ip) = client
        && opens_session(&r)
    {
        app.sessions.client_signed_in(ip);
    }
    r
}

/// Whether a response sets a session cookie (a sign-in that succeeded).
fn opens_session(r: &Response) -> bool {
    let prefix = format!("{}=", auth::SESSION_COOKIE);
    r.headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|c| {
            c.strip_prefix(&prefix)
                .is_some_and(|v| !v.starts_with(';') && !v.is_empty())
        })
}

/// The first form field holding a character that is not plain text, refused as the imports
/// and the command line refuse it (a password is named, not quoted).
fn hidden_in_form(body: &Bytes) -> Option<WebError> {
    form_urlencoded::parse(body)
        .find_map(|(name, value)| super::form::hidden_in_field(&name, &value))
}

fn too_large(limit: usize, upload: bool) -> WebError {
    let mb = |n: usize| n.div_ceil(1 << 20);
    let message = if upload {
        format!(
            "El archivo es más grande de lo que vigia recibe ({} MB como máximo).",
            mb(limit)
        )
    } else {
        format!(
            "La solicitud es más grande de lo que vigia recibe aquí ({} KB como máximo; los \
             archivos se suben desde su formulario, con una sesión iniciada).",
            limit.div_ceil(1024)
        )
    };
    WebError {
        title: "Solicitud demasiado grande",
        ..WebError::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }
}

fn throttled(wait: Duration) -> Response {
    let minutes = wait.as_secs().div_ceil(60).max(1);
    let e = WebError {
        title: "Demasiados intentos",
        ..WebError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "Demasiados intentos fallidos de ingreso desde esta dirección: espere {minutes} \
                 minuto(s). Si olvidó la contraseña, un administrador le asigna una nueva."
            ),
        )
    };
    let mut r = e.into_response();
    if let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

/// A request body cut at `left` bytes, and failed when no byte arrives for `idle`.
struct Limited {
    inner: Body,
    left: usize,
    idle: Duration,
    sleep: Pin<Box<tokio::time::Sleep>>,
}

impl Limited {
    fn new(inner: Body, limit: usize, idle: Duration) -> Limited {
        Limited {
            inner,
            left: limit,
            idle,
            sleep: Box::pin(tokio::time::sleep(idle)),
        }
    }
}

#[derive(Debug)]
struct Cut(&'static str);

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Cut {}

impl http_body::Body for Limited {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    if data.len() > this.left {
                        return Poll::Ready(Some(Err(axum::Error::new(Cut(
                            "the body is larger than this route accepts",
                        )))));
                    }
                    this.left -= data.len();
                }
                let next = tokio::time::Instant::now() + this.idle;
                this.sleep.as_mut().reset(next);
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Pending => match this.sleep.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    Poll::Ready(Some(Err(axum::Error::new(Cut("the body stalled")))))
                }
                Poll::Pending => Poll::Pending,
            },
            other => other,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::is_upload;

    #[test]
    fn the_upload_routes_are_the_forms_that_send_a_file() {
        for path in [
            "/importar",
            "/programas/D3939-2004/aceptaciones",
            "/programas/D3939-2004/oferta/verificar",
            "/programas/D3939-2004/etapas/2/propuestas",
            "/programas/D3939-2004/etapas/3/verificar",
        ] {
            assert!(is_upload(path), "{path}");
        }
        for path in [
            "/programas//aceptaciones",
            "/programas/D3939-2004/etapas/2/concluir",
            "/programas/D3939-2004/etapas/x/propuestas",
            "/programas/D3939-2004/etapas/2/propuestas/confirmar",
            "/titulares",
        ] {
            assert!(!is_upload(path), "{path}");
        }
    }
}
