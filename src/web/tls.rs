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
    pub path: std::path::PathBuf,
    pub problem: TlsProblem,
}

/// What is wrong with the file: it cannot be read, or what it holds cannot serve HTTPS (said
/// in both languages, the command line words it in the run's).
#[derive(Debug)]
pub enum TlsProblem {
    Unreadable(std::io::Error),
    Unusable(crate::lang::Said),
}

impl std::fmt::Display for TlsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        match &self.problem {
            TlsProblem::Unreadable(e) => write!(f, "{} {path}: cannot read it ({e})", self.flag),
            TlsProblem::Unusable(why) => write!(f, "{} {path}: {}", self.flag, why.en()),
        }
    }
}

impl std::error::Error for TlsError {}

/// The server's TLS settings from a PEM certificate chain and a PEM private key (PKCS#8, PKCS#1
/// or SEC1), checked against each other before anyone is told to connect.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    let bad = |flag: &'static str, path: &Path, why: crate::lang::Said| TlsError {
        flag,
        path: path.to_path_buf(),
        problem: TlsProblem::Unusable(why),
    };
    let read = |flag: &'static str, path: &Path| {
        std::fs::read(path).map_err(|e| TlsError {
            flag,
            path: path.to_path_buf(),
            problem: TlsProblem::Unreadable(e),
        })
    };
    let cert_pem = read("--tls-cert", cert)?;
    let key_pem = read("--tls-key", key)?;
    let chain = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| bad("--tls-cert", cert, crate::said!(web::tls_not_pem_chain, e)))?;
    if chain.is_empty() {
        return Err(bad(
            "--tls-cert",
            cert,
            crate::said!(web::tls_no_certificate),
        ));
    }
    let private = PrivateKeyDer::from_pem_slice(&key_pem)
        .map_err(|e| bad("--tls-key", key, crate::said!(web::tls_no_private_key, e)))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| bad("--tls-cert", cert, crate::said!(web::tls_not_set_up, e)))?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| {
            let cert = cert.display();
            bad(
                "--tls-key",
                key,
                crate::said!(web::tls_key_not_of_cert, cert, e),
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
