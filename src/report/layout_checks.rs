//! What a document checked against an acta rendered again in each of its layouts comes to
//! (`offer verify` and `stage verify`, on the command line and the web): an acta records no
//! layout, so it is compared with a rendering in each, the current one first. Comparison only.

use super::lines::Difference;

/// What a document checked against the acta in each layout (the current layout first) comes to:
/// verified once a layout gives its text; otherwise the difference with the layout that agrees
/// with it longest (the current one on a tie), so that an acta written before and changed since
/// is named where it was changed, not at its first rejection (in the stage acta, whose code
/// the current layout words).
#[derive(Debug, Default)]
pub struct LayoutChecks {
    matched: bool,
    nearest: Option<Difference>,
}

impl LayoutChecks {
    /// One layout's difference (`None`: the document is its text); true once a layout matched,
    /// the others need not be tried.
    pub fn add(&mut self, d: Option<Difference>) -> bool {
        match d {
            None => self.matched = true,
            Some(d) => {
                let agrees = |d: &Difference| match d {
                    Difference::Line { nth, .. } => nth.saturating_sub(1),
                    Difference::Count { document, register } => (*document).min(*register),
                };
                if self.nearest.as_ref().is_none_or(|n| agrees(&d) > agrees(n)) {
                    self.nearest = Some(d);
                }
            }
        }
        self.matched
    }

    /// `None` when a layout matched, else the difference to name.
    pub fn difference(self) -> Option<Difference> {
        if self.matched { None } else { self.nearest }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_is_named_in_the_layout_that_agrees_longest() {
        let line = |line: usize| {
            Some(Difference::Line {
                nth: line,
                at: super::super::lines::Place::Text(line),
                document: format!("d{line}"),
                register: format!("r{line}"),
            })
        };
        // an earlier acta changed at its line 40: the current layout departs at 12 (a cause's
        // words), the earlier at 40, the change
        let mut c = LayoutChecks::default();
        assert!(!c.add(line(12)) && !c.add(line(40)));
        assert_eq!(c.difference(), line(40));
        // a current acta changed at line 9: both depart there, the current layout is named
        let mut c = LayoutChecks::default();
        assert!(!c.add(line(9)));
        assert!(!c.add(Some(Difference::Line {
            nth: 9,
            at: super::super::lines::Place::Text(9),
            document: "d9".into(),
            register: "earlier".into(),
        })));
        assert_eq!(c.difference(), line(9));
        // lines missing at the end agree as far as the shorter goes
        let mut c = LayoutChecks::default();
        c.add(line(30));
        c.add(Some(Difference::Count {
            document: 50,
            register: 52,
        }));
        assert_eq!(
            c.difference(),
            Some(Difference::Count {
                document: 50,
                register: 52
            })
        );
        // a layout that gives its text: verified, whatever the other said
        let mut c = LayoutChecks::default();
        assert!(!c.add(line(3)));
        assert!(c.add(None));
        assert_eq!(c.difference(), None);
    }
}
