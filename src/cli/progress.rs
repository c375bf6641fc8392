//! A progress bar on standard error for the long commands (the check, a batch of notices):
//! percentage, rate and time left, redrawn in place and cleared at the end. It is drawn only when
//! standard error is a terminal (indicatif's stderr target): under cron, in a pipe or in the tests
//! it writes nothing, and it never reaches standard output.

use crate::lang::Lang;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar counting towards a known total.
pub struct Progress(ProgressBar);

impl Progress {
    /// `what` is counted (`adjudications read`, `notices issued`), towards `total`.
    pub fn new(what: &str, total: u64, lang: Lang) -> Progress {
        let left = match lang {
            Lang::En => "left",
            Lang::Es => "faltan",
        };
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template = format!(
            "{{msg}} [{{bar:30}}] {{percent:>3}}% {{pos}}/{{len}} · {{per_sec}} · {left} {{eta}}"
        );
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(what.to_string());
        Progress(bar)
    }

    /// `n` counted so far.
    pub fn at(&self, n: u64) {
        self.0.set_position(n);
    }

    /// The bar is cleared: what the command prints comes on a clean line.
    pub fn done(self) {
        self.0.finish_and_clear();
    }
}
