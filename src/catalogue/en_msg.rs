//! The English of [`Msg`]: the success lines as the command line has always printed them
//! (scripts rely on them): dates ISO, amounts es-CO (`$ 1.087.500`).

use super::msg::{Counting, Criterion, Deadline, Msg, ReadAs, Rows, Step, TrancheOutcome, Worth};
use crate::money::format_cop;

/// A command's success line in English.
pub fn msg(m: &Msg<'_>) -> String {
    match m {
        Msg::RegisterReady {
            created,
            path,
            schema,
        } => {
            let verb = if *created {
                "created"
            } else {
                "already exists"
            };
            format!("register {verb}: {path} (schema version {schema})")
        }
        Msg::AuditKey { created, path, id } => {
            let verb = if *created { "created" } else { "in use" };
            format!("audit key {verb}: {path} (id {id}); keep it away from the register")
        }
        Msg::CheckpointLogCreated { path, line, events } => {
            format!("checkpoint log created: {path} (checkpoint {line}: {events} events)")
        }
        Msg::CheckpointLogMissing { path, events } => format!(
            "CHECKPOINT LOG MISSING: {path} (the register has {events} events): none was started; \
             restore it from a backup, and run `vigia audit verify`"
        ),
        Msg::OutsideValidity { validity } => format!(
            "outside the program's validity ({}): the reason given is recorded with it",
            validity.en()
        ),
        Msg::BreachRecorded {
            id,
            kind,
            shares,
            date,
            adjudication,
        } => format!(
            "breach {id} recorded: {} of {shares} shares on {date} (adjudication {adjudication})",
            kind.as_str()
        ),
        Msg::BreachVoided { id, void } => {
            format!("breach {id} voided (void {void}); it stays on record")
        }
        Msg::PaymentRecorded {
            id,
            amount,
            date,
            breach,
        } => format!(
            "payment {id}: {} on {date} against breach {breach}",
            format_cop(*amount)
        ),
        Msg::PaymentVoided { id, void } => {
            format!("payment {id} voided (void {void}); it stays on record and no figure counts it")
        }
        Msg::AdjudicationVoided { id, void } => format!(
            "adjudication {id} voided (void {void}); it stays on record, no figure counts it, and its award may be imported again"
        ),
        Msg::PledgeAlready {
            id,
            adjudication,
            rank,
            registered,
        } => format!(
            "pledge {id} of adjudication {adjudication} (rank {rank}, registered {registered}) is already registered: nothing added"
        ),
        Msg::PledgeRegistered {
            id,
            shares,
            adjudication,
            rank,
            to,
            registered,
        } => format!(
            "pledge {id}: {shares} shares of adjudication {adjudication}, rank {rank}, to {to}, registered {registered}"
        ),
        Msg::PledgeReleased {
            pledge,
            on,
            release,
        } => format!("released pledge {pledge} on {on} (release id {release})"),
        Msg::PledgesReleased {
            adjudications,
            on,
            first,
            last,
        } => format!(
            "released the pledges of {adjudications} adjudication(s) on {on} (release ids {first}..{last})"
        ),
        Msg::NoPledgeReleasable { on } => format!("no pledge can be released on {on}"),
        Msg::PledgesOfReleased {
            adjudication,
            on,
            ids,
        } => format!(
            "released the pledge(s) of adjudication {adjudication} on {on} (release ids {ids:?})"
        ),
        Msg::PledgeVoided { id, void } => {
            format!("pledge {id} voided (void {void}); it stays on record and no rule counts it")
        }
        Msg::Imported {
            rows,
            import,
            added,
            ids,
            new_holders,
            stage,
            read,
        } => {
            let read = read_as(*read);
            let ids_of = |(a, b): (i64, i64)| format!("{a}..{b}");
            match rows {
                Rows::Adjudications => format!(
                    "import {import}: {added} adjudication(s) added{}, {new_holders} new holder(s); {read}",
                    ids.map_or(String::new(), |i| format!(" (ids {})", ids_of(i)))
                ),
                Rows::Acceptances => format!(
                    "acceptances import {import}: {added} acceptance(s) added (ids {}); {read}",
                    ids.map_or("0..-1".into(), ids_of)
                ),
                Rows::Proposals => {
                    let (stage, program) = stage.unwrap_or((0, ""));
                    format!(
                        "proposals import {import}: {added} proposal(s) added to stage {stage} of {program} (ids {}); {read}",
                        ids.map_or("0..-1".into(), ids_of)
                    )
                }
                Rows::Pledges => format!(
                    "pledge import {import}: {added} pledge(s) registered{}; {read}",
                    ids.map_or(String::new(), |i| format!(" (ids {})", ids_of(i)))
                ),
            }
        }
        Msg::Unchanged { rows, count, first } => {
            let what = match rows {
                Rows::Adjudications => "adjudication",
                Rows::Acceptances => "acceptance",
                Rows::Proposals => "proposal",
                Rows::Pledges => "pledge",
            };
            let named: Vec<String> = first
                .iter()
                .map(|(line, id)| format!("line {line} ({what} {id})"))
                .collect();
            let more = count.saturating_sub(first.len() as u64);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            format!(
                "{count} row(s) already registered as they are, unchanged: {}{more}",
                named.join(", ")
            )
        }
        Msg::AlreadyImported {
            rows,
            path,
            import,
            at,
            by,
        } => {
            let kind = match rows {
                Rows::Adjudications => "import",
                Rows::Acceptances => "acceptances import",
                Rows::Proposals => "proposals import",
                Rows::Pledges => "pledge import",
            };
            format!(
                "{} was already imported as {kind} {import} on {at} by {by}: nothing added",
                path.display()
            )
        }
        Msg::NoticeIssued {
            number,
            breach,
            liquidation,
            total,
            until,
            deadline,
            path,
        } => {
            let pay = match deadline {
                Deadline::FromDelivery(d) => format!(
                    "no deadline until its delivery is recorded (delivered on its date, pay by {d})"
                ),
                Deadline::By(d) => format!("pay by {d}"),
            };
            format!(
                "notice {number} issued for breach {breach}: liquidation {liquidation}, total {} as of {until}, {pay} -> {path}",
                format_cop(*total)
            )
        }
        Msg::NoticesIssued { count, dir, index, skipped } => {
            let left = super::msg::left_out(skipped, "; left out: ", WHY_LEFT_OUT, &|n| n.to_string());
            format!("{count} notice(s) issued in {dir}; index: {index}{left}")
        }
        Msg::NoticesLeftOut { skipped } => {
            super::msg::left_out(skipped, "Left out: ", WHY_LEFT_OUT, &|n| n.to_string())
        }
        Msg::RenderedAgain { number, ext, path } => {
            format!("{number} rendered again as {ext} (same number, date and figures) -> {path}")
        }
        Msg::NoticeDelivered {
            number,
            on,
            via,
            term_days,
            due,
        } => {
            let term = match term_days {
                Some(days) => format!(
                    "the payment term ({days} business days) now runs from delivery: pay by {due}"
                ),
                None => {
                    format!(
                        "the program counts the payment term from the notice's date: pay by {due}"
                    )
                }
            };
            format!("notice {number} delivered on {on} by {via}; {term}")
        }
        Msg::SettlementIssued {
            number,
            breach,
            liquidation,
            payments,
            paid,
            until,
            path,
        } => format!(
            "paz y salvo {number} issued for breach {breach}: liquidation {liquidation}, {payments} payment(s) of {} in all, nothing outstanding as of {until} -> {path}",
            format_cop(*paid)
        ),
        Msg::HolderUpdated {
            doc_type,
            doc_number,
            name,
            version,
            address,
            city,
            email,
        } => format!(
            "holder {doc_type} {doc_number} ({name}): contact version {version}: address {}, city {}, e-mail {}",
            address.unwrap_or("-"),
            city.unwrap_or("-"),
            email.unwrap_or("-")
        ),
        Msg::ProgramAdded { code, id, new } => {
            let note = if *new {
                "added"
            } else {
                "already registered with the same contents; nothing added"
            };
            format!("program {code} (id {id}) {note}")
        }
        Msg::StagePriceSet {
            id,
            code,
            stage,
            replaced,
            replaced_none,
        } => {
            let set = match stage {
                Some((s, p)) => format!(
                    "stage price record {id}: program {code}, stage {s}, {} per share",
                    format_cop(*p)
                ),
                None => format!(
                    "stage price record {id}: program {code} has no later stage; the stage price is absent"
                ),
            };
            if *replaced_none {
                format!("{set} (a correction: it replaces the record that no later stage happened)")
            } else if replaced.is_empty() {
                set
            } else {
                let was: Vec<String> = replaced
                    .iter()
                    .map(|(s, p)| format!("stage {s}'s {}", format_cop(*p)))
                    .collect();
                format!("{set} (a correction: it replaces {})", was.join(" and "))
            }
        }
        Msg::LetterheadSet {
            code,
            version,
            lacks,
        } => format!(
            "program {code}: letterhead version {version} set{}",
            if lacks.is_empty() {
                "; notices and paz y salvo certificates can be issued".to_string()
            } else {
                format!("; a notice still needs {}", lacks.join(", "))
            }
        ),
        Msg::NoLetterhead { code } => format!(
            "program {code} has no letterhead in the register yet: notices and paz y salvo \
             certificates are refused until `vigia program letters set {code}` records one"
        ),
        Msg::UserAdded { name, id, role } => {
            format!("user {name} (id {id}) added with role {role}")
        }
        Msg::UserDisabled { name } => format!("user {name} disabled; it stays on record"),
        Msg::PasswordChanged { name } => format!("password of {name} changed"),
        Msg::BackupWritten {
            path,
            bytes,
            events,
            head,
        } => {
            let head = match head {
                Some(h) => format!("chain head {h}"),
                None => "no chain head".into(),
            };
            format!("backup written to {path}: {bytes} bytes, {events} audit event(s), {head}")
        }
        Msg::CheckpointsCopied { path, count } => {
            format!(
                "checkpoint log copied to {path}: {count} checkpoint(s) the copy's chain reaches"
            )
        }
        Msg::TemplateWritten { path } => format!(
            "template written to {path}: fill in one row per line below the Spanish headers (delete the \
             example row), then import it"
        ),
        Msg::OfferOpened {
            id,
            code,
            opens,
            closes,
            earliest,
        } => format!(
            "offer {id} of {code} opened: notice on {opens}, acceptances until {closes} (earliest close allowed: {})",
            earliest.map_or_else(|| "-".into(), |d| d.to_string())
        ),
        Msg::OfferRun {
            run,
            code,
            ids,
            new_holders,
            fingerprint,
        } => format!(
            "run {run} of {code}: {} adjudication(s) written{}, {new_holders} new holder(s); fingerprint {fingerprint}",
            ids.map_or(0, |(a, b)| b - a + 1),
            ids.map_or_else(String::new, |(a, b)| format!(" (ids {a}..{b})"))
        ),
        Msg::ActaWritten { path } => format!("acta -> {path}"),
        Msg::ActaOfRun { run, code, path } => format!("acta of run {run} of {code} -> {path}"),
        Msg::RateAdded {
            id,
            from,
            to,
            moratorium,
            resolution,
        } => format!("rate {id}: {from}..{to} moratorium {moratorium} % EA ({resolution})"),
        Msg::RateSupersedes { from, to } => format!("  supersedes {from}..{to} (kept on record)"),
        Msg::RateGap {
            from,
            to,
            kept_from,
            kept_to,
        } => format!(
            "  warning: days of {from}..{to} outside {kept_from}..{kept_to} now have no rate; add them"
        ),
        Msg::RatesAdded { count, name } => format!("{count} period(s) added from {name}"),
        Msg::RatesCovered {
            count,
            from,
            to,
            source,
        } => format!("{count} periods, {from}..{to}; source: {source}"),
        Msg::RatesDryRun => "dry run: nothing was written".into(),
        Msg::Warning { what } => format!("  warning: {what}"),
        Msg::LiquidationReproduces {
            id,
            total,
            until,
            fingerprint,
        } => format!(
            "liquidation {id} reproduces: total due {} as of {until}, fingerprint {fingerprint}",
            format_cop(*total)
        ),
        Msg::LiquidationDiffers { id, same_print } => format!(
            "liquidation {id} does NOT reproduce: {}",
            if *same_print {
                "recomputing its inputs gives other figures"
            } else {
                "its fingerprint does not match its stored contents"
            }
        ),
        Msg::DemoStart { db, key } => format!(
            "vigia demo — a fresh register with FICTIONAL holders at {db}\n\
             (explore it afterwards with: vigia --db {db} --key {key} adjudications list; its \
             checkpoints are signed and verified with that key: name it with --key in `audit \
             verify`, `audit checkpoint`, `check --checkpoint` and `serve`)"
        ),
        Msg::DemoStep(step) => step_title(*step).to_string(),
        Msg::Counting(c) => match c {
            Counting::Check => "checking: adjudications read",
            Counting::Notices => "issuing notices",
            Counting::Adjudications => "importing adjudications",
            Counting::Pledges => "importing pledges",
            Counting::Acceptances => "importing acceptances",
            Counting::Proposals => "importing proposals",
            Counting::AdjudicationReading => "adjudicating: acceptances read, then awards registered",
            Counting::Adjudicating => "adjudicating: acceptances written",
        }
        .to_string(),
        Msg::OfferHeader {
            program,
            offered,
            demand,
            awarded,
            leftover,
            oversubscribed,
            rule,
        } => format!(
            "offer {program}: offered {offered}, demand {demand}, awarded {awarded}, leftover {leftover} (to the Second Stage), {}, rule {rule}",
            if *oversubscribed {
                "oversubscribed"
            } else {
                "not oversubscribed"
            }
        ),
        Msg::TrancheOpened {
            stage,
            code,
            tranche,
            shares,
            opens,
            closes,
            minimum_price,
            available,
            offered,
        } => format!(
            "stage {stage} of {code}, tranche {tranche} opened: {shares} shares (Todo o Nada), proposals from \
             {opens} to {closes}, minimum price {} per share; the stage has {available} share(s) to offer, {offered} in open \
             tranches",
            format_cop(*minimum_price)
        ),
        Msg::TrancheEvaluated {
            stage,
            code,
            tranche,
            shares,
            opens,
            closes,
            minimum_price,
            criterion,
            outcome,
        } => {
            let criterion = match criterion {
                Criterion::PresentValue {
                    rate_ea_pct,
                    source: Some((s, _)),
                } => format!("present value at {rate_ea_pct} % EA ({s})"),
                Criterion::PresentValue { rate_ea_pct, .. } => {
                    format!("present value at {rate_ea_pct} % EA")
                }
                Criterion::HighestPrice => "highest price".into(),
                Criterion::PriceAndTerm { price, term } => format!(
                    "price and term: points = 100 × ({price} × price / best price + {term} × shortest term / term)"
                ),
            };
            let outcome = match outcome {
                TrancheOutcome::Winner { proposal, draw } => format!(
                    "winner {proposal}{}",
                    draw.map_or_else(String::new, |d| format!(" (by draw {d})"))
                ),
                TrancheOutcome::Tie(v) => format!(
                    "tie between {}: invite them to improve, then draw",
                    v.join(", ")
                ),
                TrancheOutcome::Desert => "no valid proposal".into(),
            };
            format!(
                "stage {stage} of {code}, tranche {tranche}: {shares} shares, proposals {opens} to {closes}, minimum \
                 price {}; {criterion}; {outcome}",
                format_cop(*minimum_price)
            )
        }
        Msg::Improvement {
            id,
            proposal,
            tranche,
            original,
            offered,
            counted: true,
            code,
            stage,
        } => format!(
            "improvement {id}: {proposal} (tranche {tranche}) raises its price from {} to {} per share; read the \
             proposals again with `vigia stage evaluate {code} --stage {stage}`",
            format_cop(*original),
            format_cop(*offered)
        ),
        Msg::Improvement {
            id,
            proposal,
            tranche,
            original,
            offered,
            ..
        } => format!(
            "improvement {id}: {proposal} (tranche {tranche}) offered {}, not above its original {}: recorded and \
             ignored; the proposal keeps its original price (\"se entenderá que el proponente mantiene el precio de compra de la Propuesta de Compra original\")",
            format_cop(*offered),
            format_cop(*original)
        ),
        Msg::DrawVerified {
            id,
            stage,
            code,
            tranche,
            text,
            digest,
            number,
            tied,
            index,
            winner,
        } => format!(
            "verified: draw {id} of stage {stage} of {code}, tranche {tranche}: sha256({text:?}) = {digest}; first 8 \
             bytes {}: {winner} wins",
            draw_place(number, *tied, *index)
        ),
        Msg::ActaVerified {
            run,
            code,
            acceptors,
            awarded,
            fingerprint,
            text_only,
        } => format!(
            "{}: acta of adjudication {run} of {code} ({acceptors} acceptor(s), {awarded} shares \
             awarded); fingerprint {fingerprint} matches the register",
            if *text_only { "text" } else { "verified" }
        ),
        Msg::AuditIntact {
            events,
            head,
            signed,
            line,
            at_events,
            at,
            since,
        } => format!(
            "audit trail intact: {events} events, chain and stored rows match; head {head}\n\
             schema and triggers as vigia's migrations create them; SQLite quick_check ok\n\
             checkpoints: {signed} signed, the last (line {line}) at {at_events} events, {at}; {since} event(s) since"
        ),
        Msg::Drawn {
            id,
            stage,
            code,
            tranche,
            sorted,
            text,
            digest,
            number,
            tied,
            index,
            winner,
        } => format!(
            "draw {id} of stage {stage} of {code}, tranche {tranche}:\n  tied, sorted by their UTF-8 bytes: {sorted}\n  text \
             hashed: {text}\n  SHA-256: {digest}\n  first 8 bytes as an unsigned integer: {number}\n  {}: {winner} wins\n  \
             check it: printf %s '{}' | sha256sum",
            draw_place(number, *tied, *index),
            text.replace('\'', "'\\''")
        ),
        Msg::StageAdjudicated {
            stage,
            code,
            on,
            conclusion,
            awarded,
            offered,
            leftover,
        } => format!(
            "stage {stage} of {code} adjudicated on {on} (conclusion {conclusion}): {awarded} of {offered} shares awarded, {leftover} left over"
        ),
        Msg::StagePriceFrom {
            id,
            code,
            stage,
            price,
            composition,
            from,
            so_far,
        } => format!(
            "stage price record {id}: program {code}, stage {stage}, {} per share{composition} (Art. 9 (iii)) from {from}; {}",
            format_cop(*price),
            if *so_far {
                "a later stage is still pending for the shares left over: this is the price so far, and \
                 liquidations stay provisional until that stage concludes"
            } else {
                "provisional liquidations are flagged by `vigia check` (PROVISIONAL_STALE) for re-liquidation"
            }
        ),
        Msg::Problems { what, count } => {
            format!("{what}: {count} problem(s), nothing was written:")
        }
        Msg::ImportOf { path } => format!("import of {path}"),
        Msg::ReleaseOf { on } => format!("release of the releasable pledges on {on}"),
        Msg::RatesImportOf { name, sfc: false } => format!("rates import of {name}"),
        Msg::RatesImportOf { name, sfc: true } => format!("rates import-sfc of {name}"),
        Msg::StageAward {
            tranche,
            shares,
            proposal,
            bidders,
            price,
            total,
            value,
            due,
            draw,
        } => {
            let value = match value {
                Worth::None => "-".to_string(),
                Worth::PresentValue(x) => format!("present value {}", format_cop(*x)),
                Worth::Value(x) => format!("value {}", format_cop(*x)),
                Worth::Points(x) => format!("{x:.4} points"),
            };
            format!(
                "  tranche {tranche}: {shares} shares to {proposal} ({bidders}; jointly liable) at {} per share = {}, {value}; \
                 payment due {due}{}",
                format_cop(*price),
                format_cop(*total),
                draw.map_or_else(String::new, |d| format!(" (decided by draw {d})"))
            )
        }
        Msg::TrancheVoid { tranche, shares } => format!(
            "  tranche {tranche}: {shares} shares, no valid proposal (void: they pass to the next stage)"
        ),
        Msg::StageVoid {
            stage,
            code,
            on,
            conclusion,
            leftover,
            last,
        } => format!(
            "stage {stage} of {code} declared void on {on} (conclusion {conclusion}): no valid proposal; {leftover} shares {}",
            if *last {
                "unsold, and it was the program's last stage"
            } else {
                "pass to the Third Stage"
            }
        ),
        Msg::NoLaterStage { id, code } => format!(
            "stage price record {id}: program {code} has no later stage; the stage price is absent (as `program \
             stage-price --stage none`)"
        ),
        Msg::RatesFileSound {
            name,
            count,
            from,
            to,
        } => format!("{name}: {count} periods, {from}..{to}, no problems"),
        Msg::RatesFileProblems { name, count } => format!("{name}: {count} problem(s)"),
        Msg::WorkbookNotText => "a workbook is not text: name the file with --out FILE.xlsx".to_string(),
        Msg::OutOnlyForExcel => {
            "is for --format csv-excel or xlsx; redirect the other formats (> FILE)".to_string()
        }
        Msg::OutIsSymlink => "it is a symbolic link, which vigia does not write through (nor replace); give the path of the file itself".to_string(),
        Msg::Left => "left".to_string(),
        Msg::ManPages { count, dir } => format!("{count} manual page(s) written to {dir}"),
        Msg::DemoRefused { error } => format!("refused, as it should be: {error}"),
        Msg::DemoWeb {
            user,
            password,
            db,
            key,
        } => format!(
            "\n## The web interface, in Spanish (sign in as {user} with password {password}: a demo account, role admin)\n$ vigia --db {db} --key {key} serve\nthen open http://127.0.0.1:8080/"
        ),
    }
}

