//! The first-stage offering at a larger scale than the worked examples: 5,000 acceptances
//! generated deterministically (every cause, repeated filings far apart, equal filing times,
//! CC and CE with the same number, legal persons under seed 003's caps, missing figures,
//! directors, fractional pesos, financing above the award), adjudicated under both proration
//! rules. Every output is pinned by its SHA-256: the dry run's JSON, CSV and table, the run's
//! JSON and fingerprint, the rows it stored, the acta. The values were computed by the
//! implementation before the adjudication was made to scale (issue 15's speed targets), so a
//! faster implementation must give exactly the same bytes.

use crate::common::Reg;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

pub(crate) const TEST_PROGRAM: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/programs/ebsa-2010-test.toml"
);

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A person: (doc_type, doc_number, name, legal).
fn person(k: u64) -> (&'static str, String, String, bool) {
    match k % 20 {
        // legal persons under seed 003's caps, with a NIT and its check digit
        0 | 7 | 13 => {
            let digits = (800_000_000 + k).to_string();
            let dv = nit_check_digit(&digits);
            (
                "NIT",
                format!("{digits}-{dv}"),
                format!("Fondo Sintético {k}"),
                true,
            )
        }
        // a cédula de extranjería whose number some CC also has: another person
        5 => (
            "CE",
            (1_000_000_000 + k - 1).to_string(),
            format!("Extranjero {k}"),
            false,
        ),
        _ => (
            "CC",
            (1_000_000_000 + k).to_string(),
            format!("Aceptante Ñandú {k}"),
            false,
        ),
    }
}

fn pesos(rng: &mut Rng, low: u64, high: u64) -> String {
    let whole = low + rng.below(high - low);
    if rng.chance(10) {
        format!("{whole}.{:02}", rng.below(100))
    } else {
        whole.to_string()
    }
}

/// An amount, or (one time in 25) nothing.
fn maybe(rng: &mut Rng, low: u64, high: u64) -> String {
    if rng.chance(4) {
        String::new()
    } else {
        pesos(rng, low, high)
    }
}

/// The NIT check digit (as `vigia::ids` computes it; written out again here).
fn nit_check_digit(digits: &str) -> u32 {
    const WEIGHTS: [u32; 15] = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];
    let sum: u32 = digits
        .bytes()
        .rev()
        .zip(WEIGHTS)
        .map(|(b, w)| u32::from(b - b'0') * w)
        .sum();
    let r = sum % 11;
    if r <= 1 { r } else { 11 - r }
}

