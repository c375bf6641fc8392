//! Signatures on the web (issue 26 item 4): «Verificar aviso» checks a signed notice against the
//! register as the document vigia wrote and shows its signature's results, as `vigia notice
//! verify` does.

use crate::common::Reg;
use crate::notices::spec_register;
use crate::signatures::{PASSWORD as P12_PASSWORD, Pki, pki};
use crate::web::{Client, PASSWORD, Server, add_user};
use std::path::PathBuf;

/// The SPEC §5 register with a jurídico (julia) and an administrator (adela).
fn register() -> Reg {
    let r = spec_register();
    add_user(&r, "julia", "juridico");
    add_user(&r, "adela", "admin");
    r
}

/// The office's trust store: a directory with the test root.
fn trust_dir(r: &Reg, pki: &Pki) -> String {
    let trust = r.dir.path().join("confianza");
    std::fs::create_dir_all(&trust).unwrap();
    std::fs::write(trust.join("raiz.pem"), &pki.root_pem).unwrap();
    trust.to_str().unwrap().to_string()
}

/// MULTA-2025-0001 issued and signed by `vigia notice issue --sign`.
fn cli_signed_notice(r: &Reg, pki: &Pki) -> PathBuf {
    let p12 = r.file("firma.p12", &pki.p12);
    let path = r.dir.path().join("firmado.pdf");
    let o = r
        .command()
        .arg("--db")
        .arg(r.db())
        .args(["--officer", "tester", "notice", "issue", "1"])
        .args(["--until", "2025-02-10", "--date", "2025-02-11"])
        .args(["--reason", "fecha del caso de prueba"])
        .arg("--out")
        .arg(&path)
        .args(["--sign", &p12])
        .env("VIGIA_SIGN_PASSWORD", P12_PASSWORD)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", crate::common::err(&o));
    path
}

fn verify(c: &mut Client<'_>, csrf: &str, bytes: &[u8]) -> String {
    let r = c.upload("/avisos/verificar", &[("csrf", csrf)], ("aviso.pdf", bytes));
    assert_eq!(r.status, 200, "{}", r.text());
    r.text()
}

/// The signature's results as the page lists them (the `ul.firma` items).
fn signature_lines(page: &str) -> Vec<String> {
    let Some(start) = page.find("<ul class=\"firma\">") else {
        return Vec::new();
    };
    let end = start + page[start..].find("</ul>").unwrap();
    page[start..end]
        .split("<li>")
        .skip(1)
        .map(|li| li.trim_end_matches("</li>").to_string())
        .collect()
}

#[test]
fn a_notice_signed_on_the_command_line_verifies_on_the_web_with_its_signature_shown() {
    let r = register();
    let pki = pki((2025, 2090));
    let trust = trust_dir(&r, &pki);
    let path = cli_signed_notice(&r, &pki);
    let bytes = std::fs::read(&path).unwrap();
    let s = Server::start_env(&r, &[], &[("VIGIA_TRUST", &trust)]);
    let (mut j, csrf) = Client::signed_in(&s, "julia", PASSWORD);

    let page = verify(&mut j, &csrf, &bytes);
    // the register's checks ran on the revision vigia wrote: the file is the issued one
    assert!(
        page.contains(
            "El documento coincide con el registro: texto, cifras y huella; está vigente."
        ),
        "{page}"
    );
    assert!(page.contains("idéntico al archivo emitido (PDF"), "{page}");
    assert!(page.contains("La firma digital es válida."), "{page}");
    let lines = signature_lines(&page);
    assert!(
        lines[0].starts_with("firma de Laura Gómez Restrepo, firmada el "),
        "{lines:?}"
    );
    assert!(
        lines[0].ends_with(", motivo: Notificación de multa MULTA-2025-0001, en Colombia"),
        "{lines:?}"
    );
    assert_eq!(
        lines[1..4],
        [
            "bytes firmados: sin cambios desde la firma",
            "cobertura: todo el archivo salvo la firma misma",
            "firma: hecha con el certificado que nombra",
        ],
        "{lines:?}"
    );
    assert_eq!(
        lines[4],
        "cadena de certificados: encadena a un certificado de confianza de la oficina (VIGIA_TRUST)"
    );

    // the same file as the command line says it, line for line in Spanish
    let cli = r
        .command()
        .arg("--db")
        .arg(r.db())
        .args(["--lang", "es", "notice", "verify"])
        .arg(&path)
        .args(["--trust", &trust])
        .output()
        .unwrap();
    assert!(cli.status.success(), "{}", crate::common::err(&cli));
    let said = crate::common::out(&cli);
    for l in lines.iter().filter(|l| !l.starts_with("cadena")) {
        assert!(said.contains(l.as_str()), "{l:?} not in {said}");
    }

    // one byte of the signed revision changed: the signature no longer holds, and the page says
    // which result failed
    let mut tampered = bytes.clone();
    let at = tampered.windows(7).position(|w| w == b"stream\n").unwrap() + 20;
    tampered[at] ^= 0x01;
    let page = verify(&mut j, &csrf, &tampered);
    assert!(
        page.contains("La firma digital NO es válida (vea el detalle)."),
        "{page}"
    );
    // not the register's, whatever else holds: the outcome in the error's colour
    assert!(
        page.contains("<p class=\"error\" id=\"resultado\" role=\"alert\">"),
        "{page}"
    );
    // the reason in Spanish, as the command line says it in Spanish
    let lines = signature_lines(&page);
    let reason =
        "bytes firmados: NO VÁLIDO: los bytes firmados cambiaron: su resumen no es el firmado";
    assert_eq!(lines[1], reason, "{lines:?}");
    let bad = r.file("alterado.pdf", &tampered);
    let cli = r
        .command()
        .arg("--db")
        .arg(r.db())
        .args(["--lang", "es", "notice", "verify", &bad, "--trust", &trust])
        .output()
        .unwrap();
    assert_eq!(cli.status.code(), Some(1), "{}", crate::common::err(&cli));
    let said = crate::common::out(&cli);
    assert!(said.contains(&format!("    {reason}\n")), "{said}");
    assert!(
        !said.contains("FAILED") && !said.contains("changed"),
        "{said}"
    );
}

