//! The later stages in the browser (issue 22, item 2): `/programas/{code}/etapas/{n}` driven over
//! HTTP as officers would: a tranche opened (its window checked by the register), a file of
//! proposals reviewed row by row then imported, a tie's invitation to improve, the draw with the
//! recomputation anyone can repeat, the adjudication after a preview naming its consequences,
//! the stage price it records, and the stage acta downloaded and verified — each refusal beside
//! the button that caused it, each write refused to a role below it or without the CSRF token.
//!
//! The register runs the first stage of D3939-2004 from the demo's acceptances by the CLI (as
//! `stages.rs` does): it leaves 12,886,682 shares to the Second Stage.

use crate::common::Reg;
use crate::web::{Client, PASSWORD, Server, add_user};

const STAGE: &str = "/programas/D3939-2004/etapas/2";
const BLOCK: &str = "12886682";
const HEADER: &str = "proposal,filed_at,bidders,beneficial_owner,shares,price_per_share,term_days,guarantee,funds_accredited,review\n";
const REASON: &str = "venta ficticia de 2024 bajo el decreto de 2004 (pruebas)";

/// The first stage adjudicated on 15/03/2024 by the CLI, and one account per role.
fn after_first_stage() -> Reg {
    let r = crate::stages::first_stage_adjudicated(REASON);
    for (name, role) in [
        ("carla", "consulta"),
        ("oscar", "oficial"),
        ("julia", "juridico"),
        ("adela", "admin"),
    ] {
        add_user(&r, name, role);
    }
    r
}

/// A proposal line for the whole block.
fn line(reference: &str, bidders: &str, price: &str) -> String {
    format!("{reference},2024-06-10,{bidders},,{BLOCK},{price},0,500000000,si,\n")
}

/// The text of the refusal shown next to the input `name`, if any.
fn error_beside(page: &str, name: &str) -> Option<String> {
    let open = format!("id=\"{name}-error\" role=\"alert\">");
    let start = page.find(&open)? + open.len();
    let len = page[start..].find("</p>")?;
    Some(page[start..start + len].to_string())
}

/// What the page shows inside the element `id` (up to its first `</div>`): the button's row.
fn inside<'p>(page: &'p str, id: &str) -> &'p str {
    let open = format!("id=\"{id}\"");
    let start = page
        .find(&open)
        .unwrap_or_else(|| panic!("no #{id} in {page}"));
    let len = page[start..].find("</div>").unwrap();
    &page[start..start + len]
}

fn count(r: &Reg, table: &str) -> i64 {
    r.conn()
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |x| x.get(0))
        .unwrap()
}

fn tranche(csrf: &str, reason: &str) -> Vec<(&'static str, String)> {
    vec![
        ("csrf", csrf.to_string()),
        ("tranche", "1".into()),
        ("shares", "12.886.682".into()),
        ("stage_opens", "03/06/2024".into()),
        ("stage_closes", "14/06/2024".into()),
        ("validity_reason", reason.into()),
    ]
}

fn post(c: &mut Client<'_>, path: &str, fields: &[(&str, String)]) -> crate::web::Resp {
    let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    c.post(path, &f)
}