/// The acceptances file: `n` rows, a fixed seed.
pub(crate) fn acceptances(n: u64) -> String {
    let mut rng = Rng(0x0FFE_2015_0226);
    let mut csv = String::from(
        "filed_at,doc_type,doc_number,name,person_type,category,shares,accepts_reduction,files_tax_return,\
         patrimonio_liquido,income,is_director,annual_salary,investment_limit,patrimonio_ajustado,declarations,\
         dismissed_with_just_cause,review,lender,financed_shares\n",
    );
    let mut persons = 0u64;
    let opens = chrono::NaiveDate::from_ymd_opt(2024, 1, 10).unwrap();
    for _ in 0..n {
        // a fifth of the rows are another filing of someone who filed before, anywhere earlier
        let k = if persons > 0 && rng.chance(20) {
            1 + rng.below(persons)
        } else {
            persons += 1;
            persons
        };
        let (doc_type, number, name, legal) = person(k);
        // 2024-01-10 .. 2024-03-25: before the window, in it, after it (it is 01-15 .. 03-18)
        let date = opens + chrono::Days::new(rng.below(76));
        let filed = match rng.below(4) {
            0 => date.to_string(),
            // few distinct times, so that equal times are decided by the line
            1 | 2 => format!("{date} {:02}:{:02}", 8 + rng.below(3), 15 * rng.below(4)),
            _ => format!(
                "{date} {:02}:{:02}:{:02}",
                8 + rng.below(10),
                rng.below(60),
                rng.below(60)
            ),
        };
        let category = if legal {
            ["sindicato", "fondo-empleados", "cooperativa", "accionista"][rng.below(4) as usize]
        } else {
            [
                "trabajador",
                "pensionado",
                "extrabajador",
                "trabajador",
                "accionista",
            ][(rng.below(5) + u64::from(rng.chance(90))) as usize % 4]
        };
        let shares = if rng.chance(10) {
            1 + rng.below(20_000)
        } else {
            1 + rng.below(300)
        };
        let refuses = match rng.below(30) {
            0 => "no",
            1 => "si",
            _ => "",
        };
        let files = rng.chance(60);
        let (pl, inc, director, salary, limit, ajustado) = if legal {
            (
                if files {
                    pesos(&mut rng, 100_000, 900_000)
                } else {
                    String::new()
                },
                maybe(&mut rng, 10_000, 60_000),
                false,
                String::new(),
                maybe(&mut rng, 100_000, 300_000),
                maybe(&mut rng, 50_000, 300_000),
            )
        } else {
            let director = rng.chance(5);
            (
                if files {
                    maybe(&mut rng, 10_000, 300_000)
                } else {
                    String::new()
                },
                if files {
                    String::new()
                } else {
                    maybe(&mut rng, 10_000, 300_000)
                },
                director,
                if director {
                    maybe(&mut rng, 10_000, 100_000)
                } else {
                    String::new()
                },
                String::new(),
                String::new(),
            )
        };
        let declarations = if rng.chance(3) { "" } else { "si" };
        // an ex-worker's row says it either way (an empty cell is refused for them)
        let dismissed = if category != "extrabajador" {
            ""
        } else if rng.chance(20) {
            "si"
        } else {
            "no"
        };
        let review = match rng.below(60) {
            0 => "FORM_DEFECT",
            1 => "INFO_NOT_SUPPLIED",
            2 => "PRICE_NOT_PAID",
            _ => "",
        };
        let (lender, financed) = if rng.chance(25) {
            ("Banco Ejemplo", (1 + rng.below(shares)).to_string())
        } else {
            ("", String::new())
        };
        let si = |b: bool| if b { "si" } else { "no" };
        let _ = writeln!(
            csv,
            "{filed},{doc_type},{number},{name},{},{category},{shares},{refuses},{},{pl},{inc},{},{salary},{limit},{ajustado},\
             {declarations},{dismissed},{review},{lender},{financed}",
            if legal { "legal" } else { "natural" },
            si(files),
            if director { "si" } else { "" },
        );
    }
    csv
}

