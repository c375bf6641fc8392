//! English sentences of the web area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::web`, has the same functions).

pub fn no_longer_awaits_notice_one_was() -> String {
    "no longer awaits a notice (one was issued, or the fine was settled, since the list was shown)"
        .to_string()
}

pub fn not_whole_number_of_shares_write(s: &(impl std::fmt::Debug + std::fmt::Display)) -> String {
    format!("{s:?} is not a whole number of shares: write the shares, e.g. 1.000")
}