#[test]
fn a_second_stage_runs_in_the_browser_from_its_tranche_to_its_verified_acta() {
    let r = after_first_stage();
    let s = Server::start(&r);
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    let (mut j, jcsrf) = Client::signed_in(&s, "julia", PASSWORD);
    let (mut a, acsrf) = Client::signed_in(&s, "adela", PASSWORD);

    // the program's page links its stages; the stage page shows what the first stage left:
    // 12,960,982 − 74,300 = 12,886,682 shares (stages.rs)
    let prog = c.get("/programas/D3939-2004").text();
    assert!(
        prog.contains("href=\"/programas/D3939-2004/etapas/2\"")
            && prog.contains("href=\"/programas/D3939-2004/etapas/3\""),
        "{prog}"
    );
    let t = c.get(STAGE);
    assert_eq!(t.status, 200);
    let t = t.text();
    assert!(
        t.contains("12.886.682") && t.contains("concluyó el 15/03/2024"),
        "{t}"
    );
    // the reader is offered no write
    assert!(
        !t.contains("Abrir el tramo") && !t.contains("/concluir"),
        "{t}"
    );
    // no stage 4, and a program's stage by a number that is none: no page
    assert_eq!(c.get("/programas/D3939-2004/etapas/4").status, 404);
    assert_eq!(c.get("/programas/D3939-2004/etapas/x").status, 404);

    // the tranche: an oficial may not open it, nor anyone without the session's token
    let path = format!("{STAGE}/tramos");
    assert_eq!(post(&mut o, &path, &tranche(&ocsrf, REASON)).status, 403);
    assert_eq!(post(&mut a, &path, &tranche("x", REASON)).status, 403);
    assert!(a.get(STAGE).text().contains("Abrir el tramo 1"));
    // 2024 is outside the 2004 program's validity (art. 28): the reason, beside its input
    let t = post(&mut a, &path, &tranche(&acsrf, ""));
    assert_eq!(t.status, 422, "{}", t.text());
    assert!(
        error_beside(&t.text(), "validity_reason").is_some(),
        "{}",
        t.text()
    );
    // more shares than the stage has: beside the shares, what typed shown again
    let mut more = tranche(&acsrf, REASON);
    more[2].1 = "12.886.683".into();
    let t = post(&mut a, &path, &more).text();
    let e = error_beside(&t, "shares").unwrap_or_else(|| panic!("{t}"));
    assert!(e.contains("12.886.682"), "{e}");
    assert!(t.contains("value=\"12.886.683\""), "{t}");
    assert_eq!(
        count(&r, "stage_tranches"),
        0,
        "nothing written by a refusal"
    );
    let done = post(&mut a, &path, &tranche(&acsrf, REASON));
    assert_eq!(done.status, 303, "{}", done.text());
    assert_eq!(done.header("location"), Some(STAGE));
    let t = c.get(STAGE).text();
    // the minimum price is the first stage's: $ 963 (stages.rs)
    assert!(
        t.contains("03/06/2024") && t.contains("14/06/2024") && t.contains("$\u{a0}963"),
        "{t}"
    );

    // the proposals' file: reviewed row by row, nothing written, then imported
    let up = format!("{STAGE}/propuestas");
    assert_eq!(c.get(&up).status, 403);
    let tied = format!(
        "{HEADER}{}{}{}",
        line("P-3", "CC:1000000101:Uno (PRUEBA)", "1100"),
        line("P-12", "CC:1000000102:Dos (PRUEBA)", "1100"),
        line("P-07", "CC:1000000103:Tres (PRUEBA)", "1100"),
    );
    let bad = format!(
        "{tied}{}",
        line("P-9", "CC:1000000104:Cuatro (PRUEBA)", "mil")
    );
    // the form names the columns in Spanish, as an officer's file heads them
    let form = o.get(&up).text();
    assert!(
        form.contains(
            "Propuesta; Fecha radicación; Proponentes; Acciones; Precio por acción; Plazo días"
        ) && form.contains("Beneficiario real; Garantía; Fondos acreditados; Revisión; Tramo"),
        "{form}"
    );
    let t = o.upload(&up, &[("csrf", &ocsrf)], ("p.csv", bad.as_bytes()));
    assert_eq!(t.status, 422, "{}", t.text());
    let t = t.text();
    // line 5 (the header is line 1) named, and the good rows shown as read
    assert!(
        t.contains("tiene 1 problema") && t.contains("<td class=\"num\">5</td>"),
        "{t}"
    );
    assert!(
        t.contains("Las filas como se leyeron") && t.contains("CC 1000000103</span> Tres (PRUEBA)"),
        "{t}"
    );
    // the problems' headings capitalised as every table's; a row's problems beside its
    // reference, in view without scrolling past a dozen columns
    assert!(
        t.contains(
            "<th class=\"num\" scope=\"col\">Línea</th><th scope=\"col\">Columna</th><th \
             scope=\"col\">Valor</th><th scope=\"col\">Problema</th>"
        ),
        "{t}"
    );
    // line 5 could not be read: the rows shown have no problem, and no empty column for them
    assert!(
        !t.contains("problemas-linea") && !t.contains(">Problemas<"),
        "{t}"
    );
    // a row read for a tranche not open: its problem beside its reference, in view
    let tranche_2 = format!(
        "{},tranche\n{},2\n",
        HEADER.trim_end(),
        line("P-3", "CC:1000000101:Uno (PRUEBA)", "1100").trim_end()
    );
    let t = o.upload(&up, &[("csrf", &ocsrf)], ("p.csv", tranche_2.as_bytes()));
    assert_eq!(t.status, 422, "{}", t.text());
    let t = t.text();
    assert!(
        t.contains("<th scope=\"col\">Propuesta</th><th scope=\"col\">Problemas</th>")
            && t.contains(
                "<td class=\"num\">2</td><td>P-3</td><td class=\"problemas-linea\">tranche «2»: "
            ),
        "{t}"
    );
    assert_eq!(
        c.upload(&up, &[("csrf", &ccsrf)], ("p.csv", tied.as_bytes()))
            .status,
        403
    );
    let review = o.upload(&up, &[("csrf", &ocsrf)], ("p.csv", tied.as_bytes()));
    assert_eq!(review.status, 200, "{}", review.text());
    let t = review.text();
    assert!(
        t.contains("3 propuestas por agregar") && t.contains("$\u{a0}1.100"),
        "{t}"
    );
    assert_eq!(count(&r, "proposals"), 0);
    let token = {
        let i = t.find("name=\"token\" value=\"").unwrap() + 20;
        t[i..i + 64].to_string()
    };
    let done = o.post(
        &format!("{up}/confirmar"),
        &[("csrf", &ocsrf), ("token", &token)],
    );
    assert_eq!(done.status, 200, "{}", done.text());
    assert!(
        done.text().contains("3 propuestas agregadas"),
        "{}",
        done.text()
    );
    assert_eq!(count(&r, "proposals"), 3);

    // the evaluation: three tied at $ 1.100 = 1.100,00 of present value at 20,56 % EA
    let t = c.get(STAGE).text();
    assert!(
        t.contains("Empate en el mejor valor entre P-3, P-12, P-07") && t.contains("20,56"),
        "{t}"
    );
    // adjudicating a tie is refused beside the button that asked
    let conclude = format!("{STAGE}/concluir");
    let ask = |csrf: &str, on: &str, action: &str| {
        vec![
            ("csrf", csrf.to_string()),
            ("stage_decision_date", on.to_string()),
            ("accion", action.to_string()),
        ]
    };
    let t = post(
        &mut a,
        &conclude,
        &ask(&acsrf, "28/06/2024", "vista-adjudicar"),
    );
    assert_eq!(t.status, 422, "{}", t.text());
    let t = t.text();
    let beside = inside(&t, "decidir");
    assert!(
        beside.contains("Vista previa de la adjudicación")
            && beside.contains("hay empate en el mejor valor entre P-3, P-12, P-07"),
        "{beside}"
    );
    // only the administrator concludes
    assert_eq!(
        post(
            &mut j,
            &conclude,
            &ask(&jcsrf, "28/06/2024", "vista-adjudicar")
        )
        .status,
        403
    );

    // the invitation to improve: P-12 answers with its own price, recorded and not counted
    let improve = format!("{STAGE}/mejoras");
    let answer = |csrf: &str, p: &str, price: &str| {
        vec![
            ("csrf", csrf.to_string()),
            ("proposal", p.to_string()),
            ("improved_price", price.to_string()),
        ]
    };
    assert_eq!(
        post(&mut c, &improve, &answer(&ccsrf, "P-12", "1.100")).status,
        403
    );
    let t = post(&mut o, &improve, &answer(&ocsrf, "P-12", "1.100"));
    assert_eq!(t.status, 200, "{}", t.text());
    assert!(
        t.text()
            .contains("no supera su precio original de $\u{a0}1.100"),
        "{}",
        t.text()
    );
    // once per bidder: refused beside the proposal it names
    let t = post(&mut o, &improve, &answer(&ocsrf, "P-12", "1.200"));
    assert_eq!(t.status, 422);
    let e = error_beside(&t.text(), "proposal").unwrap_or_else(|| panic!("{}", t.text()));
    assert!(
        e.contains("ya respondió la invitación con $\u{a0}1.100"),
        "{e}"
    );
    // a file after the invitation is refused before a row is read: its rows are still shown
    let late = format!(
        "{HEADER}{}",
        line("P-20", "CC:1000000104:Cuatro (PRUEBA)", "1300")
    );
    let t = o.upload(&up, &[("csrf", &ocsrf)], ("late.csv", late.as_bytes()));
    assert_eq!(t.status, 422, "{}", t.text());
    let t = t.text();
    assert!(
        t.contains("tiene 1 problema")
            && t.contains("Las filas como se leyeron")
            && t.contains("CC 1000000104</span> Cuatro (PRUEBA)")
            && t.contains("P-20"),
        "{t}"
    );
    assert_eq!(count(&r, "proposals"), 3, "nothing written");

    // the draw: by an administrator; a seed with '|' refused beside it
    let draw = format!("{STAGE}/sorteo");
    let seed = |csrf: &str, seed: &str| {
        vec![
            ("csrf", csrf.to_string()),
            ("tranche", "1".to_string()),
            ("draw_seed", seed.to_string()),
        ]
    };
    assert_eq!(post(&mut o, &draw, &seed(&ocsrf, "x")).status, 403);
    let t = post(&mut a, &draw, &seed(&acsrf, "a|b"));
    assert_eq!(t.status, 422);
    assert!(
        error_beside(&t.text(), "draw_seed").is_some_and(|e| e.contains("sin «|»")),
        "{}",
        t.text()
    );
    // worked by hand in stages.rs: sorted P-07, P-12, P-3; sha256 of
    // "baloto-2025-03-20|D3939-2004|2|1|P-07,P-12,P-3" = 23f61e2b…; its first 8 bytes are
    // 2591291808887223693, a multiple of 3: place 0, P-07, wins
    let t = post(&mut a, &draw, &seed(&acsrf, "baloto-2025-03-20"));
    assert_eq!(t.status, 200, "{}", t.text());
    let t = t.text();
    for want in [
        "baloto-2025-03-20|D3939-2004|2|1|P-07,P-12,P-3",
        "23f61e2bc21a358dd0252228198ed92df6fd0a7881d16a80faeb53c908743ab2",
        // the catalogue's words, as the command line's `stage draw` says them («mód», not «mod»)
        "2591291808887223693 mód 3 = 0: gana <strong>P-07</strong>",
        "del tramo 1: 2591291808887223693 mód 3 = 0; gana la propuesta P-07",
        "Recalculado desde el registro: coincide",
        "printf %s",
    ] {
        assert!(t.contains(want), "{want} in {t}");
    }
    // the reader sees the same recomputation
    assert!(
        c.get(STAGE)
            .text()
            .contains("Recalculado desde el registro: coincide")
    );

    // the adjudication: on the window's last day refused beside the date
    let t = post(
        &mut a,
        &conclude,
        &ask(&acsrf, "14/06/2024", "vista-adjudicar"),
    );
    assert_eq!(t.status, 422);
    assert!(
        error_beside(&t.text(), "stage_decision_date").is_some_and(|e| e.contains("14/06/2024")),
        "{}",
        t.text()
    );
    let t = post(
        &mut a,
        &conclude,
        &ask(&acsrf, "28/06/2024", "vista-adjudicar"),
    );
    assert_eq!(t.status, 200, "{}", t.text());
    let t = t.text();
    // Friday 28/06/2024; Monday 1/07 is a holiday: payment due Tuesday 02/07/2024 (Art. 14 c);
    // the stage price is the one tranche's price, $ 1.100
    assert!(
        t.contains("Vista previa (nada se ha escrito)")
            && t.contains("02/07/2024")
            && t.contains("<strong>$\u{a0}1.100 por acción</strong>")
            && t.contains("art. 9 (iii)")
            && t.contains("decidida por el sorteo N.º 1"),
        "{t}"
    );
    assert_eq!(
        count(&r, "stage_conclusions"),
        0,
        "a preview writes nothing"
    );
    let fingerprint = {
        let i = t.find("name=\"huella\" value=\"").unwrap() + 21;
        t[i..i + 64].to_string()
    };
    let mut stale = ask(&acsrf, "28/06/2024", "adjudicar");
    stale.push(("huella", "0".repeat(64)));
    assert_eq!(post(&mut a, &conclude, &stale).status, 409);
    assert_eq!(count(&r, "stage_conclusions"), 0);
    let mut confirm = ask(&acsrf, "28/06/2024", "adjudicar");
    confirm.push(("huella", fingerprint));
    let done = post(&mut a, &conclude, &confirm);
    assert_eq!(done.status, 303, "{}", done.text());
    // the stage price it recorded, as the CLI reads it
    assert_eq!(
        r.json(&["program", "show", "D3939-2004", "--format", "json"])["stage_price"],
        "1100"
    );
    let t = c.get(STAGE).text();
    assert!(
        t.contains("Precio de la Segunda Etapa (registro N.º 1): $\u{a0}1.100 por acción")
            && t.contains("adjudicada el 28/06/2024")
            && t.contains("P-07"),
        "{t}"
    );
    // concluded: nothing more is offered
    assert!(!a.get(STAGE).text().contains("/concluir\""));
    // the file imported before, again: the stage is concluded, said (not "ya se importó" alone)
    let again = o.upload(&up, &[("csrf", &ocsrf)], ("p.csv", tied.as_bytes()));
    assert_eq!(again.status, 422, "{}", again.text());
    let t = again.text();
    assert!(
        t.contains(
            "la Segunda Etapa de D3939-2004 fue adjudicada el 28/06/2024 (art. 3: la etapa se \
             agotó); no puede hacerse nada más en ella"
        ) && !t.contains("ya se importó"),
        "{t}"
    );
    let e = r.fails(&[
        "proposals",
        "import",
        &r.file("p.csv", tied.as_bytes()),
        "--program",
        "D3939-2004",
        "--stage",
        "2",
    ]);
    assert!(e.contains("adjudicated on 2024-06-28"), "{e}");

    // the acta: downloaded by the reader, verified by the CLI and by the page
    let md = c.get(&format!("{STAGE}/acta.md"));
    assert_eq!(md.status, 200);
    assert_eq!(
        md.header("content-disposition"),
        Some("attachment; filename=\"acta-D3939-2004-etapa-2-1.md\"")
    );
    // the downloads, sent from the files they were rendered into, are the command line's actas
    r.ok(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "cli.md",
    ]);
    assert!(md.body == std::fs::read(r.dir.path().join("cli.md")).unwrap());
    let path = r.file("acta.md", &md.body);
    assert!(
        r.ok(&["stage", "verify", &path])
            .starts_with("verified: acta of stage 2 of D3939-2004"),
    );
    let pdf = c.get(&format!("{STAGE}/acta.pdf"));
    assert!(pdf.body.starts_with(b"%PDF"));
    r.ok(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "cli.pdf",
    ]);
    assert!(pdf.body == std::fs::read(r.dir.path().join("cli.pdf")).unwrap());
    let verify = format!("{STAGE}/verificar");
    // the verdict is shown under the form: the answer page opens there, not at its top
    let page = c.get(STAGE).text();
    assert!(
        page.contains(&format!("action=\"{verify}#acta\"")),
        "{page}"
    );
    // the HTML acta too, offered beside the others, as `stage acta --out cli.html` writes it
    assert!(
        page.contains(&format!("href=\"{STAGE}/acta.html\"")),
        "{page}"
    );
    let html = c.get(&format!("{STAGE}/acta.html"));
    assert_eq!(
        html.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    r.ok(&[
        "stage",
        "acta",
        "D3939-2004",
        "--stage",
        "2",
        "--out",
        "cli.html",
    ]);
    assert!(html.body == std::fs::read(r.dir.path().join("cli.html")).unwrap());
    for (name, body) in [
        ("acta.md", &md.body),
        ("acta.pdf", &pdf.body),
        ("acta.html", &html.body),
    ] {
        let t = c.upload(&verify, &[("csrf", &ccsrf)], (name, body)).text();
        assert!(
            t.contains("Verificada.") && t.contains("conclusión N.º 1 de la Segunda Etapa"),
            "{t}"
        );
    }
    // «Verificar aviso» given the acta: refused, pointing to the stage page's form and to
    // `stage verify`; the command line's `notice verify` says the same (exit 2)
    for (name, body) in [("acta.md", &md.body), ("acta.pdf", &pdf.body)] {
        let t = c
            .upload("/avisos/verificar", &[("csrf", &ccsrf)], (name, body))
            .text();
        for expected in [
            "Motivo: es el acta de la Segunda Etapa del programa D3939-2004, no un aviso de cobro \
             ni un paz y salvo: las actas se verifican contra los registros de su etapa, en la web \
             en la página de la etapa («Verificar el acta»).",
            "<a id=\"verificar-acta\" href=\"/programas/D3939-2004/etapas/2#acta\">Verificar el \
             acta en la página de la Segunda Etapa del programa</a>",
        ] {
            assert!(t.contains(expected), "{expected} in {t}");
        }
    }
    // an acta naming a program this register does not hold: refused as that program unknown,
    // with no link to a page that does not exist
    let other = md
        .text()
        .replace("Programa: D3939-2004", "Programa: OTRO-2030");
    assert_ne!(
        other,
        md.text(),
        "the acta names its program on a «Programa:» line"
    );
    let t = c
        .upload(
            "/avisos/verificar",
            &[("csrf", &ccsrf)],
            ("acta.md", other.as_bytes()),
        )
        .text();
    assert!(
        t.contains("OTRO-2030") && !t.contains("verificar-acta"),
        "{t}"
    );
    let e = r.fails(&[
        "notice",
        "verify",
        &r.file("acta-otro.md", other.as_bytes()),
    ]);
    assert!(
        e.contains("OTRO-2030") && !e.contains("stage verify"),
        "{e}"
    );
    let e = r.fails(&["notice", "verify", &r.file("acta-etapa.pdf", &pdf.body)]);
    assert!(
        e.contains("it is the acta of the Second Stage of program D3939-2004")
            && e.contains("; on the command line: `vigia stage verify FILE`"),
        "{e}"
    );
    // in Spanish, all of it in Spanish
    let acta = r.file("acta-etapa-es.pdf", &pdf.body);
    let e = r.fails(&["--lang", "es", "notice", "verify", &acta]);
    assert_eq!(
        e.trim_end(),
        format!(
            "vigia: error: notice verify {acta}: es el acta de la Segunda Etapa del programa \
             D3939-2004, no un aviso de cobro ni un paz y salvo: las actas se verifican contra los \
             registros de su etapa, en la web en la página de la etapa («Verificar el acta»); en \
             la línea de comandos: `vigia stage verify ARCHIVO`"
        )
    );
    let tampered = md.text().replacen("P-07", "P-12", 1);
    // named on the line of the file where the first «P-07» was, blank lines counted
    let line = md.text().lines().position(|l| l.contains("P-07")).unwrap() + 1;
    // the register's audit chain verified on the audit page: it holds, and the acta pages take
    // that verdict for the register as it stands (an acta that does not match asks it)
    assert!(
        c.get("/auditoria/verificar")
            .text()
            .contains("Cadena de auditoría íntegra")
    );
    let t = c
        .upload(
            &verify,
            &[("csrf", &ccsrf)],
            ("acta.md", tampered.as_bytes()),
        )
        .text();
    assert!(
        t.contains("No coincide: el acta NO está verificada.")
            && t.contains(&format!(
                "En la línea {line} del archivo, el documento dice «"
            )),
        "{t}"
    );
    // the register's audit chain holds (the verdict the audit page filed): the page says so,
    // and that what differs is the document, not the register
    assert!(
        t.contains(
            "La cadena de auditoría del registro se verifica: el registro no se cambió por fuera de \
             vigia; lo que difiere es el documento. Vea la verificación en \
             <a href=\"/auditoria/verificar\">Auditoría</a>."
        ) && !t.contains("auditoria-rota")
            && !t.contains("auditoria-en-curso"),
        "{t}"
    );
    assert_eq!(
        c.upload(&verify, &[("csrf", "x")], ("acta.md", &md.body))
            .status,
        403
    );
    r.ok(&["audit", "verify"]);

    // a draw changed in the register behind vigia's back: the stage page and the acta's
    // verification say what differs, in the same words as `stage verify` (catalogue::stage)
    r.conn()
        .execute_batch(
            "DROP TRIGGER stage_draws_no_update; UPDATE stage_draws SET winner = 'P-12' WHERE id = 1;",
        )
        .unwrap();
    let t = c.get(STAGE).text();
    assert!(
        t.contains("Recalculado desde el registro: NO coincide. el ganador registrado es P-12; el sorteo da P-07."),
        "{t}"
    );
    let t = c
        .upload(&verify, &[("csrf", &ccsrf)], ("acta.md", &md.body))
        .text();
    assert!(
        t.contains("sorteo N.º 1 (tramo 1): el ganador registrado es P-12; el sorteo da P-07"),
        "{t}"
    );
    // the verdict kept for the register before is not this register's: its audit chain is being
    // verified (in the background: the page does not wait for it), and the page says so
    assert!(
        t.contains(
            "La cadena de auditoría del registro se está verificando en segundo plano (un acta \
             auténtica deja de coincidir cuando el registro se alteró): suba el acta de nuevo \
             cuando termine (segundos en un registro pequeño, alrededor de un minuto en uno de \
             un millón de titulares) para saber si se verifica, o vea la verificación en \
             <a href=\"/auditoria/verificar\">Auditoría</a>."
        ) && !t.contains("auditoria-rota"),
        "{t}"
    );
    // (the audit page's verification, which the test waits for, gives the verdict at once)
    assert!(
        c.get("/auditoria/verificar")
            .text()
            .contains("La auditoría NO coincide")
    );
    let t = c
        .upload(&verify, &[("csrf", &ccsrf)], ("acta.md", &md.body))
        .text();
    // and the audit chain does not verify either: the page says so and links the audit's
    assert!(
        !t.contains("auditoria-en-curso") && t.contains(
            "La cadena de auditoría del registro tampoco se verifica: un acta auténtica deja de \
             coincidir cuando el registro se alteró. Vea qué cambió en \
             <a href=\"/auditoria/verificar\">Auditoría</a>."
        ),
        "{t}"
    );
    // a file that is no acta of this stage says so, and nothing of the chain: it is not an acta
    // that stopped matching (and the whole register is not read for it)
    let t = c
        .upload(
            &verify,
            &[("csrf", &ccsrf)],
            ("nota.md", &b"Una nota.\n"[..]),
        )
        .text();
    assert!(
        t.contains("No coincide: el acta NO está verificada.")
            && t.contains("no tiene la línea «Etapa N — Acta N.º K»")
            && !t.contains("auditoria-rota"),
        "{t}"
    );
}

