//! The holder's contact details, how a document reaches the holder (its channel) and what it is
//! written as (its format): plain facts of the core, read and stored by the layers above
//! (`store::contacts`, `store::notices`, `notice`, the imports). Pure.

use serde::Serialize;

/// One version of a holder's contact details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Contact {
    pub address: Option<String>,
    pub city: Option<String>,
    pub email: Option<String>,
}

impl Contact {
    pub fn is_empty(&self) -> bool {
        self.address.is_none() && self.city.is_none() && self.email.is_none()
    }
}

/// One `@`, something before it, a domain with a dot after it, no spaces or angle brackets.
pub fn plausible_email(e: &str) -> bool {
    match e.split_once('@') {
        Some((user, domain)) => {
            !user.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !e.chars().any(|c| c.is_whitespace() || "<>,;".contains(c))
        }
        None => false,
    }
}

/// The format of a document vigia writes (a notice, a paz y salvo).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DocFormat {
    Pdf,
    Html,
    Md,
}

impl DocFormat {
    pub const ALL: [DocFormat; 3] = [DocFormat::Pdf, DocFormat::Html, DocFormat::Md];

    /// The stored name, which is also the file extension.
    pub fn as_str(self) -> &'static str {
        match self {
            DocFormat::Pdf => "pdf",
            DocFormat::Html => "html",
            DocFormat::Md => "md",
        }
    }
}

/// How a notice reached the holder (*notificación*): the channel recorded with its delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Via {
    /// Correo certificado (a postal service's certified mail, with its delivery receipt).
    CorreoCertificado,
    /// Correo electrónico (with the read or delivery receipt as evidence).
    CorreoElectronico,
    /// Entrega personal (signed receipt).
    Personal,
}

impl Via {
    pub const ALL: [Via; 3] = [
        Via::CorreoCertificado,
        Via::CorreoElectronico,
        Via::Personal,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Via::CorreoCertificado => "correo-certificado",
            Via::CorreoElectronico => "correo-electronico",
            Via::Personal => "personal",
        }
    }

    /// In a Spanish sentence: "entregada por {}".
    pub fn label_es(self) -> &'static str {
        match self {
            Via::CorreoCertificado => "correo certificado",
            Via::CorreoElectronico => "correo electrónico",
            Via::Personal => "entrega personal",
        }
    }
}
