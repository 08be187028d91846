//! Message encryption for Web Push (RFC 8291) in the `aes128gcm` content
//! coding (RFC 8188): one record, the sender's ephemeral key in the header.
//!
//! The sender's ephemeral secret and the salt are passed in (the core draws
//! no randomness): a host gives 32 and 16 fresh random bytes per message.
//! [`decrypt`] is the receiver's side, for tests and for checking that what
//! is sent is what a browser reads.

use super::error::WebPushError;
use super::keys::{Receiver, public_point, secret_key};
use aes_gcm::aead::Aead;
use aes_gcm::{Aes128Gcm, KeyInit, Nonce};
use hkdf::Hkdf;
use p256::elliptic_curve::point::AffineCoordinates;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

/// The record size written in the header (RFC 8291 §4: one record of at most 4096).
pub const RECORD_SIZE: u32 = 4096;
/// The header: salt (16), record size (4), key id length (1), key id (65).
const HEADER: usize = 16 + 4 + 1 + 65;
/// The AEAD tag AES-GCM adds.
const TAG: usize = 16;
/// The longest plaintext one record holds: its delimiter and tag take 17
/// bytes, and push services take bodies of at most 4096 bytes with the header.
pub const MAX_PLAINTEXT: usize = RECORD_SIZE as usize - HEADER - TAG - 1;

/// The content key and nonce of a message (RFC 8291 §3.4, RFC 8188 §2.2).
fn derive(
    ecdh: &[u8],
    auth: &[u8; 16],
    receiver_public: &[u8; 65],
    sender_public: &[u8; 65],
    salt: &[u8; 16],
) -> Result<([u8; 16], [u8; 12]), WebPushError> {
    let mut key_info = Vec::with_capacity(14 + 130);
    key_info.extend_from_slice(b"WebPush: info\0");
    key_info.extend_from_slice(receiver_public);
    key_info.extend_from_slice(sender_public);
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(auth), ecdh)
        .expand(&key_info, &mut ikm)
        .map_err(|_| WebPushError::Undecryptable)?;
    let content = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let mut cek = [0u8; 16];
    let mut nonce = [0u8; 12];
    content
        .expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .and_then(|()| content.expand(b"Content-Encoding: nonce\0", &mut nonce))
        .map_err(|_| WebPushError::Undecryptable)?;
    Ok((cek, nonce))
}

/// The x coordinate of `secret` × `public` (P-256 ECDH).
fn ecdh(secret: &SecretKey, public: &PublicKey) -> [u8; 32] {
    let shared = (public.to_projective() * *secret.to_nonzero_scalar()).to_affine();
    shared.x().into()
}

/// Encrypts `plaintext` for `receiver` with the sender's ephemeral key
/// `ephemeral` (a P-256 secret) and `salt`: the body of the push request.
pub fn encrypt(
    plaintext: &[u8],
    receiver: &Receiver,
    ephemeral: &[u8; 32],
    salt: &[u8; 16],
) -> Result<Vec<u8>, WebPushError> {
    if plaintext.len() > MAX_PLAINTEXT {
        return Err(WebPushError::TooLarge(plaintext.len()));
    }
    let secret = secret_key(ephemeral, "the ephemeral key")?;
    let sender_public = public_point(&secret.public_key());
    let shared = ecdh(&secret, receiver.public());
    let (cek, nonce) = derive(
        &shared,
        receiver.auth(),
        receiver.point(),
        &sender_public,
        salt,
    )?;
    let mut record = Vec::with_capacity(plaintext.len() + 1);
    record.extend_from_slice(plaintext);
    // The last (and only) record's delimiter, no padding.
    record.push(2);
    let cipher = Aes128Gcm::new_from_slice(&cek).map_err(|_| WebPushError::Undecryptable)?;
    let sealed = cipher
        .encrypt(Nonce::from_slice(&nonce), record.as_slice())
        .map_err(|_| WebPushError::Undecryptable)?;
    let mut body = Vec::with_capacity(HEADER + sealed.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(65);
    body.extend_from_slice(&sender_public);
    body.extend_from_slice(&sealed);
    Ok(body)
}

/// Decrypts a push message `body` as the receiver does, with its secret
/// `receiver_secret` (the subscription's private key) and `auth` secret.
pub fn decrypt(
    body: &[u8],
    receiver_secret: &[u8; 32],
    auth: &[u8; 16],
) -> Result<Vec<u8>, WebPushError> {
    let bad = WebPushError::Undecryptable;
    if body.len() < HEADER + TAG + 1 || body[20] != 65 {
        return Err(bad);
    }
    let salt: [u8; 16] = body[..16].try_into().map_err(|_| bad.clone())?;
    let sender_point: [u8; 65] = body[21..HEADER].try_into().map_err(|_| bad.clone())?;
    let sender = PublicKey::from_sec1_bytes(&sender_point).map_err(|_| bad.clone())?;
    let secret = secret_key(receiver_secret, "the receiver's key")?;
    let receiver_point = public_point(&secret.public_key());
    let shared = ecdh(&secret, &sender);
    let (cek, nonce) = derive(&shared, auth, &receiver_point, &sender_point, &salt)?;
    let cipher = Aes128Gcm::new_from_slice(&cek).map_err(|_| bad.clone())?;
    let mut record = cipher
        .decrypt(Nonce::from_slice(&nonce), &body[HEADER..])
        .map_err(|_| bad.clone())?;
    // Padding is zeros after the delimiter; the last record's delimiter is 2.
    while record.last() == Some(&0) {
        record.pop();
    }
    match record.pop() {
        Some(2) => Ok(record),
        _ => Err(bad),
    }
}