fn read_as(r: ReadAs<'_>) -> String {
    match r {
        ReadAs::Workbook => "read from a workbook's sheet".into(),
        ReadAs::Text {
            encoding,
            separator,
        } => format!("read as {encoding}, separator '{separator}'"),
    }
}

/// A demo step's title.
fn step_title(s: Step) -> &'static str {
    match s {
        Step::OfferTooShort => "First stage: an offer shorter than two months is refused (Art. 4)",
        Step::OfferOpen => {
            "Open the public offer: notice on 2024-01-02, acceptances until 2024-03-08"
        }
        Step::AcceptancesImport => {
            "Import the acceptances (fictional acceptors; Spanish headers, es-CO dates and numbers, the decree's numerals)"
        }
        Step::AcceptancesAgain => "Import the same file again: nothing is added",
        Step::Adjudicate => {
            "Adjudicate on 2024-03-15 (Art. 12): caps, rejections, awards, and the acta"
        }
        Step::AdjudicateTwice => "The adjudication takes place once: a second run is refused",
        Step::VerifyActa => "Anyone can check the acta against the register",
        Step::StageOpen => {
            "Second Stage: open a tranche of the 12,886,682 shares the first stage left (Art. 13)"
        }
        Step::ProposalsImport => "Import the proposals (fictional bidders; Todo o Nada)",
        Step::Evaluate => {
            "Evaluate: present value at the IBC in force on the close; a tie at the best value"
        }
        Step::TieFirst => "A tie must be decided before adjudicating",
        Step::ImproveLower => {
            "Invited to improve, P-12 offers less than its original: recorded and ignored"
        }
        Step::Draw => "The tie persists: decided by a draw anyone can check with sha256sum",
        Step::DrawVerify => "The draw recomputed from the record",
        Step::StageAdjudicate => {
            "Adjudicate on 2024-06-28: its price becomes the Art. 9 (iii) reference, with the acta"
        }
        Step::ProgramAdd => "Register the program of Decreto 3939 de 2004",
        Step::HoldersUpdated => {
            "An updated holder list (the same five and one new holder): only the new one is added"
        }
        Step::PledgeFirst => "Pledge adjudication 1 to the sellers, first degree",
        Step::PledgeSecond => "Adjudication 2 was financed: second-degree pledge",
        Step::Stage => "{stage}",
        Step::BreachSale => "Holder 1 sold her 1.000 shares for $ 1.450 each on 2024-11-20",
        Step::BreachAfterLockup => "A breach after the lock-up is refused",
        Step::Letterhead => {
            "The letterhead is register data (who signs, where to pay and answer): no notice without it"
        }
        Step::NoticeIssue => {
            "Issue the fine notice (PDF, numbered, deadline in business days); dated in the story's past, so with its reason"
        }
        Step::NoticeHtml => {
            "The same notice in HTML, to send by e-mail: rendered again, same number, no new one"
        }
        Step::NoticeVerify => {
            "Anyone can check the document against the register, down to its bytes"
        }
        Step::NoAddress => "No postal address on file: a delivery by certified mail is refused",
        Step::HolderAddress => {
            "The holder's address, as a new audited version of her contact details"
        }
        Step::Delivered => {
            "Delivered by certified mail on 2024-12-03: the payment term runs from that day"
        }
        Step::PartialPayment => "A partial payment of $ 500.000 on 2024-12-15",
        Step::PaymentTwice => "The same payment entered twice is refused",
        Step::PaymentMistake => "A payment entered by mistake (it belongs to another holder)",
        Step::PaymentVoid => "Void it: it stays on record, and no figure counts it",
        Step::Check => {
            "The periodic check on 2025-01-10: the notice is overdue, the pledge enforceable, four holders lack a pledge"
        }
        Step::PledgeHeld => "The pledge cannot be released while the fine is outstanding",
        Step::Liquidate => "Liquidate the fine as of 2025-02-10 (stored, numbered)",
        Step::NoticeBalance => {
            "A new notice for the balance replaces the first (which stays on record)"
        }
        Step::HandedOver => "Handed to the holder on 2025-02-10",
        Step::PaysBalance => "She pays the balance the same day",
        Step::Payments => {
            "The payments on record: the voided one with who, when and why; the last settles the fine"
        }
        Step::NoDemand => "A fine paid in full gets no payment demand",
        Step::Settlement => {
            "It gets its paz y salvo: every payment with its imputation, the fine extinguished"
        }
        Step::SettlementVerify => "The paz y salvo verifies like a notice",
        Step::PledgeRelease => "After the lock-up, with the fine paid, the pledge is released",
        Step::Reproduces => "The stored liquidation still reproduces from its own inputs",
        Step::AdjudicationShow => "Adjudication 1 as a whole",
        Step::CheckAfter => "The check after the lock-up: pledges that can now be released",
        Step::Audit => "Every write is in the audit trail, chained by SHA-256",
    }
}

