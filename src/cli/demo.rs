//! `vigia demo`: builds a fresh register from the shipped program and fictional holders, and runs
//! the life of one fine through the real commands, printing each command line and what it shows.

use super::{Cli, CliError, Ctx, Status};
use crate::catalogue::msg::{Msg, Step};
use clap::Parser;
use std::path::PathBuf;

/// The fictional holders (every name ends in "(DEMO)").
pub const DEMO_CSV: &str = include_str!("../../schema/demo/adjudicaciones-demo.csv");

/// The holder list as updated later: the same five rows and one new holder (Spanish headers,
/// es-CO numbers and dates, `;`, as an office's spreadsheet saves it, like every demo file).
const NEW_HOLDER: &str =
    "CC;1.000.000.006;Pedro Imaginario Castro (DEMO);Natural;trabajador;600;;15/03/2024;;\n";

/// A paragraph the demo's program adds to every notice (issue 14). The letterhead (who signs,
/// where to pay and answer) is register data, set by a step of the story (issue 20).
const DEMO_ISSUER: &str = r#"
[[letters.paragraphs]]
heading = "Recursos"
text = "Si no está de acuerdo con esta liquidación, puede presentar sus observaciones por escrito a los vendedores antes del vencimiento del plazo para pagar."
"#;

/// The fictional acceptances of the first stage (every name ends in "(DEMO)"): the awards of the
/// offer are the demo's adjudications.
pub const DEMO_ACCEPTANCES: &str = include_str!("../../schema/demo/aceptaciones-demo.csv");

/// The first stage (issue 15), run right after the program is registered: the offer opened,
/// the acceptances imported, the adjudication of Art. 12 with its acta. Its awards are the
/// adjudications the rest of the story works with (ids 1 to 5, adjudicated on 2024-03-15).
const OFFERING_STEPS: &[(Step, &[&str], bool)] = &[
    (
        Step::OfferTooShort,
        &[
            "offer",
            "open",
            "D3939-2004",
            "--opens",
            "2024-01-02",
            "--closes",
            "2024-02-29",
        ],
        true,
    ),
    (
        Step::OfferOpen,
        &[
            "offer",
            "open",
            "D3939-2004",
            "--opens",
            "2024-01-02",
            "--closes",
            "2024-03-08",
            "--reason",
            "Demostración: venta ficticia de 2024 bajo el decreto de 2004, cuya vigencia (art. 28) terminó en 2005",
        ],
        false,
    ),
    (
        Step::AcceptancesImport,
        &[
            "acceptances",
            "import",
            "{dir}/aceptaciones-demo.csv",
            "--program",
            "D3939-2004",
        ],
        false,
    ),
    (
        Step::AcceptancesAgain,
        &[
            "acceptances",
            "import",
            "{dir}/aceptaciones-demo.csv",
            "--program",
            "D3939-2004",
        ],
        false,
    ),
    (
        Step::Adjudicate,
        &[
            "offer",
            "adjudicate",
            "D3939-2004",
            "--on",
            "2024-03-15",
            "--acta",
            "{dir}/acta-adjudicacion-D3939-2004.pdf",
        ],
        false,
    ),
    (
        Step::AdjudicateTwice,
        &["offer", "adjudicate", "D3939-2004", "--on", "2024-03-16"],
        true,
    ),
    (
        Step::VerifyActa,
        &["offer", "verify", "{dir}/acta-adjudicacion-D3939-2004.pdf"],
        false,
    ),
];

/// The fictional proposals of the Second Stage (every name ends in "(DEMO)").
pub const DEMO_PROPOSALS: &str = include_str!("../../schema/demo/propuestas-demo.csv");

