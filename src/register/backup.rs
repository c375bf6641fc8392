//! What goes beside a backup's copy of the register: the lines of the checkpoint log the copy's
//! audit chain reaches (a checkpoint signed after the copy's snapshot would make the copy look
//! truncated), as they are (verifying the copy checks their signatures; no key is needed).

/// The complete lines of the checkpoint log `text` whose checkpoint counts at most `events`
/// audit events (a line that cannot be read is kept as it is: verifying the copy reports it),
/// and how many there are. A last line without its newline is being appended: left out.
pub fn checkpoints_reached(text: &str, events: i64) -> (String, usize) {
    let mut kept = String::new();
    let mut n = 0;
    for line in text.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
        let reached = serde_json::from_str::<crate::store::checkpoint::Checkpoint>(line)
            .map(|c| c.count <= events)
            .unwrap_or(true);
        if reached {
            kept.push_str(line);
            n += 1;
        }
    }
    (kept, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(count: i64) -> String {
        let c = crate::store::checkpoint::Checkpoint {
            count,
            head: "0".repeat(64),
            at: "2026-12-03T00:00:00Z".into(),
            key: "k".into(),
            signature: "s".into(),
        };
        serde_json::to_string(&c).unwrap() + "\n"
    }

    #[test]
    fn only_the_checkpoints_the_copy_reaches_are_kept() {
        let text = format!("{}{}garbled\n{}", line(3), line(9), line(4).trim_end());
        // 3 is reached, 9 is not, the garbled line is kept, the unfinished last line is not
        assert_eq!(
            checkpoints_reached(&text, 5),
            (format!("{}garbled\n", line(3)), 2)
        );
        assert_eq!(checkpoints_reached(&line(5), 5), (line(5), 1));
    }
}
