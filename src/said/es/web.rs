//! Las frases en español del área web, una función por frase: los hechos que nombra
//! llegan como parámetros (el catálogo inglés, `said::en::web`, tiene las mismas funciones).

pub fn no_longer_awaits_notice_one_was() -> String {
    "ya no está pendiente de aviso (se emitió uno, o la multa se saldó, desde que se mostró la lista)".to_string()
}

pub fn not_whole_number_of_shares_write(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("«{s}» no es un número entero de acciones: escriba las acciones, p. ej. 1.000")
}

pub fn tls_not_pem_chain(e: &impl std::fmt::Display) -> String {
    format!("no es una cadena de certificados PEM ({e})")
}

pub fn tls_no_certificate() -> String {
    "no contiene ningún certificado (se espera un archivo PEM con -----BEGIN CERTIFICATE-----)"
        .to_string()
}

pub fn tls_no_private_key(e: &impl std::fmt::Display) -> String {
    format!("no contiene una clave privada PEM que se pueda usar ({e})")
}

pub fn tls_not_set_up(e: &impl std::fmt::Display) -> String {
    format!("no se puede preparar TLS con él ({e})")
}

pub fn tls_key_not_of_cert(cert: &impl std::fmt::Display, e: &impl std::fmt::Display) -> String {
    format!("no corresponde al certificado {cert} ({e})")
}