/// The Second Stage (issue 12), where the typed stage price used to be: a tranche of everything
/// the first stage left, the proposals (every rejection cause, a joint proposal), a tie between
/// two, an improvement below the original that is ignored, the draw that decides it, its
/// verification, and the adjudication on 2024-06-28 whose $1,100 per share becomes Art. 9
/// (iii)'s price (as the typed step recorded before: the rest of the story is unchanged).
const STAGE_STEPS: &[(Step, &[&str], bool)] = &[
    (
        Step::StageOpen,
        &[
            "stage",
            "open",
            "D3939-2004",
            "--stage",
            "2",
            "--shares",
            "12886682",
            "--opens",
            "2024-06-03",
            "--closes",
            "2024-06-14",
            "--reason",
            "Demostración: venta ficticia de 2024 bajo el decreto de 2004, cuya vigencia (art. 28) terminó en 2005",
        ],
        false,
    ),
    (
        Step::ProposalsImport,
        &[
            "proposals",
            "import",
            "{dir}/propuestas-demo.csv",
            "--program",
            "D3939-2004",
            "--stage",
            "2",
        ],
        false,
    ),
    (
        Step::Evaluate,
        &["stage", "evaluate", "D3939-2004", "--stage", "2"],
        false,
    ),
    (
        Step::TieFirst,
        &[
            "stage",
            "adjudicate",
            "D3939-2004",
            "--stage",
            "2",
            "--on",
            "2024-06-28",
        ],
        true,
    ),
    (
        Step::ImproveLower,
        &[
            "stage",
            "improve",
            "D3939-2004",
            "--stage",
            "2",
            "--proposal",
            "P-12",
            "--price",
            "1090",
        ],
        false,
    ),
    (
        Step::Draw,
        &[
            "stage",
            "draw",
            "D3939-2004",
            "--stage",
            "2",
            "--seed",
            "Baloto 2024-06-26: 03-11-19-27-40-12",
        ],
        false,
    ),
    (
        Step::DrawVerify,
        &["stage", "draw", "--verify", "D3939-2004", "--stage", "2"],
        false,
    ),
    (
        Step::StageAdjudicate,
        &[
            "stage",
            "adjudicate",
            "D3939-2004",
            "--stage",
            "2",
            "--on",
            "2024-06-28",
            "--acta",
            "{dir}/acta-segunda-etapa-D3939-2004.pdf",
        ],
        false,
    ),
];

