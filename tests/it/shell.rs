//! `vigia completions` and `vigia man`: produced from the command definitions, naming every
//! command (the list below is the README's, typed out, not read from clap).

use crate::common::{Reg, out};

/// Every top-level command, as the README's command list names them.
const COMMANDS: [&str; 25] = [
    "init",
    "demo",
    "program",
    "offer",
    "acceptances",
    "stage",
    "proposals",
    "adjudications",
    "pledge",
    "breach",
    "fine",
    "notice",
    "settlement",
    "holder",
    "payment",
    "rates",
    "check",
    "calendar",
    "template",
    "audit",
    "backup",
    "user",
    "serve",
    "completions",
    "man",
];

#[test]
fn completions_for_each_shell_name_every_command_and_bash_parses_them() {
    let r = Reg::without_register();
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let script = r.ok(&["completions", shell]);
        for c in COMMANDS {
            assert!(script.contains(c), "{shell}: no {c}");
        }
        // a nested command and its flags too
        assert!(script.contains("import-sfc"), "{shell}");
        assert!(script.contains("dry-run"), "{shell}");
    }
    let bash = r.ok(&["completions", "bash"]);
    assert!(bash.contains("complete -F _vigia"), "{bash}");
    let path = r.file("vigia.bash", bash.as_bytes());
    let check = std::process::Command::new("bash")
        .args(["-n", &path])
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", crate::common::err(&check));
    let e = r.fails(&["completions", "tcsh"]);
    assert!(
        e.contains("possible values: bash, zsh, fish, powershell"),
        "{e}"
    );
}

#[test]
fn the_manual_page_names_every_command_and_a_directory_gets_one_page_each() {
    let r = Reg::without_register();
    let page = r.ok(&["man"]);
    assert!(page.starts_with(".ie"), "{page}");
    assert!(page.contains(".TH vigia 1"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    // whatis(1) reads the NAME line: the name once, then what it is
    let name = page
        .lines()
        .skip_while(|l| *l != ".SH NAME")
        .nth(1)
        .unwrap();
    assert!(name.starts_with("vigia \\- register"), "{name}");
    assert!(!name.contains("vigia —"), "{name}");
    for c in COMMANDS {
        // roff escapes the hyphen: vigia\-rates(1)
        assert!(page.contains(&format!("vigia\\-{c}(1)")), "no {c}");
    }

    let dir = r.file("man1-placeholder", b"");
    let dir = std::path::Path::new(&dir).with_file_name("man1");
    std::fs::create_dir(&dir).unwrap();
    let d = dir.display().to_string();
    let said = r.ok(&["man", "--dir", &d]);
    assert!(
        said.ends_with(&format!(" manual page(s) written to {d}\n")),
        "{said}"
    );
    for name in COMMANDS.iter().map(|c| format!("vigia-{c}")).chain([
        "vigia".into(),
        "vigia-rates-import-sfc".into(),
        "vigia-fine-quote".into(),
    ]) {
        let p = dir.join(format!("{name}.1"));
        let text = std::fs::read_to_string(&p).unwrap_or_else(|_| panic!("no {name}.1"));
        assert!(text.contains(&format!(".TH {name} 1")), "{name}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{name}");
        }
    }
    // a second run replaces nothing unless asked
    let e = r.fails(&["man", "--dir", &d]);
    assert!(
        e.contains("vigia.1: a file already exists there; pass --force"),
        "{e}"
    );
    let e = r.fails(&["--lang", "es", "man", "--dir", &d]);
    assert!(
        e.contains("vigia.1: ya hay un archivo allí; agregue --force para reemplazarlo"),
        "{e}"
    );
    r.ok(&["man", "--dir", &d, "--force"]);
    // a directory not there yet is made (`man --dir ~/.local/share/man/man1` on a new
    // account), and the count said in Spanish
    let fresh = dir.with_file_name("share").join("man").join("man1");
    let said = r.ok(&["--lang", "es", "man", "--dir", fresh.to_str().unwrap()]);
    assert!(
        said.ends_with(&format!(
            " páginas de manual escritas en {}\n",
            fresh.display()
        )),
        "{said}"
    );
    assert!(fresh.join("vigia-rates-import-sfc.1").exists());
    // never through a symbolic link
    #[cfg(unix)]
    {
        let victim = r.file("victim", b"keep");
        std::fs::remove_file(dir.join("vigia-init.1")).unwrap();
        std::os::unix::fs::symlink(&victim, dir.join("vigia-init.1")).unwrap();
        let o = r.run(&["man", "--dir", &d, "--force"]);
        assert_eq!(o.status.code(), Some(2), "{}", out(&o));
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    }
}
