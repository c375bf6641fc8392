//! The one harness of the integration tests: the real binary run in a temporary directory that
//! holds everything a run writes (register, input files, reports, the binary's own temporary
//! files) and is removed when the test ends.

use rusqlite::Connection;
use serde_json::Value;
use std::ffi::OsStr;
use std::fmt::Debug;
use std::path::PathBuf;
use std::process::{Command, Output};

pub const PROGRAM: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/schema/programs/decreto-3939-2004.toml"
);
pub const HEADER: &str = "doc_type,doc_number,name,person_type,category,shares,price_per_share,adjudicated_on,lender,financed_shares\n";

/// A temporary directory the binary runs in, with a register (`Reg::new`) or without one
/// (`Reg::without_register`). Keep it alive for the whole test: dropping it removes the directory.
pub struct Reg {
    pub dir: tempfile::TempDir,
    register: bool,
}

impl Reg {
    /// A fresh register with the shipped program.
    pub fn new() -> Reg {
        let r = Reg {
            dir: tempfile::tempdir().unwrap(),
            register: true,
        };
        r.ok(&["init"]);
        r.ok(&["program", "add", PROGRAM]);
        r
    }

    /// A fresh register with the shipped program followed by `extra` (e.g. a `[letters.issuer]`
    /// table for the shipped program's `[letters]` section, which ends the file).
    pub fn with_program_tail(extra: &str) -> Reg {
        Reg::with_program(&(std::fs::read_to_string(PROGRAM).unwrap() + extra))
    }

    /// A fresh register with the program file `text` (the shipped one changed, say).
    pub fn with_program(text: &str) -> Reg {
        let r = Reg {
            dir: tempfile::tempdir().unwrap(),
            register: true,
        };
        r.ok(&["init"]);
        let path = r.file("program.toml", text.as_bytes());
        r.ok(&["program", "add", &path]);
        r
    }

    /// No register here nor anywhere the binary looks for one: `fine quote` and `rates` use the
    /// embedded series. `run` passes no `--db`.
    pub fn without_register() -> Reg {
        Reg {
            dir: tempfile::tempdir().unwrap(),
            register: false,
        }
    }

    /// Runs `vigia demo` here: the register it built (named on the story's first line, `… at
    /// PATH`; its documents and `audit.key` beside it).
    pub fn demo(&self) -> String {
        self.ok(&["demo"])
            .lines()
            .next()
            .and_then(|l| l.split(" at ").nth(1))
            .expect("the demo names its register")
            .to_string()
    }