fn sha(bytes: impl AsRef<[u8]>) -> String {
    Sha256::digest(bytes.as_ref())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// SHA-256 of a query's rows (each cell in its debug form, one line per row).
fn rows_sha(r: &Reg, sql: &str) -> String {
    let conn = r.conn();
    let mut stmt = conn.prepare(sql).unwrap();
    let n = stmt.column_count();
    let mut q = stmt.query([]).unwrap();
    let mut text = String::new();
    while let Some(row) = q.next().unwrap() {
        for i in 0..n {
            let _ = write!(text, "{:?}|", row.get_ref(i).unwrap());
        }
        text.push('\n');
    }
    sha(text)
}

/// Every pinned digest of a scenario, by name.
fn digests(rule: &str, offered: u64) -> Vec<(&'static str, String)> {
    let text = std::fs::read_to_string(TEST_PROGRAM)
        .unwrap()
        .replace("floor-leftover-to-smallest", rule)
        .replace(
            "shares_offered = 10",
            &format!("shares_offered = {offered}"),
        )
        .replace("shares = 6\n", &format!("shares = {}\n", offered - 4));
    let r = crate::offering::opened(&text);
    let csv = r.file("acc.csv", acceptances(5_000).as_bytes());
    r.ok(&["acceptances", "import", &csv, "--program", "EBSA-TEST"]);
    let adjudicate = |extra: &[&str]| {
        let mut args = vec!["offer", "adjudicate", "EBSA-TEST", "--on", "2024-03-20"];
        args.extend_from_slice(extra);
        r.ok(&args)
    };
    let mut d = Vec::new();
    let json = adjudicate(&["--dry-run", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    d.push((
        "dry-run fingerprint",
        v["fingerprint"].as_str().unwrap().to_string(),
    ));
    d.push(("dry-run json", sha(&json)));
    d.push((
        "dry-run csv",
        sha(adjudicate(&["--dry-run", "--format", "csv"])),
    ));
    d.push((
        "dry-run table",
        sha(adjudicate(&["--dry-run", "--format", "table"])),
    ));
    let md = r.dir.path().join("acta.md");
    // the files beside the register (its WAL and lock notes aside)
    let beside = || -> std::collections::BTreeSet<String> {
        std::fs::read_dir(r.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.ends_with("-wal") && !n.ends_with("-shm") && !n.ends_with(".writer"))
            .collect()
    };
    let before = beside();
    let run = adjudicate(&["--format", "json", "--acta", md.to_str().unwrap()]);
    // the run spools its JSON rows beside the register (issue 23): nothing of it is left there,
    // the acta is all the run adds
    let added: Vec<String> = beside().difference(&before).cloned().collect();
    assert_eq!(added, ["acta.md"]);
    let v: serde_json::Value = serde_json::from_str(&run).unwrap();
    d.push((
        "run fingerprint",
        v["fingerprint"].as_str().unwrap().to_string(),
    ));
    d.push(("run json", sha(&run)));
    d.push((
        "stored run",
        rows_sha(
            &r,
            "SELECT id, program_id, import_id, adjudicated_on, rule, offered, demand, awarded, leftover, \
             oversubscribed, fingerprint FROM offering_runs ORDER BY id",
        ),
    ));
    d.push((
        "stored outcomes",
        rows_sha(
            &r,
            "SELECT id, run_id, seq, acceptance_id, requested, cap_shares, cap_rule, admitted, quota, awarded, \
             status, cause, adjudication_id FROM offering_outcomes ORDER BY id",
        ),
    ));
    d.push((
        "stored adjudications",
        rows_sha(
            &r,
            "SELECT id, program_id, holder_id, import_id, line, category, shares, price_per_share, adjudicated_on, \
             lender, financed_shares FROM adjudications ORDER BY id",
        ),
    ));
    d.push((
        "stored holders",
        rows_sha(
            &r,
            "SELECT id, doc_type, doc_number, name, person_type FROM holders ORDER BY id",
        ),
    ));
    d.push((
        "stored acceptances",
        rows_sha(
            &r,
            "SELECT id, program_id, import_id, line, filed_at, doc_type, doc_number, name, person_type, category, \
             shares, accepts_reduction, files_tax_return, patrimonio_liquido, income, is_director, annual_salary, \
             investment_limit, patrimonio_ajustado, declarations, dismissed_with_just_cause, review, lender, \
             financed_shares FROM acceptances ORDER BY id",
        ),
    ));
    // the acta names the officer's run time nowhere it would change: pinned whole
    d.push(("acta", sha(std::fs::read(&md).unwrap())));
    let verified = r.ok(&["offer", "verify", md.to_str().unwrap()]);
    assert!(verified.starts_with("verified: "), "{verified}");
    r.ok(&["audit", "verify"]);
    d
}

fn check(rule: &str, offered: u64, want: &[(&str, &str)]) {
    let got = digests(rule, offered);
    let shown: String = got
        .iter()
        .map(|(k, v)| format!("        (\"{k}\", \"{v}\"),\n"))
        .collect();
    let got: Vec<(&str, &str)> = got.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(got, want, "{rule}, offer {offered}; got:\n{shown}");
}

#[test]
fn five_thousand_acceptances_under_nearest_adjust_give_the_pinned_result() {
    check(
        "nearest-adjust",
        150_000,
        &[
            (
                "dry-run fingerprint",
                "4f7141c515033d70fd996f9fa9292b1602e52516c4ec922cd99efbba9d7622d8",
            ),
            (
                "dry-run json",
                "ec88224cc483ecd8d358765b53375bd3212baa4a5bfd2a530a2c233a6a347b54",
            ),
            (
                "dry-run csv",
                "aa011d2708d921b39715478caaa8362ca0d58bf76fbdfcf77e73597dff499f4d",
            ),
            (
                "dry-run table",
                "0d6fe4ba709436c69d2a0a3a0b4005a04104dbaddf52382c3c975af60bb00ba9",
            ),
            (
                "run fingerprint",
                "4f7141c515033d70fd996f9fa9292b1602e52516c4ec922cd99efbba9d7622d8",
            ),
            (
                "run json",
                "b9196777e548ab78783db3ed9e894a593ff6b88199f99a979b2449e408421b98",
            ),
            (
                "stored run",
                "149fc4570ac3e1d537f051b3502b391d3623135c17282cd359b8874a40db8994",
            ),
            (
                "stored outcomes",
                "76ce9c5ba3df4045441861b3c56d9df9ad94a62184a31646fc69e2df522e0497",
            ),
            (
                "stored adjudications",
                "01ef79687bfa415c10026e45134ec85dbef88d51c6527471415e665969d652f5",
            ),
            (
                "stored holders",
                "4894b4c282935e3f982d363f7d3061f8966f82a582fbb5004408dbbdd6f94922",
            ),
            (
                "stored acceptances",
                "0d0d6dc1e55e3d03d042428d2722a3000a9537800f3fa420fed729304ce78d3f",
            ),
            (
                "acta",
                "126b71abb64391a667d724378d8d063fdff0bff1d344ca29cbfdbd8ab1d1dbba",
            ),
        ],
    );
}

#[test]
fn five_thousand_acceptances_under_floor_leftover_give_the_pinned_result() {
    check(
        "floor-leftover-to-smallest",
        150_000,
        &[
            (
                "dry-run fingerprint",
                "91c03a63b1c2bc677c676f5cbeeb84d2db2dfc8e8876d51e090c9bff7bb1ffe7",
            ),
            (
                "dry-run json",
                "f031084e7e52824ad29aab1a23491c761fe742bcc74d334557b4a80d3c499a43",
            ),
            (
                "dry-run csv",
                "4a9628c5fd63e864c13be428f75313bb17335e1e5d4acb1bcf996a5ca237292b",
            ),
            (
                "dry-run table",
                "9b8a2d59bcdd85e13d942edd7b94ab84e0f22663a706c0daed14f4d9c69af100",
            ),
            (
                "run fingerprint",
                "91c03a63b1c2bc677c676f5cbeeb84d2db2dfc8e8876d51e090c9bff7bb1ffe7",
            ),
            (
                "run json",
                "9c39dadd23a01807970852bb6c2aaddf0f0e2de2403dd7a1c20d3354b3327432",
            ),
            (
                "stored run",
                "278817225c560b5f7151b038f49a9219b05d13c5305d14fd77859263aaf50f61",
            ),
            (
                "stored outcomes",
                "bf030298023e9c7e88ec881ff0ff717c1b7392015c5cf807eb105b463a954ae4",
            ),
            (
                "stored adjudications",
                "270465ab3310173a161434b038587155c142ef846518bebdd6a1fee805a5041a",
            ),
            (
                "stored holders",
                "d3d405cc2efe46d9cda238f9ce6c4e0958191b53d20a9122d796548f6f118f24",
            ),
            (
                "stored acceptances",
                "0d0d6dc1e55e3d03d042428d2722a3000a9537800f3fa420fed729304ce78d3f",
            ),
            (
                "acta",
                "0be9374d0279221c2c0c1e981b57dd034b9ff0b243f2fe3ddbd2f539940aed5a",
            ),
        ],
    );
}

#[test]
fn five_thousand_acceptances_that_fit_the_offer_give_the_pinned_result() {
    check(
        "nearest-adjust",
        50_000_000,
        &[
            (
                "dry-run fingerprint",
                "14c84db97c1eebc2fe1683f97336f50fee22265031bfbb4e622cd2384598a9d8",
            ),
            (
                "dry-run json",
                "0ada61e2a13098caaa66c86c022d7e550560ed56b8a6a089f9c66f43af77f713",
            ),
            (
                "dry-run csv",
                "399f294787af668e1e95b11c4b3f9fa4cf4c36034c257af5f6d21ddf7b81e934",
            ),
            (
                "dry-run table",
                "e0b9edfdda48d9b21645aa5c137c7981113b60ec35dcd847d077b6bf94f4c50f",
            ),
            (
                "run fingerprint",
                "14c84db97c1eebc2fe1683f97336f50fee22265031bfbb4e622cd2384598a9d8",
            ),
            (
                "run json",
                "61edd3d95057071750ed1506cda34daddd82af02f99eabbfd36057ee10c6d5b7",
            ),
            (
                "stored run",
                "8324885c844af9fffca9c09bdaad0c63b32307f29a81660efa19b5025f014f88",
            ),
            (
                "stored outcomes",
                "7226c3f1998b1bc2b4377333c329117d5186e7e91d5b51bd78ecfe55e87b8309",
            ),
            (
                "stored adjudications",
                "76c364d100cc49c8905ce3df6083db510555e4656b73deace3eaac96f547f64a",
            ),
            (
                "stored holders",
                "18815e65020e63eff9afdbf353687a0ab273fea80dce6e42ffe0ffa97aefb640",
            ),
            (
                "stored acceptances",
                "0d0d6dc1e55e3d03d042428d2722a3000a9537800f3fa420fed729304ce78d3f",
            ),
            (
                "acta",
                "28eca11780fdc495c40c674e136c6bfbfcc7348186cc6f1fd15767ddce2d0d93",
            ),
        ],
    );
}