#[test]
fn without_vigia_trust_the_web_says_the_chain_is_not_checked_and_how_to_have_it_checked() {
    let r = register();
    let pki = pki((2025, 2090));
    let bytes = std::fs::read(cli_signed_notice(&r, &pki)).unwrap();
    let s = Server::start(&r);
    let (mut j, csrf) = Client::signed_in(&s, "julia", PASSWORD);
    let page = verify(&mut j, &csrf, &bytes);
    assert!(page.contains("La firma digital es válida."), "{page}");
    assert!(
        signature_lines(&page).contains(
            &"cadena de certificados: sin verificar: el servidor no tiene certificados de \
              confianza: inicie vigia serve con VIGIA_TRUST=DIR con la raíz de la entidad de \
              certificación"
                .to_string()
        ),
        "{page}"
    );
}

/// Every file under the test's directory that holds `needle` (the key file must be nowhere).
fn files_holding(dir: &std::path::Path, needle: &[u8]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        let t = e.file_type().unwrap();
        if t.is_dir() {
            found.extend(files_holding(&p, needle));
        } else if t.is_file() {
            let bytes = std::fs::read(&p).unwrap_or_default();
            if bytes.windows(needle.len()).any(|w| w == needle) {
                found.push(p);
            }
        }
    }
    found
}

/// The fields of «Firma digital»'s form, with the file when given.
fn load(c: &mut Client<'_>, csrf: &str, password: &str, p12: &[u8]) -> crate::web::Resp {
    c.upload(
        "/firma",
        &[("csrf", csrf), ("clave", password)],
        ("firma.p12", p12),
    )
}

/// Both validators accept the downloaded PDF, signed by the test signer, as the CLI's.
fn validators_accept(r: &Reg, name: &str, pdf: &[u8], pki: &Pki) {
    let path = r.dir.path().join(name);
    std::fs::write(&path, pdf).unwrap();
    let report = crate::signatures::pdfsig(&path);
    assert!(report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("Total document signed"), "{report}");
    assert!(report.contains("Laura Gómez Restrepo"), "{report}");
    let (ok, report) = crate::signatures::pyhanko(&path, &pki.root_pem);
    assert!(ok, "{report}");
}

