//! What an audit event records, as the store writes it into `audit_events.action` and every
//! renderer names it: one [`Action`] per kind of write, stored by the code it always had
//! (`payment.void`). The store takes only these ([`super::Tx::insert`], [`super::Tx::audit_bulk`]),
//! so a front end that labels each one labels every action the store can write.

use std::fmt;

/// Declares [`Action`], its [`Action::ALL`] and its stored codes from one list, so that no
/// action can be written without its code or be left out of `ALL` (which the renderers label).
macro_rules! actions {
    ($($(#[$doc:meta])* $variant:ident => $code:literal,)*) => {
        /// A kind of audited write.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Action {
            $($(#[$doc])* $variant,)*
        }

        impl Action {
            /// Every action, in the order the register's story meets them.
            pub const ALL: [Action; [$($code),*].len()] = [$(Action::$variant),*];

            /// The code stored in `audit_events.action` (and hashed into the chain): never to
            /// change.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Action::$variant => $code,)*
                }
            }
        }
    };
}

actions! {
    ProgramAdd => "program.add",
    ProgramStagePrice => "program.stage-price",
    ProgramOutsideValidity => "program.outside-validity",
    LettersSet => "letters.set",
    DocumentText => "document.text",
    RateAdd => "rate.add",
    /// A rate period whose usury figure is not 1.5 × IBC, accepted with a reason (the reason
    /// follows the code: `rate.add forced: REASON`, see [`Action::noted`]).
    RateAddForced => "rate.add forced",
    RateSupersede => "rate.supersede",
    OfferOpen => "offer.open",
    OfferRecordExternal => "offer.record-external",
    AcceptancesImport => "acceptances.import",
    OfferAdjudicate => "offer.adjudicate",
    AdjudicationsImport => "adjudications.import",
    AdjudicationVoid => "adjudication.void",
    HolderCreate => "holder.create",
    HolderUpdate => "holder.update",
    PledgeRegister => "pledge.register",
    PledgeImport => "pledge.import",
    PledgeRelease => "pledge.release",
    PledgeReleaseReleasable => "pledge.release-releasable",
    PledgeVoid => "pledge.void",
    BreachRecord => "breach.record",
    BreachVoid => "breach.void",
    PaymentRecord => "payment.record",
    PaymentVoid => "payment.void",
    FineLiquidate => "fine.liquidate",
    NoticeIssue => "notice.issue",
    NoticeDelivered => "notice.delivered",
    DocumentRender => "document.render",
    SettlementIssue => "settlement.issue",
    StageOpen => "stage.open",
    ProposalsImport => "proposals.import",
    StageImprove => "stage.improve",
    StageDraw => "stage.draw",
    StageAdjudicate => "stage.adjudicate",
    StageDesert => "stage.desert",
    UserAdd => "user.add",
    UserDisable => "user.disable",
    UserPassword => "user.password",
    UserSignIn => "user.sign_in",
    UserSignInFailed => "user.sign_in_failed",
    AuditCheckpoint => "audit.checkpoint",
    AuditReanchor => "audit.reanchor",
}

impl Action {
    /// The action a stored code names, if it is one (a trail read back holds codes).
    pub fn parse(code: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.as_str() == code)
    }

    /// The stored code of this action with a note after it: `rate.add forced: REASON`.
    pub fn noted(self, note: &str) -> String {
        format!("{}: {note}", self.as_str())
    }

    /// The action a stored code names, and its note when it carries one (`rate.add forced:
    /// REASON`); `None` for a code no action writes.
    pub fn read(stored: &str) -> Option<(Action, Option<&str>)> {
        if let Some(a) = Action::parse(stored) {
            return Some((a, None));
        }
        let (code, note) = stored.split_once(": ")?;
        Action::parse(code).map(|a| (a, Some(note)))
    }
}

/// The stored code.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Action;

    #[test]
    fn each_action_has_its_own_code_and_reads_back() {
        let mut codes: Vec<&str> = Action::ALL.iter().map(|a| a.as_str()).collect();
        for a in Action::ALL {
            assert_eq!(Action::parse(a.as_str()), Some(a));
        }
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), Action::ALL.len(), "two actions share a code");
        // the codes the trail has always held (and hashed) stay as they were
        assert_eq!(Action::PaymentVoid.as_str(), "payment.void");
        assert_eq!(Action::UserSignInFailed.as_str(), "user.sign_in_failed");
        assert_eq!(Action::parse("payment.voided"), None);
        // a forced rate keeps its reason after the code, as it always did
        let stored = Action::RateAddForced.noted("resolución 0088");
        assert_eq!(stored, "rate.add forced: resolución 0088");
        assert_eq!(
            Action::read(&stored),
            Some((Action::RateAddForced, Some("resolución 0088")))
        );
        assert_eq!(Action::read("rate.add"), Some((Action::RateAdd, None)));
        assert_eq!(Action::read("rate.added: x"), None);
    }
}