/// One step: the command (after `vigia --db DB --officer demo`), and whether it is expected to be
/// refused (to show the refusal). The step titled `{stage}` stands for [`STAGE_STEPS`].
const STEPS: &[(Step, &[&str], bool)] = &[
    (
        Step::ProgramAdd,
        &["program", "add", "{dir}/decreto-3939-2004.toml"],
        false,
    ),
    (
        Step::HoldersUpdated,
        &[
            "adjudications",
            "import",
            "{dir}/adjudicaciones-demo-actualizado.csv",
            "--program",
            "D3939-2004",
        ],
        false,
    ),
    (
        Step::PledgeFirst,
        &[
            "pledge",
            "register",
            "1",
            "--rank",
            "1",
            "--registered-on",
            "2024-04-01",
        ],
        false,
    ),
    (
        Step::PledgeSecond,
        &[
            "pledge",
            "register",
            "2",
            "--rank",
            "2",
            "--registered-on",
            "2024-04-01",
        ],
        false,
    ),
    (Step::Stage, &[], false),
    (
        Step::BreachSale,
        &[
            "breach",
            "record",
            "--adjudication",
            "1",
            "--kind",
            "sale",
            "--date",
            "2024-11-20",
            "--shares",
            "1000",
            "--consideration-per-share",
            "1.450",
            "--evidence",
            "Contrato de compraventa del 20-11-2024 (DEMO)",
        ],
        false,
    ),
    (
        Step::BreachAfterLockup,
        &[
            "breach",
            "record",
            "--adjudication",
            "3",
            "--kind",
            "sale",
            "--date",
            "2026-03-16",
            "--shares",
            "10",
        ],
        true,
    ),
    (
        Step::Letterhead,
        &[
            "program",
            "letters",
            "set",
            "D3939-2004",
            "--entity",
            "Administradora de la Enajenación (DEMO)",
            "--nit",
            "900123456-8",
            "--return-address",
            "Carrera 7 # 71-21",
            "--city",
            "Bogotá D.C.",
            "--bank",
            "Banco Ficticio (DEMO)",
            "--account",
            "cuenta corriente No. 000-00000-0",
            "--reference",
            "{number}-{doc}",
            "--signatory-name",
            "Firmante Ficticio (DEMO)",
            "--signatory-position",
            "Representante legal",
        ],
        false,
    ),
    (
        Step::NoticeIssue,
        &[
            "notice",
            "issue",
            "1",
            "--until",
            "2024-11-29",
            "--date",
            "2024-11-29",
            "--reason",
            "Demostración: la historia ocurre en 2024 y 2025 (DEMO)",
            "--out",
            "{dir}/MULTA-2024-0001.pdf",
        ],
        false,
    ),
    (
        Step::NoticeHtml,
        &[
            "notice",
            "render",
            "MULTA-2024-0001",
            "--format",
            "html",
            "--out",
            "{dir}/MULTA-2024-0001.html",
        ],
        false,
    ),
    (
        Step::NoticeVerify,
        &["notice", "verify", "{dir}/MULTA-2024-0001.pdf"],
        false,
    ),
    (
        Step::NoAddress,
        &[
            "notice",
            "delivered",
            "MULTA-2024-0001",
            "--on",
            "2024-12-03",
            "--via",
            "correo-certificado",
        ],
        true,
    ),
    (
        Step::HolderAddress,
        &[
            "holder",
            "update",
            "1000000001",
            "--address",
            "Calle 45 # 12-34 (DEMO)",
            "--city",
            "Bogotá D.C.",
        ],
        false,
    ),
    (
        Step::Delivered,
        &[
            "notice",
            "delivered",
            "MULTA-2024-0001",
            "--on",
            "2024-12-03",
            "--via",
            "correo-certificado",
            "--evidence",
            "Guía 0001 (DEMO)",
        ],
        false,
    ),
    (
        Step::PartialPayment,
        &[
            "payment",
            "record",
            "--breach",
            "1",
            "--date",
            "2024-12-15",
            "--amount",
            "500.000",
            "--reference",
            "Consignación 0001 (DEMO)",
        ],
        false,
    ),
    (
        Step::PaymentTwice,
        &[
            "payment",
            "record",
            "--breach",
            "1",
            "--date",
            "2024-12-15",
            "--amount",
            "500.000",
            "--reference",
            "Consignación 0001 (DEMO)",
        ],
        true,
    ),
    (
        Step::PaymentMistake,
        &[
            "payment",
            "record",
            "--breach",
            "1",
            "--date",
            "2024-12-20",
            "--amount",
            "80000",
            "--reference",
            "Consignación 0099 (DEMO)",
        ],
        false,
    ),
    (
        Step::PaymentVoid,
        &[
            "payment",
            "void",
            "2",
            "--reason",
            "Consignación de otro titular (DEMO)",
        ],
        false,
    ),
    (Step::Check, &["check", "--as-of", "2025-01-10"], false),
    (
        Step::PledgeHeld,
        &["pledge", "release", "1", "--on", "2026-03-16"],
        true,
    ),
    (
        Step::Liquidate,
        &["fine", "liquidate", "1", "--until", "2025-02-10"],
        false,
    ),
    (
        Step::NoticeBalance,
        &[
            "notice",
            "issue",
            "1",
            "--until",
            "2025-02-10",
            "--date",
            "2025-02-10",
            "--reason",
            "Demostración: la historia ocurre en 2024 y 2025 (DEMO)",
            "--out",
            "{dir}/MULTA-2025-0001.pdf",
        ],
        false,
    ),
    (
        Step::HandedOver,
        &[
            "notice",
            "delivered",
            "MULTA-2025-0001",
            "--on",
            "2025-02-10",
            "--via",
            "personal",
            "--evidence",
            "Recibido firmado (DEMO)",
        ],
        false,
    ),
    (
        Step::PaysBalance,
        &[
            "payment",
            "record",
            "--breach",
            "1",
            "--date",
            "2025-02-10",
            "--amount",
            "626.823",
            "--reference",
            "Consignación 0002 (DEMO)",
        ],
        false,
    ),
    (Step::Payments, &["payment", "list", "--breach", "1"], false),
    (
        Step::NoDemand,
        &[
            "notice",
            "issue",
            "1",
            "--until",
            "2025-02-12",
            "--date",
            "2025-02-12",
            "--reason",
            "Demostración: la historia ocurre en 2024 y 2025 (DEMO)",
        ],
        true,
    ),
    (
        Step::Settlement,
        &[
            "settlement",
            "issue",
            "1",
            "--date",
            "2025-02-12",
            "--out",
            "{dir}/PAZ-2025-0001.pdf",
        ],
        false,
    ),
    (
        Step::SettlementVerify,
        &["settlement", "verify", "{dir}/PAZ-2025-0001.pdf"],
        false,
    ),
    (
        Step::PledgeRelease,
        &["pledge", "release", "1", "--on", "2026-03-16"],
        false,
    ),
    (Step::Reproduces, &["fine", "reproduce", "1"], false),
    (
        Step::AdjudicationShow,
        &["adjudications", "show", "1"],
        false,
    ),
    (
        Step::CheckAfter,
        &["check", "--as-of", "2026-03-20", "--format", "csv"],
        false,
    ),
    (Step::Audit, &["audit", "verify"], false),
];

