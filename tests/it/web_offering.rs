//! The first-stage offer in the browser (issue 22, item 2): `/programas/{code}/oferta` shows the
//! offer's window once opened, and opens it for an administrator as `vigia offer open` does, the
//! window checked by the register (Decreto 3939 Art. 4) and a refusal beside the date it names.

use crate::web::{Client, PASSWORD, Server, register_with_users};

const PAGE: &str = "/programas/D3939-2004/oferta";

/// The text of the refusal shown next to the input `name`, if any.
fn error_beside(page: &str, name: &str) -> Option<String> {
    let open = format!("id=\"{name}-error\" role=\"alert\">");
    let start = page.find(&open)? + open.len();
    let len = page[start..].find("</p>")?;
    Some(page[start..start + len].to_string())
}

fn offers(r: &crate::common::Reg) -> Vec<(String, String, String)> {
    let conn = r.conn();
    let mut q = conn
        .prepare("SELECT opens, closes, created_by FROM offers ORDER BY id")
        .unwrap();
    q.query_map([], |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The reason the shipped 2004 program needs for an offer in 2024 (outside its validity).
const REASON: &str = "venta ficticia de 2024 bajo el decreto de 2004 (pruebas)";

#[test]
fn an_administrator_opens_the_offer_with_its_window_checked_by_the_register() {
    let r = register_with_users();
    let s = Server::start(&r);

    // anyone signed in sees that it is not open; only an administrator is offered the form
    let (mut c, ccsrf) = Client::signed_in(&s, "carla", PASSWORD);
    let t = c.get(PAGE);
    assert_eq!(t.status, 200);
    assert!(t.text().contains("aún no se ha abierto"), "{}", t.text());
    assert!(!t.text().contains("Abrir la oferta"), "{}", t.text());
    let window = |csrf: &str, closes: &str, reason: &str| {
        vec![
            ("csrf", csrf.to_string()),
            ("offer_opens", "15/01/2024".to_string()),
            ("offer_closes", closes.to_string()),
            ("validity_reason", reason.to_string()),
        ]
    };
    let post = |c: &mut Client<'_>, fields: &[(&str, String)]| {
        let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        c.post(PAGE, &f)
    };
    // a role below admin, or a form without the session's token: refused, nothing written
    assert_eq!(
        post(&mut c, &window(&ccsrf, "18/03/2024", REASON)).status,
        403
    );
    let (mut o, ocsrf) = Client::signed_in(&s, "oscar", PASSWORD);
    assert_eq!(
        post(&mut o, &window(&ocsrf, "18/03/2024", REASON)).status,
        403
    );
    let (mut a, acsrf) = Client::signed_in(&s, "adela", PASSWORD);
    assert_eq!(post(&mut a, &window("x", "18/03/2024", REASON)).status, 403);
    assert!(offers(&r).is_empty());
    assert!(a.get(PAGE).text().contains("Abrir la oferta"));

    // notice on Monday 15/01/2024, counted from Tuesday the 16th: two months end on Saturday
    // 16/03/2024, so the window closes on Monday 18/03/2024 at the earliest
    let short = post(&mut a, &window(&acsrf, "15/03/2024", REASON));
    assert_eq!(short.status, 422);
    let t = short.text();
    let e = error_beside(&t, "offer_closes").unwrap_or_else(|| panic!("{t}"));
    assert!(e.contains("18/03/2024 o después"), "{e}");
    // what was typed is shown again
    assert!(t.contains("value=\"15/03/2024\""), "{t}");
    // a date that is no date, beside its input, in Spanish
    let bad = post(&mut a, &window(&acsrf, "31/02/2024", REASON));
    assert_eq!(bad.status, 422);
    assert!(
        error_beside(&bad.text(), "offer_closes").is_some(),
        "{}",
        bad.text()
    );
    // 2024 lies outside the 2004 program's validity: the reason is asked for beside its input
    let no_reason = post(&mut a, &window(&acsrf, "18/03/2024", ""));
    assert_eq!(no_reason.status, 422);
    assert!(
        error_beside(&no_reason.text(), "validity_reason").is_some(),
        "{}",
        no_reason.text()
    );
    assert!(offers(&r).is_empty(), "nothing written by a refusal");

    // the window the CLI's own test opens
    let done = post(&mut a, &window(&acsrf, "18/03/2024", REASON));
    assert_eq!(done.status, 303, "{}", done.text());
    assert_eq!(done.header("location"), Some(PAGE));
    assert_eq!(
        offers(&r),
        [(
            "2024-01-15".to_string(),
            "2024-03-18".to_string(),
            "adela".to_string()
        )]
    );
    let t = c.get(PAGE).text();
    assert!(
        t.contains("15/01/2024") && t.contains("18/03/2024") && t.contains("por adela"),
        "{t}"
    );
    // once per program
    let again = post(&mut a, &window(&acsrf, "18/04/2024", REASON));
    assert_eq!(again.status, 422);
    assert!(again.text().contains("ya se abrió"), "{}", again.text());
    assert_eq!(offers(&r).len(), 1);
}
