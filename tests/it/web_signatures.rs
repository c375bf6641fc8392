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
        page.contains("El documento coincide con el registro: texto, cifras y huella."),
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
