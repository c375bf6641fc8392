//! English sentences of the register_stage area, one function per sentence: the facts it names
//! come in as parameters (the Spanish catalogue, `said::es::register_stage`, has the same functions).

pub fn already_answered_invitation_with_bidder_answers(
    offered: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!("already answered the invitation with {offered} on {at}; a bidder answers once")
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn already_open_shares_by_next_tranche(
    shares: &impl std::fmt::Display,
    opens: &impl std::fmt::Display,
    closes: &impl std::fmt::Display,
    by: &impl std::fmt::Display,
    next: &impl std::fmt::Display,
    _shares_es: &impl std::fmt::Display,
    _opens_es: &impl std::fmt::Display,
    _closes_es: &impl std::fmt::Display,
) -> String {
    format!(
        "is already open ({shares} shares, {opens} to {closes}, by {by}); the next tranche is {next}"
    )
}

pub fn already_registered_proposal_proposals_import_one(
    id: &impl std::fmt::Display,
    import: &impl std::fmt::Display,
) -> String {
    format!(
        "is already registered (proposal {id}, proposals import {import}): one proposal, one reference"
    )
}

pub fn before_opening(
    opens: &impl std::fmt::Display,
    _opens_es: &impl std::fmt::Display,
) -> String {
    format!("is before the opening on {opens}")
}

pub fn file_holds_no_proposal() -> String {
    "the file holds no proposal".to_string()
}

pub fn first_stage_has_not_been_adjudicated(code: &impl std::fmt::Display) -> String {
    format!(
        "the first stage of {code} has not been adjudicated: the Second Stage offers what it leaves \
                     (Art. 13); adjudicate the first stage's offer first or, if it was concluded outside vigia, \
                     record that adjudication"
    )
}

pub fn first_stage_placed_every_share_adjudicated(
    code: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the first stage of {code} placed every share (adjudicated on {on}): nothing is left for a Second Stage"
    )
}

pub fn improvement_round_tranche_closed_when_tie(
    tranche: &impl std::fmt::Display,
    at: &impl std::fmt::Display,
    draw: &impl std::fmt::Display,
    _at_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the improvement round of tranche {tranche} closed when the tie was drawn on {at} (draw {draw})"
    )
}

pub fn must_at_least_1_tranche_offers() -> String {
    "must be at least 1: a tranche offers shares".to_string()
}

pub fn must_greater_than_zero() -> String {
    "must be greater than zero".to_string()
}

pub fn must_public_entropy_named_e_g() -> String {
    "must be the public entropy named (e.g. a lottery's result), without '|' or control characters"
        .to_string()
}

pub fn no_certified_rate_force_tranche_closes(
    closes: &impl std::fmt::Display,
    tranche: &impl std::fmt::Display,
    _closes_es: &impl std::fmt::Display,
) -> String {
    format!(
        "no certified rate is in force on {closes} (tranche {tranche} closes then) and the program's criterion \
                         discounts at the IBC in force on the closing date: add its certification"
    )
}

pub fn no_tranche_stage_has_valid_proposal(
    name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
) -> String {
    format!("no tranche of the {name} Stage of {code} has a valid proposal: declare it void")
}

pub fn not_proposal_stage(
    name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
) -> String {
    format!("is not a proposal of the {name} Stage of {code}")
}

pub fn only_proposals_tied_at_best_value(
    why: &impl std::fmt::Display,
    _porque: &impl std::fmt::Display,
) -> String {
    format!("only proposals tied at the best value are invited to improve: {why}")
}

pub fn payment_date_falls_outside_calendar() -> String {
    "the payment date falls outside the calendar".to_string()
}

pub fn previous_stage_ended_decide_later_day(
    since: &impl std::fmt::Display,
    _since_es: &impl std::fmt::Display,
) -> String {
    format!("the previous stage ended on {since}: decide on a later day")
}

pub fn program_provides_stages_2_after_first(
    code: &impl std::fmt::Display,
    last: &impl std::fmt::Display,
) -> String {
    format!("program {code} provides for stages 2 to {last} after the first")
}

pub fn proposals_stage_were_read_tie_round(
    name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the proposals of the {name} Stage of {code} were read and a tie round has begun: later proposals cannot \
             be considered"
    )
}

pub fn rate_period_gives_no_inter_s(
    from: &impl std::fmt::Display,
    to: &impl std::fmt::Display,
    _from_es: &impl std::fmt::Display,
    _to_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the rate period {from}..{to} gives no interés bancario corriente; the program's criterion needs it"
    )
}

pub fn stage_can_offer_more_share_s(
    left: &impl std::fmt::Display,
    all: &impl std::fmt::Display,
    held: &impl std::fmt::Display,
    _left_es: &impl std::fmt::Display,
    _all_es: &impl std::fmt::Display,
    _tienen: &impl std::fmt::Display,
) -> String {
    format!("the stage can offer {left} more share(s): the previous stage left {all}{held}")
}