#[test]
fn a_jurist_loads_a_certificate_for_the_session_and_issues_signed_notices_and_paz_y_salvo() {
    let r = crate::notices::spec_register_in(Reg::with_program_tail(
        "\n[signatures]\nrequired_for = [\"notices\", \"settlements\"]\n\
         signatories = [\"LAURA GOMEZ RESTREPO\"]\n",
    ));
    add_user(&r, "julia", "juridico");
    add_user(&r, "oscar", "oficial");
    let pki = pki((2025, 2090));
    let trust = trust_dir(&r, &pki);
    let s = Server::start_env(&r, &[], &[("VIGIA_TRUST", &trust)]);
    let (mut j, csrf) = Client::signed_in(&s, "julia", PASSWORD);

    // without a certificate the program's only-signed notices are not offered: the page says
    // where to load one
    let page = j.get("/incumplimientos/1").text();
    assert!(
        page.contains("id=\"sin-firma\"") && page.contains("<a href=\"/firma\">Firma digital</a>"),
        "{page}"
    );
    // an officer may not load one; a wrong password is refused with its reason, nothing kept
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(load(&mut o, &ocsrf, P12_PASSWORD, &pki.p12).status, 403);
    assert_eq!(load(&mut j, "otro", P12_PASSWORD, &pki.p12).status, 403);
    let wrong = load(&mut j, &csrf, "otra clave", &pki.p12);
    assert_eq!(wrong.status, 422);
    assert!(
        wrong
            .text()
            .contains("El archivo no abre con esa contraseña, o no es un PKCS#12"),
        "{}",
        wrong.text()
    );
    let loaded = load(&mut j, &csrf, P12_PASSWORD, &pki.p12);
    assert_eq!(loaded.status, 303, "{}", loaded.text());
    assert!(
        j.get("/firma").text().contains(
            "Certificado cargado para esta sesión: <strong>Laura Gómez Restrepo</strong>"
        )
    );
    // the officer's session holds none: the certificate is the session's, not the server's
    assert!(!o.get("/firma").text().contains("Certificado cargado"));
    // the menu leads a jurist there, not an officer (who may not sign)
    let menu = "<a href=\"/firma\">Firma digital</a><a href=\"/auditoria\">";
    assert!(j.get("/").text().contains(menu));
    assert!(!o.get("/").text().contains("href=\"/firma\""));
    // read into memory only: no file anywhere under the register's directory (its TMPDIR too)
    let needle = &pki.p12[pki.p12.len() - 48..];
    assert_eq!(files_holding(r.dir.path(), needle), Vec::<PathBuf>::new());

    // now the notice is offered and issued, then signed on its page
    let issued = j.post(
        "/incumplimientos/1/aviso",
        &[
            ("csrf", &csrf),
            ("notice_until", "10/02/2025"),
            ("notice_date", "11/02/2025"),
            ("backdate_reason", "fecha del caso de prueba"),
        ],
    );
    assert_eq!(issued.status, 303, "{}", issued.text());
    assert_eq!(issued.header("location"), Some("/avisos/1"));
    let notice_page = j.get("/avisos/1").text();
    assert!(
        notice_page.contains("action=\"/avisos/1/firmar\""),
        "{notice_page}"
    );
    assert_eq!(j.post("/avisos/1/firmar", &[]).status, 403);
    assert_eq!(o.post("/avisos/1/firmar", &[("csrf", &ocsrf)]).status, 403);
    let signed = j.post("/avisos/1/firmar", &[("csrf", &csrf)]);
    assert_eq!(signed.status, 200, "{}", signed.text());
    assert_eq!(signed.header("content-type"), Some("application/pdf"));
    validators_accept(&r, "aviso-firmado.pdf", &signed.body, &pki);
    // «Verificar aviso» finds it the file vigia wrote, signed by an authorised signatory
    let page = verify(&mut j, &csrf, &signed.body);
    assert!(
        page.contains("El documento coincide con el registro"),
        "{page}"
    );
    assert!(page.contains("La firma digital es válida."), "{page}");
    let lines = signature_lines(&page);
    assert!(
        lines.contains(&"firmante: uno de los firmantes autorizados del programa".to_string()),
        "{lines:?}"
    );
    assert!(
        lines[0].contains("motivo: Notificación de multa MULTA-2025-0001"),
        "{lines:?}"
    );

    // the fine paid: its paz y salvo, issued and signed the same way
    crate::notices::pay_in_full(&r);
    let issued = j.post(
        "/incumplimientos/1/paz-y-salvo",
        &[("csrf", &csrf), ("settlement_date", "11/02/2025")],
    );
    assert_eq!(issued.status, 303, "{}", issued.text());
    assert_eq!(issued.header("location"), Some("/paz-y-salvo/1"));
    let signed = j.post("/paz-y-salvo/1/firmar", &[("csrf", &csrf)]);
    assert_eq!(signed.status, 200, "{}", signed.text());
    validators_accept(&r, "paz-firmado.pdf", &signed.body, &pki);
    let page = verify(&mut j, &csrf, &signed.body);
    assert!(
        page.contains("El documento coincide con el registro"),
        "{page}"
    );
    assert!(page.contains("La firma digital es válida."), "{page}");

    // signed out, the certificate is gone with the session
    assert_eq!(j.post("/salir", &[("csrf", &csrf)]).status, 303);
    let (mut j, csrf) = Client::signed_in(&s, "julia", PASSWORD);
    assert!(!j.get("/firma").text().contains("Certificado cargado"));
    let refused = j.post("/avisos/1/firmar", &[("csrf", &csrf)]);
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert!(refused.text().contains("No hay un certificado cargado"));
}