#[test]
fn a_void_second_stage_is_declared_in_the_browser_and_its_shares_pass_to_the_third() {
    let r = after_first_stage();
    r.ok(&[
        "stage",
        "open",
        "D3939-2004",
        "--stage",
        "2",
        "--shares",
        BLOCK,
        "--opens",
        "2024-06-03",
        "--closes",
        "2024-06-14",
        "--reason",
        REASON,
    ]);
    let s = Server::start(&r);
    let (mut a, acsrf) = Client::signed_in(&s, "adela", PASSWORD);
    let conclude = format!("{STAGE}/concluir");
    let ask = |on: &str, action: &str| {
        vec![
            ("csrf", acsrf.clone()),
            ("stage_decision_date", on.to_string()),
            ("accion", action.to_string()),
        ]
    };
    // below the minimum of $ 963: rejected, and the stage has no valid proposal
    let low = r.file(
        "low.csv",
        format!(
            "{HEADER}{}",
            line("A", "CC:1000000101:Uno (PRUEBA)", "962.99")
        )
        .as_bytes(),
    );
    r.ok(&[
        "proposals",
        "import",
        &low,
        "--program",
        "D3939-2004",
        "--stage",
        "2",
    ]);
    let t = a.get(STAGE).text();
    assert!(
        t.contains("rechazada: precio por debajo del mínimo")
            && t.contains("BELOW_<wbr>MINIMUM_<wbr>PRICE"),
        "{t}"
    );
    // adjudicating refused beside its button: nothing valid, declare it void
    let t = post(&mut a, &conclude, &ask("28/06/2024", "vista-adjudicar")).text();
    assert!(
        inside(&t, "decidir").contains("declare desierta la etapa"),
        "{t}"
    );
    let t = post(&mut a, &conclude, &ask("28/06/2024", "vista-desierta"));
    assert_eq!(t.status, 200, "{}", t.text());
    let t = t.text();
    assert!(
        t.contains("queda declarada desierta el 28/06/2024")
            && t.contains("sus 12.886.682 acciones pasan a la Tercera Etapa"),
        "{t}"
    );
    let fingerprint = {
        let i = t.find("name=\"huella\" value=\"").unwrap() + 21;
        t[i..i + 64].to_string()
    };
    let mut confirm = ask("28/06/2024", "desierta");
    confirm.push(("huella", fingerprint));
    assert_eq!(post(&mut a, &conclude, &confirm).status, 303);
    let t = a.get(STAGE).text();
    assert!(
        t.contains("declarada desierta el 28/06/2024") && t.contains("pasan a la Tercera Etapa"),
        "{t}"
    );
    // no price: still pending for the Third Stage, which offers the same shares
    assert_eq!(
        r.json(&["program", "show", "D3939-2004", "--format", "json"])["stage_price"],
        "pending"
    );
    let third = a.get("/programas/D3939-2004/etapas/3").text();
    assert!(
        third.contains("12.886.682") && third.contains("concluyó el 28/06/2024"),
        "{third}"
    );
    assert!(third.contains("Abrir el tramo 1"), "{third}");

    // an error page links back to the page the form came from, and never to a page that is
    // not there: a form that no page sends goes back to the stage; a program that does not
    // exist, to the list of programs
    let t = post(&mut a, &conclude, &ask("28/06/2024", "otra-cosa"));
    assert_eq!(t.status, 400);
    assert!(
        t.text()
            .contains(&format!("<a href=\"{STAGE}\">Volver</a>")),
        "{}",
        t.text()
    );
    let t = post(
        &mut a,
        "/programas/NO-EXISTE/etapas/2/concluir",
        &ask("28/06/2024", "vista-desierta"),
    );
    assert_eq!(t.status, 404);
    let t = t.text();
    assert!(
        t.contains("<a href=\"/programas\">Volver</a>")
            && !t.contains("href=\"/programas/NO-EXISTE"),
        "{t}"
    );
}