pub fn stage_follows_previous_one_which_ended(
    since: &impl std::fmt::Display,
    _since_es: &impl std::fmt::Display,
) -> String {
    format!("the stage follows the previous one, which ended on {since}: open it on a later day")
}

pub fn stage_has_no_open_tranche_open(
    name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the {name} Stage of {code} has no open tranche; open one first, with its shares and its opening and \
                 closing dates"
    )
}

pub fn stage_has_no_open_tranche_proposals(
    name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the {name} Stage of {code} has no open tranche: proposals answer a public invitation (Art. 13); open a \
                 tranche first, with its shares and its opening and closing dates"
    )
}

pub fn stage_has_no_recorded_draw(
    name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
) -> String {
    format!("the {name} Stage of {code} has no recorded draw")
}

pub fn stage_has_no_such_tranche(
    name: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
) -> String {
    format!("the {name} Stage has no such tranche")
}

pub fn stage_has_not_been_adjudicated_nor(
    name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
) -> String {
    format!("the {name} Stage of {code} has not been adjudicated nor declared void")
}

pub fn stage_has_not_ended_third_stage(
    prev_name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    _prev_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the {prev_name} Stage of {code} has not ended: the Third Stage offers what it did not sell (Art. 16); \
             adjudicate it or declare it void first"
    )
}

pub fn stage_has_tranche_s_1_open(
    name: &impl std::fmt::Display,
    n: &usize,
    _nombre: &impl std::fmt::Display,
) -> String {
    if *n == 1 {
        format!("the {name} Stage has tranche 1: open this one first")
    } else {
        format!("the {name} Stage has tranches 1 to {n}: open this one first")
    }
}

#[allow(
    clippy::too_many_arguments,
    reason = "one parameter per fact the sentence names"
)]
pub fn stage_offers_totality_what_previous_stage(
    name: &impl std::fmt::Display,
    all: &impl std::fmt::Display,
    offered: &impl std::fmt::Display,
    missing: &impl std::fmt::Display,
    next: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
    _all_es: &impl std::fmt::Display,
    _offered_es: &impl std::fmt::Display,
    _missing_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the {name} Stage offers the totality of what the previous stage left (Arts. 13, 16): {all} shares, but its \
                 tranches hold {offered}; open the other {missing} as tranche {next}"
    )
}

pub fn stage_receives_proposals_until_tranche_decide(
    name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    closes: &impl std::fmt::Display,
    tranche: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
    _closes_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the {name} Stage of {code} receives proposals until {closes} (tranche {tranche}): decide on a later day"
    )
}

pub fn stage_sold_every_share_nothing_left(
    prev_name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    stage: &impl std::fmt::Display,
    _prev_es: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the {prev_name} Stage of {code} sold every share on {on}: nothing is left for stage {stage}"
    )
}

pub fn stage_was_art_3_stage_exhausted(
    name: &impl std::fmt::Display,
    code: &impl std::fmt::Display,
    how: &impl std::fmt::Display,
    on: &impl std::fmt::Display,
    _name_es: &impl std::fmt::Display,
    _como: &impl std::fmt::Display,
    _on_es: &impl std::fmt::Display,
) -> String {
    format!(
        "the {name} Stage of {code} was {how} on {on} (Art. 3: the stage is exhausted); nothing more can be done in it"
    )
}

pub fn tranche_has_no_tie_draw_has(
    tranche: &impl std::fmt::Display,
    best: &impl std::fmt::Display,
) -> String {
    format!("tranche {tranche} has no tie to draw: {best} has the best value")
}

pub fn tranche_has_no_valid_proposal_nothing(tranche: &impl std::fmt::Display) -> String {
    format!("tranche {tranche} has no valid proposal: nothing to draw")
}

pub fn tranche_has_valid_proposal_stage_with(
    tranche: &impl std::fmt::Display,
    best: &impl std::fmt::Display,
) -> String {
    format!(
        "tranche {tranche} has a valid proposal ({best}): a stage with a valid proposal is adjudicated, not \
                 declared void"
    )
}

pub fn tranche_tied_between_at_best_value(
    tranche: &impl std::fmt::Display,
    tied: &impl std::fmt::Display,
) -> String {
    format!(
        "tranche {tranche} is tied between {tied} at the best value: invite them to improve and decide a \
                         persisting tie by lot before adjudicating"
    )
}

pub fn tranche_was_already_drawn_draw_seed(
    tranche: &impl std::fmt::Display,
    draw: &impl std::fmt::Display,
    seed: &(impl std::fmt::Debug + std::fmt::Display),
    winner: &impl std::fmt::Display,
) -> String {
    format!(
        "tranche {tranche} was already drawn (draw {draw}, seed {seed:?}, winner {winner}); check that draw \
                 instead of repeating it"
    )
}

pub fn tranches_opened_order_next_one(next: &impl std::fmt::Display) -> String {
    format!("tranches are opened in order: the next one is {next}")
}
