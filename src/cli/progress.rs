//! A progress bar on standard error for the long commands (the check, a batch of notices, the
//! imports of adjudications, pledges, acceptances and proposals, the first stage's adjudication):
//! percentage, rate and time left, redrawn in place and cleared at the end. It is drawn only when
//! standard error is a terminal (indicatif's stderr target): under cron, in a pipe or in the tests
//! it writes nothing, and it never reaches standard output.

use crate::catalogue::msg::Msg;
use crate::lang::Lang;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// What a bar counts (its label is the catalogue's).
pub use crate::catalogue::msg::Counting;

/// A bar counting towards a known total.
pub struct Progress(ProgressBar);

impl Progress {
    /// `what` is counted towards `total`.
    pub fn new(what: Counting, total: u64, lang: Lang) -> Progress {
        let catalogue = crate::catalogue::of(lang);
        let (what, left) = (
            catalogue.msg(&Msg::Counting(what)),
            catalogue.msg(&Msg::Left),
        );
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template = format!(
            "{{msg}} [{{bar:30}}] {{percent:>3}}% {{pos}}/{{len}} · {{per_sec}} · {left} {{eta}}"
        );
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(what);
        Progress(bar)
    }

    /// `n` counted so far.
    pub fn at(&self, n: u64) {
        self.0.set_position(n);
    }

    /// A counter of `n` more, drawn every 4096 (an import's rows: the bar is not redrawn per row).
    pub fn counter(&self) -> impl FnMut() + '_ {
        let mut n = 0u64;
        move || {
            n += 1;
            if n.is_multiple_of(4096) {
                self.0.set_position(n);
            }
        }
    }

    /// The bar is cleared: what the command prints comes on a clean line.
    pub fn done(self) {
        self.0.finish_and_clear();
    }
}

/// The rows of a text file to import: its lines but the header (a last line without its line
/// break counts), the total an import's bar counts towards.
pub fn rows_of(bytes: &[u8]) -> u64 {
    let breaks = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    let last = u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
    (breaks + last).saturating_sub(1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn rows_are_the_lines_but_the_header() {
        assert_eq!(super::rows_of(b"a,b\n1,2\n3,4\n"), 2);
        assert_eq!(super::rows_of(b"a,b\n1,2\n3,4"), 2);
        assert_eq!(super::rows_of(b"a,b\n"), 0);
        assert_eq!(super::rows_of(b""), 0);
    }
}