/// `notice verify`'s report, in English.
pub fn verified(v: &crate::register::verify::Verified, file: &str) -> Vec<String> {
    use crate::register::verify::{File, Standing, Text};
    let kind = v.kind.said();
    let kind = kind.en();
    let mut out = vec![format!(
        "{file}: {kind} {} of program {}, liquidation {}",
        v.number, v.program, v.liquidation_id
    )];
    match &v.text {
        Text::Match => out.push("  document text and figures: match the register".into()),
        Text::LineCount { expected, found } => out.push(format!(
            "  document text and figures: DO NOT MATCH ({expected} lines expected, {found} found)"
        )),
        Text::LineDiffers {
            at,
            expected,
            found,
        } => {
            out.push(format!(
                "  document text and figures: DO NOT MATCH at {}",
                super::verification::place(crate::lang::Lang::En, at)
            ));
            out.push(format!("    expected: {expected}"));
            out.push(format!("    found:    {found}"));
        }
    }
    out.push(match &v.file {
        f @ (File::Issued { .. } | File::RenderedAgain { .. }) => {
            let line = super::file_words::identical(crate::lang::Lang::En, f);
            format!("  {}", line.unwrap_or_default())
        }
        File::NoRecord { .. } => format!(
            "  file: no SHA-256 on record for this {kind} (issued before vigia recorded its files)"
        ),
        File::Changed { sha256, written } => format!(
            "  file: text and figures match, but the file was changed: its SHA-256 {sha256} is not one of the {written} file(s) vigia wrote of it"
        ),
        File::Different { sha256 } => {
            format!("  file: DIFFERENT from every file vigia wrote of it (SHA-256 {sha256})")
        }
    });
    let fp = &v.fingerprint;
    out.push(if fp.matches() {
        format!("  fingerprint {}: matches", fp.stored)
    } else {
        format!(
            "  fingerprint: DOES NOT MATCH (stored {}, recomputed {}, in document: {})",
            fp.stored, fp.recomputed, fp.printed
        )
    });
    out.push(if v.same_figures {
        "  recomputed from the register today: same figures".into()
    } else if let Some(p) = &v.paid_since {
        let paz = match &p.settlement {
            Some((number, date)) => format!("its paz y salvo is {number} of {date}"),
            None => "issue its paz y salvo (vigia settlement issue), not a new notice".into(),
        };
        format!(
            "  recomputed from the register today: DIFFERENT figures: the fine was {}; nothing is left to demand: {paz}",
            super::en_verification::paid_on(p)
        )
    } else if v.kind == crate::register::verify::Kind::Settlement {
        format!(
            "  recomputed from the register today: DIFFERENT figures {}",
            super::en_verification::PAZ_OTHER_FIGURES
        )
    } else {
        format!(
            "  recomputed from the register today: DIFFERENT figures (a payment, stage price or rate recorded since); issue a new {kind}"
        )
    });
    for s in &v.voids {
        out.push(format!("  {}", s.said().en()));
    }
    match &v.standing {
        Some(Standing::Replaced { number, date }) => out.push(format!(
            "  superseded: replaced by notice {number} of {date}; this notice is no longer in force"
        )),
        Some(Standing::InForce) => out.push("  not replaced: no later notice replaces it".into()),
        None => {}
    }
    out
}

/// Why a batch of notices leaves a breach out, in [`super::msg::left_out`]'s order.
const WHY_LEFT_OUT: [(&str, &str); 4] = [
    ("voided", "voided"),
    ("noticed already", "noticed already"),
    ("with a paz y salvo", "with a paz y salvo"),
    ("paid in full", "paid in full"),
];

/// A draw's arithmetic: the digest's number modulo the tied proposals gives the winning place.
pub(super) fn draw_place(number: &dyn std::fmt::Display, tied: u64, index: u64) -> String {
    format!("{number} mod {tied} = {index}")
}