pub fn run(ctx: &mut Ctx<'_>) -> Result<Status, CliError> {
    let db = match &ctx.db {
        Some(p) => p.clone(),
        None => {
            let stamp = chrono::Utc::now().format("%Y%m%d%H%M%S");
            std::env::temp_dir()
                .join(format!("vigia-demo-{stamp}-{}", std::process::id()))
                .join("vigia-demo.db")
        }
    };
    if db.exists() {
        return Err(CliError::Wrong {
            flag: "--db".into(),
            value: db.display().to_string(),
            why: crate::said!(cli::demo_needs_fresh_path),
        });
    }
    let dir: PathBuf = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    std::fs::create_dir_all(&dir).map_err(|e| CliError::File {
        flag: "--db",
        path: dir.clone(),
        error: e,
    })?;
    let updated = format!("{DEMO_CSV}{NEW_HOLDER}");
    // the shipped program with a fictional letterhead (the shipped file's last table is
    // `[letters]`, so the issuer's table follows it)
    let program = format!("{}{DEMO_ISSUER}", crate::program::DECRETO_3939_2004);
    for (name, text) in [
        ("decreto-3939-2004.toml", program.as_str()),
        ("adjudicaciones-demo.csv", DEMO_CSV),
        ("adjudicaciones-demo-actualizado.csv", updated.as_str()),
        ("aceptaciones-demo.csv", DEMO_ACCEPTANCES),
        ("propuestas-demo.csv", DEMO_PROPOSALS),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| CliError::File {
            flag: "--db",
            path,
            error: e,
        })?;
    }
    let db_s = db.display().to_string();
    let dir_s = dir.display().to_string();
    // the demo's own audit key, in its directory, unless --key names one: never the office's
    // ($VIGIA_KEY, vigia's configuration directory) for a throwaway register
    let key = ctx.key.clone().unwrap_or_else(|| dir.join("audit.key"));
    ctx.say(Msg::DemoStart {
        db: &db_s,
        key: &key.display().to_string(),
    })?;
    let mut base = Cli::try_parse_from(["vigia", "--db", &db_s, "init"]).expect("init parses");
    base.officer = Some("demo".into());
    base.key = Some(key.clone());
    super::run(base, ctx.lang, ctx.out)?;
    // the program first, then the first stage (OFFERING_STEPS), then the life of a fine
    let steps = STEPS[..1]
        .iter()
        .chain(OFFERING_STEPS)
        .chain(&STEPS[1..])
        .flat_map(|step| match step.0 {
            Step::Stage => STAGE_STEPS.iter().collect::<Vec<_>>(),
            _ => vec![step],
        });
    for (title, step, expect_refusal) in steps {
        let args: Vec<String> = step.iter().map(|a| a.replace("{dir}", &dir_s)).collect();
        let shown: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
        let title = crate::catalogue::of(ctx.lang).msg(&Msg::DemoStep(*title));
        writeln!(ctx.out, "\n## {title}\n$ vigia {}", shown.join(" "))?;
        let mut full = vec![
            "vigia".to_string(),
            "--db".into(),
            db_s.clone(),
            "--officer".into(),
            "demo".into(),
        ];
        full.extend(args);
        if let Some(r) = &ctx.rates_path {
            full.extend(["--rates".into(), r.display().to_string()]);
        }
        full.extend(["--key".into(), key.display().to_string()]);
        let cli = Cli::try_parse_from(&full).expect("demo steps parse");
        match super::run(cli, ctx.lang, ctx.out) {
            Ok(_) => {}
            Err(e) if *expect_refusal => ctx.say(Msg::DemoRefused {
                error: &e.describe(ctx.lang),
            })?,
            Err(e) => return Err(e),
        }
    }
    web_login(ctx, &db_s, &key.display().to_string())?;
    Ok(Status::Ok)
}

/// The demo's web account (a demo register only) and how to open the web interface on it.
const DEMO_USER: (&str, &str) = ("demo", "clave-demo-vigia");

fn web_login(ctx: &mut Ctx<'_>, db: &str, key: &str) -> Result<(), CliError> {
    let mut store = crate::store::Store::open(std::path::Path::new(db))?;
    store.write::<_, crate::register::Error>("demo", |tx| {
        crate::register::user::add(
            tx,
            DEMO_USER.0,
            crate::register::user::Role::Admin,
            DEMO_USER.1,
        )
    })?;
    ctx.say(Msg::DemoWeb {
        user: DEMO_USER.0,
        password: DEMO_USER.1,
        db: &shell_quote(db),
        key: &shell_quote(key),
    })?;
    Ok(())
}

/// Quotes an argument the way a POSIX shell needs it, for the command lines the demo prints.
fn shell_quote(a: &str) -> String {
    if !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,".contains(c))
    {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}
