//! English sentences of the web area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::web`, has the same functions).

pub fn no_longer_awaits_notice_one_was() -> String {
    "no longer awaits a notice (one was issued, or the fine was settled, since the list was shown)"
        .to_string()
}

pub fn not_whole_number_of_shares_write(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{s:?} is not a whole number of shares: write the shares, e.g. 1.000")
}

pub fn tls_not_pem_chain(e: &impl std::fmt::Display) -> String {
    format!("not a PEM certificate chain ({e})")
}

pub fn tls_no_certificate() -> String {
    "no certificate in it (expected a PEM file with -----BEGIN CERTIFICATE-----)".to_string()
}

pub fn tls_no_private_key(e: &impl std::fmt::Display) -> String {
    format!("no usable PEM private key in it ({e})")
}

pub fn tls_not_set_up(e: &impl std::fmt::Display) -> String {
    format!("TLS cannot be set up with it ({e})")
}

pub fn tls_key_not_of_cert(cert: &impl std::fmt::Display, e: &impl std::fmt::Display) -> String {
    format!("does not go with the certificate {cert} ({e})")
}