    /// A copy of the register in `tests/fixtures/{fixture}` (one written by an earlier version):
    /// every file of the fixture copied into the directory (the register as `vigia.db`, its
    /// checkpoint log beside it), and its `audit.key` moved where the binary looks for the key.
    /// Only the copy is opened: opening a register runs its migrations.
    pub fn copy_of(fixture: &str) -> Reg {
        let r = Reg {
            dir: tempfile::tempdir().unwrap(),
            register: true,
        };
        let from = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(fixture);
        for f in std::fs::read_dir(from).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), r.dir.path().join(f.file_name())).unwrap();
        }
        let config = r.dir.path().join("vigia");
        std::fs::create_dir(&config).unwrap();
        let key = config.join("audit.key");
        std::fs::rename(r.dir.path().join("audit.key"), &key).unwrap();
        // private, as vigia made it (git keeps no such mode)
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
        r
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("vigia.db")
    }

    pub fn file(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    }

    /// The binary, confined to the directory: its working directory, its data directory (where
    /// the default register would be), its configuration directory (where the audit key would
    /// be) and its temporary directory; `VIGIA_DB` and `VIGIA_KEY` unset; English, as the
    /// snapshots were written, asked for by the locale (`VIGIA_LANG` unset, `LANG=en_US.UTF-8`,
    /// so that a test's locale still decides: `with_locale` to choose).
    pub fn command(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_vigia"));
        c.current_dir(self.dir.path())
            .env_remove("VIGIA_DB")
            .env("XDG_DATA_HOME", self.dir.path())
            .env("XDG_CONFIG_HOME", self.dir.path())
            .env_remove("VIGIA_KEY")
            .env("TMPDIR", self.dir.path())
            .env_remove("VIGIA_LANG")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env("LANG", "en_US.UTF-8");
        c
    }

    /// Runs as [`Reg::run`] with the language's variables set to `env` (`LANG`, `LC_ALL`,
    /// `VIGIA_LANG`…) over the harness's English.
    pub fn with_locale<S: AsRef<OsStr> + Debug>(&self, env: &[(&str, &str)], args: &[S]) -> Output {
        let mut c = self.command();
        c.envs(env.iter().copied());
        if self.register {
            c.arg("--db").arg(self.db()).args(["--officer", "tester"]);
        }
        c.args(args).output().unwrap()
    }

    /// Runs with `--db` and `--officer tester` when there is a register.
    pub fn run<S: AsRef<OsStr> + Debug>(&self, args: &[S]) -> Output {
        let mut c = self.command();
        if self.register {
            c.arg("--db").arg(self.db()).args(["--officer", "tester"]);
        }
        c.args(args).output().unwrap()
    }

    /// Runs, expects exit 0, returns stdout.
    pub fn ok<S: AsRef<OsStr> + Debug>(&self, args: &[S]) -> String {
        let o = self.run(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}\nstdout: {}\nstderr: {}",
            out(&o),
            err(&o)
        );
        out(&o)
    }

    /// Runs, expects exit 2 and an empty stdout, returns stderr.
    pub fn fails<S: AsRef<OsStr> + Debug>(&self, args: &[S]) -> String {
        let o = self.run(args);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}\nstdout: {}\nstderr: {}",
            out(&o),
            err(&o)
        );
        assert!(o.stdout.is_empty(), "stdout on error: {}", out(&o));
        err(&o)
    }

    pub fn json<S: AsRef<OsStr> + Debug>(&self, args: &[S]) -> Value {
        serde_json::from_str(&self.ok(args)).unwrap()
    }

    pub fn conn(&self) -> Connection {
        Connection::open(self.db()).unwrap()
    }

    /// Every row of every table, for "nothing changed" comparisons.
    pub fn dump(&self) -> Vec<String> {
        dump(&self.conn())
    }

    /// Imports the standard test holders: adjudication 1 (1,000 shares, 2024-03-15), 2 (financed),
    /// 3 (a union, NIT).
    /// The letterhead notices and paz y salvo certificates need (issue 20: register data, set
    /// with `program letters set`), every part of it.
    pub fn with_letterhead(self) -> Reg {
        self.ok(&[
            "program",
            "letters",
            "set",
            "D3939-2004",
            "--entity",
            "Administradora de Prueba S.A.S.",
            "--return-address",
            "Carrera 7 # 71-21",
            "--bank",
            "Banco de Prueba",
            "--account",
            "cuenta corriente No. 000-00000-0",
            "--signatory-name",
            "Firmante de Prueba",
            "--signatory-position",
            "Representante legal",
        ]);
        self
    }

    /// The letterhead as the program file's `[letters.issuer]` gives it: the starting values of
    /// the first `program letters set`, which copies them when given nothing else.
    pub fn with_file_letterhead(self) -> Reg {
        self.ok(&["program", "letters", "set", "D3939-2004"]);
        self
    }

    pub fn with_holders(self) -> Reg {
        let csv = format!(
            "{HEADER}CC,1000000001,Ana Prueba,natural,trabajador,1000,,2024-03-15,,\n\
             CC,1000000002,Luis Prueba,natural,pensionado,2500,,2024-03-15,Banco Ejemplo,2500\n\
             NIT,999000001-2,Sindicato de Prueba,legal,sindicato,50000,963.00,2024-03-15,,\n"
        );
        let path = self.file("holders.csv", csv.as_bytes());
        self.ok(&["adjudications", "import", &path, "--program", "D3939-2004"]);
        self
    }
}

pub fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn dump(conn: &Connection) -> Vec<String> {
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut rows = Vec::new();
    for t in tables {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM {t} ORDER BY 1"))
            .unwrap();
        let n = stmt.column_count();
        let mut q = stmt.query([]).unwrap();
        while let Some(r) = q.next().unwrap() {
            let cells: Vec<String> = (0..n)
                .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                .collect();
            rows.push(format!("{t}: {}", cells.join(" | ")));
        }
    }
    rows
}

/// A `fine quote` the fine engine refuses after parsing: a breach dated the day before the
/// adjudication (what the language tests have refused in each language).
pub const QUOTE_BREACH_BEFORE_ADJUDICATION: [&str; 12] = [
    "fine",
    "quote",
    "--adjudicated",
    "2024-03-15",
    "--breach-date",
    "2024-03-14",
    "--shares",
    "10",
    "--acquisition-price",
    "963",
    "--until",
    "2025-02-10",
];
