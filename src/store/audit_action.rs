//! What an audit event records, as the store writes it into `audit_events.action` and every
//! renderer names it: one [`Action`] per kind of write, stored by the code it always had
//! (`payment.void`). The store takes only these ([`super::Tx::insert`], [`super::Tx::audit_bulk`]),
//! so a front end that labels each one labels every action the store can write.

use std::fmt;

/// A kind of audited write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    ProgramAdd,
    ProgramStagePrice,
    ProgramOutsideValidity,
    LettersSet,
    DocumentText,
    RateAdd,
    /// A rate period whose usury figure is not 1.5 × IBC, accepted with a reason (the reason
    /// follows the code: `rate.add forced: REASON`, see [`Action::noted`]).
    RateAddForced,
    RateSupersede,
    OfferOpen,
    OfferRecordExternal,
    AcceptancesImport,
    OfferAdjudicate,
    AdjudicationsImport,
    AdjudicationVoid,
    HolderCreate,
    HolderUpdate,
    PledgeRegister,
    PledgeImport,
    PledgeRelease,
    PledgeReleaseReleasable,
    PledgeVoid,
    BreachRecord,
    BreachVoid,
    PaymentRecord,
    PaymentVoid,
    FineLiquidate,
    NoticeIssue,
    NoticeDelivered,
    DocumentRender,
    SettlementIssue,
    StageOpen,
    ProposalsImport,
    StageImprove,
    StageDraw,
    StageAdjudicate,
    StageDesert,
    UserAdd,
    UserDisable,
    UserPassword,
    UserSignIn,
    UserSignInFailed,
    AuditCheckpoint,
    AuditReanchor,
}

impl Action {
    /// Every action, in the order the register's story meets them.
    pub const ALL: [Action; 43] = [
        Action::ProgramAdd,
        Action::ProgramStagePrice,
        Action::ProgramOutsideValidity,
        Action::LettersSet,
        Action::DocumentText,
        Action::RateAdd,
        Action::RateAddForced,
        Action::RateSupersede,
        Action::OfferOpen,
        Action::OfferRecordExternal,
        Action::AcceptancesImport,
        Action::OfferAdjudicate,
        Action::AdjudicationsImport,
        Action::AdjudicationVoid,
        Action::HolderCreate,
        Action::HolderUpdate,
        Action::PledgeRegister,
        Action::PledgeImport,
        Action::PledgeRelease,
        Action::PledgeReleaseReleasable,
        Action::PledgeVoid,
        Action::BreachRecord,
        Action::BreachVoid,
        Action::PaymentRecord,
        Action::PaymentVoid,
        Action::FineLiquidate,
        Action::NoticeIssue,
        Action::NoticeDelivered,
        Action::DocumentRender,
        Action::SettlementIssue,
        Action::StageOpen,
        Action::ProposalsImport,
        Action::StageImprove,
        Action::StageDraw,
        Action::StageAdjudicate,
        Action::StageDesert,
        Action::UserAdd,
        Action::UserDisable,
        Action::UserPassword,
        Action::UserSignIn,
        Action::UserSignInFailed,
        Action::AuditCheckpoint,
        Action::AuditReanchor,
    ];

    /// The code stored in `audit_events.action` (and hashed into the chain): never to change.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::ProgramAdd => "program.add",
            Action::ProgramStagePrice => "program.stage-price",
            Action::ProgramOutsideValidity => "program.outside-validity",
            Action::LettersSet => "letters.set",
            Action::DocumentText => "document.text",
            Action::RateAdd => "rate.add",
            Action::RateAddForced => "rate.add forced",
            Action::RateSupersede => "rate.supersede",
            Action::OfferOpen => "offer.open",
            Action::OfferRecordExternal => "offer.record-external",
            Action::AcceptancesImport => "acceptances.import",
            Action::OfferAdjudicate => "offer.adjudicate",
            Action::AdjudicationsImport => "adjudications.import",
            Action::AdjudicationVoid => "adjudication.void",
            Action::HolderCreate => "holder.create",
            Action::HolderUpdate => "holder.update",
            Action::PledgeRegister => "pledge.register",
            Action::PledgeImport => "pledge.import",
            Action::PledgeRelease => "pledge.release",
            Action::PledgeReleaseReleasable => "pledge.release-releasable",
            Action::PledgeVoid => "pledge.void",
            Action::BreachRecord => "breach.record",
            Action::BreachVoid => "breach.void",
            Action::PaymentRecord => "payment.record",
            Action::PaymentVoid => "payment.void",
            Action::FineLiquidate => "fine.liquidate",
            Action::NoticeIssue => "notice.issue",
            Action::NoticeDelivered => "notice.delivered",
            Action::DocumentRender => "document.render",
            Action::SettlementIssue => "settlement.issue",
            Action::StageOpen => "stage.open",
            Action::ProposalsImport => "proposals.import",
            Action::StageImprove => "stage.improve",
            Action::StageDraw => "stage.draw",
            Action::StageAdjudicate => "stage.adjudicate",
            Action::StageDesert => "stage.desert",
            Action::UserAdd => "user.add",
            Action::UserDisable => "user.disable",
            Action::UserPassword => "user.password",
            Action::UserSignIn => "user.sign_in",
            Action::UserSignInFailed => "user.sign_in_failed",
            Action::AuditCheckpoint => "audit.checkpoint",
            Action::AuditReanchor => "audit.reanchor",
        }
    }

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
