//! HTTPS for `vigia serve --tls-cert FILE --tls-key FILE`: rustls (the `ring` provider, TLS 1.2
//! and 1.3, HTTP/1.1 by ALPN) in front of the same router. Each handshake runs in its
//! connection's own task (`limits::accept`), so a slow or silent client never holds up the
//! others; one that has not finished in 10 seconds is dropped.

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// How long a client has to finish the TLS handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Why the certificate or key cannot be used; each names the flag and the file.
#[derive(Debug)]
pub struct TlsError {
    pub flag: &'static str,
    pub path: String,
    pub reason: String,
}

impl std::fmt::Display for TlsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.flag, self.path, self.reason)
    }
}

impl std::error::Error for TlsError {}

/// The server's TLS settings from a PEM certificate chain and a PEM private key (PKCS#8, PKCS#1
/// or SEC1), checked against each other before anyone is told to connect.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    let bad = |flag: &'static str, path: &Path, reason: String| TlsError {
        flag,
        path: path.display().to_string(),
        reason,
    };
    let cert_pem = std::fs::read(cert).map_err(|e| {
        bad(
            "--tls-cert",
            cert,
            format!("cannot read it ({e}); check the path and its permissions"),
        )
    })?;
    let key_pem = std::fs::read(key).map_err(|e| {
        bad(
            "--tls-key",
            key,
            format!("cannot read it ({e}); check the path and its permissions"),
        )
    })?;
    let chain = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            bad(
                "--tls-cert",
                cert,
                format!("not a PEM certificate chain ({e})"),
            )
        })?;
    if chain.is_empty() {
        return Err(bad(
            "--tls-cert",
            cert,
            "no certificate in it (expected a PEM file with -----BEGIN CERTIFICATE-----)".into(),
        ));
    }
    let private = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| {
        bad(
            "--tls-key",
            key,
            format!("no usable PEM private key in it ({e})"),
        )
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad("--tls-cert", cert, e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| {
            bad(
                "--tls-key",
                key,
                format!("does not go with the certificate {} ({e})", cert.display()),
            )
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// The TLS handshake of one connection (in that connection's own task, so a slow or silent
/// client holds up no other); `None` when it fails or takes longer than [`HANDSHAKE`].
pub async fn handshake(
    acceptor: &TlsAcceptor,
    stream: tokio::net::TcpStream,
) -> Option<TlsStream<tokio::net::TcpStream>> {
    match tokio::time::timeout(HANDSHAKE, acceptor.accept(stream)).await {
        Ok(Ok(tls)) => Some(tls),
        _ => None,
    }
}
