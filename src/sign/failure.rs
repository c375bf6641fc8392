//! Why a result of a signature's verification failed, or could not be decided: typed, each with
//! its values, worded in English and Spanish by `catalogue::signature_why` (nothing here is
//! said to anyone).

use chrono::{DateTime, FixedOffset, Utc};

/// Why a result failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// the `/ByteRange` is not `[0 a b c]` (as read)
    ByteRangeShape(Vec<i64>),
    /// the `/ByteRange` reaches outside the file
    ByteRangeOutside(Vec<i64>),
    /// the bytes left out of the byte range are not just the signature's `/Contents`
    GapNotContents,
    /// bytes were appended after the signature (how many): the document changed after signing
    Appended(usize),
    /// the `/SubFilter` is not a detached CMS (the one found)
    NotDetachedCms(Option<String>),
    /// `/Contents` is not a CMS SignedData
    NotSignedData,
    /// the SignedData has no signer
    NoSigner,
    /// the signer is named by key identifier, not by certificate
    SignerByKeyId,
    /// the signer's certificate is not in the signature
    SignerCertificateMissing,
    /// the signature has no signed attributes
    NoSignedAttributes,
    /// a digest algorithm vigia does not know (its OID)
    UnknownDigest(String),
    /// the signed bytes' digest is not the signed one: they changed
    DigestMismatch,
    /// no message-digest attribute
    NoMessageDigest,
    /// the signer's key is not an RSA key
    NotRsaKey,
    /// the signature does not match the signer's key
    SignatureMismatch,
    /// no ESS signing-certificate-v2 attribute (PAdES requires one)
    NoEss,
    /// the ESS attribute names no certificate
    EssEmpty,
    /// the ESS attribute names another certificate than the signer's
    EssOtherCertificate,
    /// the chain is longer than ten certificates
    ChainTooLong,
    /// no trusted certificate was given (the issuer the chain stopped at)
    NoTrustGiven(String),
    /// the chain ends in a root that is not trusted (its name)
    UntrustedRoot(String),
    /// the chain reaches no trusted certificate (the issuer it stopped at)
    NoTrustedReached(String),
    /// a certificate of the chain was not valid at the time judged
    NotValidAt {
        /// its holder's name
        holder: String,
        at: DateTime<FixedOffset>,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    },
    /// the timestamp token cannot be read (why, when the decoder says)
    TokenUnreadable(Option<String>),
    /// the timestamp's hash algorithm is unknown (its OID)
    StampHashUnknown(String),
    /// the timestamp is over another signature's value
    StampOverAnotherSignature,
    /// the authority's certificate is not one for timestamping (extended key usage)
    NotForTimestamping,
}

/// Why a result could not be decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unchecked {
    /// the byte range could not be read, so nothing after it was checked
    ByteRangeUnread,
    /// the CMS could not be read, so nothing in it was checked
    SignatureUnread,
    /// the signature claims no signing time (`/M`)
    NoSigningTime,
    /// no certificate was found in the signature
    NoCertificate,
    /// the timestamp token cannot be read
    TokenUnread,
}
