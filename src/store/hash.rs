//! The register's hash helpers: lower-case hex, the SHA-256 of bytes in memory, and of what a
//! reader gives, a chunk at a time (a file vigia wrote, compared with its record).

use sha2::{Digest, Sha256};

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of `data`, lower-case hex.
pub fn sha256_hex(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

/// The SHA-256 (lower-case hex) of what `r` reads, read a chunk at a time (a large acta is never
/// held in memory).
pub fn sha256_read(mut r: impl std::io::Read) -> std::io::Result<String> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return Ok(hex(&h.finalize())),
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}