#[test]
fn a_certificate_kept_on_the_server_is_read_only_owner_only_and_unlocked_by_its_password() {
    use std::os::unix::fs::PermissionsExt;
    let r = register();
    let pki = pki((2025, 2090));
    let keys = r.dir.path().join("claves");
    std::fs::create_dir(&keys).unwrap();
    let key = keys.join("julia.p12");
    std::fs::write(&key, &pki.p12).unwrap();
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let s = Server::start_env(&r, &[], &[("VIGIA_SIGN_KEYS", keys.to_str().unwrap())]);
    let (mut j, csrf) = Client::signed_in(&s, "julia", PASSWORD);
    let page = j.get("/firma").text();
    assert!(page.contains("<code>julia.p12</code>"), "{page}");
    assert!(!page.contains("type=\"file\""), "{page}");
    // the page's form: multipart, without a file
    let sent = |c: &mut Client<'_>, password: &str| load(c, &csrf, password, b"");
    let refused = sent(&mut j, P12_PASSWORD);
    assert_eq!(refused.status, 422);
    assert!(
        refused.text().contains("(permisos 644)"),
        "{}",
        refused.text()
    );
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(sent(&mut j, "otra clave").status, 422);
    assert_eq!(sent(&mut j, P12_PASSWORD).status, 303);
    assert!(
        j.get("/firma").text().contains(
            "Certificado cargado para esta sesión: <strong>Laura Gómez Restrepo</strong>"
        )
    );
    // an account with no key file there is told so
    add_user(&r, "adela2", "admin");
    let (mut a, acsrf) = Client::signed_in(&s, "adela2", PASSWORD);
    let none = load(&mut a, &acsrf, P12_PASSWORD, b"");
    assert_eq!(none.status, 422);
    assert!(
        none.text()
            .contains("El servidor no guarda un certificado de su cuenta"),
        "{}",
        none.text()
    );
}

/// A program that issues its notices only signed gets them as a batch too when the session
/// holds a certificate: the pending list offers them, and the batch's zip carries each PDF
/// signed (both validators accept it); once the certificate is dropped the zip is refused
/// rather than handing out unsigned copies.
#[test]
fn a_batch_of_only_signed_notices_is_issued_and_downloaded_signed_with_the_sessions_certificate() {
    let r = crate::notices::spec_register_in(Reg::with_program_tail(
        "\n[signatures]\nrequired_for = [\"notices\", \"settlements\"]\n\
         signatories = [\"LAURA GOMEZ RESTREPO\"]\n",
    ));
    add_user(&r, "julia", "juridico");
    let pki = pki((2025, 2090));
    let s = Server::start(&r);
    let (mut j, csrf) = Client::signed_in(&s, "julia", PASSWORD);
    let list = "/avisos/pendientes?notice_until=10/02/2025";
    assert!(
        !j.get(list).text().contains("Emitir"),
        "no certificate: not offered"
    );
    assert_eq!(load(&mut j, &csrf, P12_PASSWORD, &pki.p12).status, 303);
    let t = j.get(list).text();
    assert!(t.contains("Emitir"), "{t}");
    assert!(!t.contains("solo firmados"), "{t}");
    let issued = j.post(
        "/avisos/pendientes",
        &[
            ("csrf", csrf.as_str()),
            ("notice_until", "10/02/2025"),
            ("notice_date", "11/02/2025"),
            ("backdate_reason", "fecha del caso de prueba"),
            ("breach", "1"),
        ],
    );
    assert_eq!(issued.status, 303, "{}", issued.text());
    assert_eq!(issued.header("location"), Some("/avisos/lote/1/1"));
    let page = j.get("/avisos/lote/1/1").text();
    assert!(page.contains("firmados con su certificado"), "{page}");
    let z = j.get("/avisos/lote/1/1/documentos.zip");
    assert_eq!(z.status, 200, "{}", z.text());
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(z.body.clone())).unwrap();
    let mut pdf = Vec::new();
    std::io::Read::read_to_end(&mut zip.by_name("MULTA-2025-0001.pdf").unwrap(), &mut pdf).unwrap();
    validators_accept(&r, "lote-firmado.pdf", &pdf, &pki);
    // the register knows the file: «Verificar aviso» finds it the one vigia wrote, signed
    let v = verify(&mut j, &csrf, &pdf);
    assert!(v.contains("El documento coincide con el registro"), "{v}");
    assert!(v.contains("La firma digital es válida."), "{v}");
    // without the certificate the zip is refused, not handed out unsigned
    assert_eq!(j.post("/firma/quitar", &[("csrf", &csrf)]).status, 303);
    let refused = j.get("/avisos/lote/1/1/documentos.zip");
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert!(
        refused.text().contains("Firma digital"),
        "{}",
        refused.text()
    );
}
