//! The acta of an adjudication is rendered after the commit, from the stored run, without the
//! register's write lock (issue 23): another officer's write goes through while the acta is
//! being written, and the acta written meanwhile is still the run's.

use crate::common::HEADER;
use crate::offering_scale::{TEST_PROGRAM, acceptances};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The size of the hidden temporary file an acta is written into, while there is one.
fn staged_bytes(dir: &Path) -> Option<u64> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().starts_with(".vigia-tmp-"))
        .and_then(|e| e.metadata().ok())
        .map(|m| m.len())
}

fn signal(sig: &str, pid: u32) {
    let ok = Command::new("kill")
        .arg(sig)
        .arg(pid.to_string())
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} {pid}");
}

#[test]
fn another_officer_writes_while_the_pdf_acta_of_a_run_is_being_rendered() {
    let r = crate::offering::opened(&std::fs::read_to_string(TEST_PROGRAM).unwrap());
    let csv = r.file("acc.csv", acceptances(5_000).as_bytes());
    r.ok(&["acceptances", "import", &csv, "--program", "EBSA-TEST"]);
    let pdf = r.dir.path().join("acta.pdf");
    let mut run = r.command();
    run.arg("--db").arg(r.db()).args(["--officer", "tester"]);
    run.args([
        "offer",
        "adjudicate",
        "EBSA-TEST",
        "--on",
        "2024-03-20",
        "--acta",
    ])
    .arg(&pdf)
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    let mut child = run.spawn().unwrap();
    // the acta's temporary file is reserved inside the transaction, empty; its pages are
    // written by the layout's second pass: bytes in it mean the run is committed and the acta
    // is being rendered. The run is stopped there.
    let start = Instant::now();
    loop {
        if staged_bytes(r.dir.path()).is_some_and(|n| n > 0) {
            signal("-STOP", child.id());
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before its acta was seen being written");
        }
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "no acta written"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    // stopped mid-rendering: the acta is not in place yet
    assert!(
        !pdf.exists(),
        "the acta was already placed: the test saw nothing"
    );
    assert!(staged_bytes(r.dir.path()).is_some());
    // another officer imports an adjudication of another program meanwhile: a write that
    // would wait for the lock (and fail "busy" after the busy timeout) if the run held it
    let one = r.file(
        "one.csv",
        format!("{HEADER}CC,7000000001,Otra Oficina,natural,trabajador,10,,2024-03-15,,\n")
            .as_bytes(),
    );
    let t = Instant::now();
    let other = r.run(&["adjudications", "import", &one, "--program", "D3939-2004"]);
    let waited = t.elapsed();
    // the run is still stopped mid-rendering while the other write committed
    let still_rendering = !pdf.exists();
    signal("-CONT", child.id());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        other.status.success(),
        "the other officer's write failed while the acta was rendered: {}",
        String::from_utf8_lossy(&other.stderr)
    );
    assert!(still_rendering);
    assert!(
        waited < Duration::from_secs(20),
        "the other write waited {waited:?}"
    );
    let imported: i64 = r
        .conn()
        .query_row(
            "SELECT count(*) FROM adjudications a JOIN holders h ON h.id = a.holder_id \
             WHERE h.doc_number = '7000000001'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(imported, 1);
    // the acta written around the other write is the run's
    let v = r.ok(&["offer", "verify", pdf.to_str().unwrap()]);
    assert!(
        v.starts_with("verified: acta of adjudication 1 of EBSA-TEST"),
        "{v}"
    );
}
