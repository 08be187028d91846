//! Files of real size over HTTP, under `/networks/{id}/v1/files`
//! (`crate::files` decides; the host moves the bytes to and from storage):
//!
//! * `POST v1/files` `{name, mime, size, conversation}` with a session →
//!   `201` the upload's status (`file`, `part_bytes`, `parts`, `missing`).
//! * `PUT v1/files/{file}/parts/{n}` the part's bytes → `{part, missing}`.
//!   Parts go in any order and again after a dropped connection.
//! * `GET v1/files/{file}` → the status: what is received, what is missing.
//! * `POST v1/files/{file}/complete` → the file is stored and registered as
//!   its resource; `{attachment}` is what the message names.
//! * `POST v1/files/{file}/link` → `{url, expires_at}`: a signed link for a
//!   member who may read the file now.
//! * `GET v1/files/{file}/content?member&expires&sig[&download]` → the bytes,
//!   streamed with a safe type and `Content-Disposition`.
//!
//! Every step but the last needs `Authorization: Bearer <session>`; upload
//! steps are the uploader's alone. A file that is not the caller's to see is
//! `not_found`, never a hint that it exists.

use super::send::send_value;
use crate::bindings::access::session::{QueryTokens, authenticate};
use crate::bindings::exchange::{BindingHost, json_body};
use crate::bindings::message::{Method, Request, Response};
use crate::bindings::route::paths::network_path;
use crate::bindings::step::{Step, go_on};
use crate::error::{Coded, ErrorCode};
use crate::files::link::{self, Link};
use crate::files::{FileError, FileId, FileState, StoredFile, may_read, serve, upload};
use crate::{Address, Network};
use serde_json::json;

/// What a request under `v1/files` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRoute {
    /// `POST v1/files`.
    Begin,
    /// `GET v1/files/{file}`.
    Status(FileId),
    /// `PUT v1/files/{file}/parts/{n}`.
    Part(FileId, u64),
    /// `POST v1/files/{file}/complete`.
    Complete(FileId),
    /// `POST v1/files/{file}/link`.
    Link(FileId),
    /// `GET v1/files/{file}/content`.
    Content(FileId),
    /// A known path with another method.
    WrongMethod,
    /// A path under `v1/files` that names nothing (or no valid file id).
    Unknown,
}

/// The route of `rest`, the path after `v1/files` ('' or `/…`).
pub fn route(method: &Method, rest: &str) -> FileRoute {
    let segments: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    let file = |s: &str| s.parse::<FileId>().ok();
    let wanted = match segments.as_slice() {
        [] => (Method::Post, Some(FileRoute::Begin)),
        [id] => (Method::Get, file(id).map(FileRoute::Status)),
        [id, "parts", n] => (
            Method::Other("PUT".into()),
            file(id)
                .zip(n.parse::<u64>().ok())
                .map(|(f, n)| FileRoute::Part(f, n)),
        ),
        [id, "complete"] => (Method::Post, file(id).map(FileRoute::Complete)),
        [id, "link"] => (Method::Post, file(id).map(FileRoute::Link)),
        [id, "content"] => (Method::Get, file(id).map(FileRoute::Content)),
        _ => return FileRoute::Unknown,
    };
    match wanted {
        (_, None) => FileRoute::Unknown,
        (expected, Some(route)) if *method == expected => route,
        _ => FileRoute::WrongMethod,
    }
}

/// Where a host keeps its files' records and the network's link key.
pub trait FileStore {
    /// The host's error.
    type Error;
    /// A file's record.
    fn file(&mut self, id: &FileId) -> Result<Option<StoredFile>, Self::Error>;
    /// Keeps a file's record (new or changed).
    fn save_file(&mut self, file: &StoredFile) -> Result<(), Self::Error>;
    /// Every byte the network's files hold or are being uploaded into.
    fn used_bytes(&mut self) -> Result<u64, Self::Error>;
    /// The network's secret key for links, made and kept on first use.
    fn link_key(&mut self) -> Result<[u8; 32], Self::Error>;
}

/// A host whose file records fail with its binding's error: what every file
/// route needs.
pub trait FileHost: BindingHost + FileStore<Error = <Self as BindingHost>::Error> {}

impl<H: BindingHost + FileStore<Error = <H as BindingHost>::Error>> FileHost for H {}

/// The storage work a request needs before it is answered.
#[derive(Debug, Clone, PartialEq)]
pub enum FilePlan {
    /// Start the storage's multipart upload, set the file's `upload_id`, then [`begun`].
    Begin(StoredFile),
    /// Store the request's bytes as part `number`, then [`part_stored`].
    Part {
        /// The file.
        file: StoredFile,
        /// The part's number (1-based).
        number: u16,
    },
    /// Complete the storage's upload with these parts, then [`completed`].
    Complete {
        /// The file.
        file: StoredFile,
        /// `(number, etag)` of every part, in order.
        parts: Vec<(u16, String)>,
    },
    /// Stream the stored bytes with these headers.
    Content {
        /// The file.
        file: StoredFile,
        /// The answer's headers ([`serve::headers`]).
        headers: Vec<(String, String)>,
    },
}

fn refused(err: &FileError) -> Response {
    Response::error(err.code(), err.to_string())
}

/// Decides a request under `v1/files`: an answer now, or the storage work
/// to do. `body_len` is the size of a part's body (read by the host).
pub fn plan<H: FileHost>(
    host: &mut H,
    network: &Network,
    req: &Request,
    route: &FileRoute,
    body_len: u64,
) -> Result<Step<FilePlan>, <H as BindingHost>::Error> {
    let id = match route {
        FileRoute::WrongMethod => {
            return Ok(Step::Answer(Response::error(
                ErrorCode::MethodNotAllowed,
                format!("{} is not allowed on {}", req.method, req.path()),
            )));
        }
        FileRoute::Unknown => {
            return Ok(Step::Answer(Response::error(
                ErrorCode::NotFound,
                "no such file route",
            )));
        }
        FileRoute::Content(id) => return content(host, network, req, id),
        FileRoute::Begin => None,
        FileRoute::Status(id)
        | FileRoute::Part(id, _)
        | FileRoute::Complete(id)
        | FileRoute::Link(id) => Some(id),
    };
    let member = go_on!(authenticate(host, req, QueryTokens::Refused), Step::Answer);
    let Some(id) = id else {
        return begin(host, network, req, &member);
    };
    let Some(file) = host.file(id)? else {
        return Ok(Step::Answer(refused(&FileError::NotFound)));
    };
    if let FileRoute::Link(_) = route {
        return link_for(host, network, &member, &file);
    }
    // Upload steps are the uploader's alone; to anyone else the file is not there.
    if file.owner != member {
        return Ok(Step::Answer(refused(&FileError::NotFound)));
    }
    Ok(match route {
        FileRoute::Status(_) => Step::Answer(Response::json(upload::status(&file))),
        FileRoute::Part(_, number) => match upload::accept_part(&file, *number, body_len) {
            Ok(number) => Step::Go(FilePlan::Part { file, number }),
            Err(err) => Step::Answer(refused(&err)),
        },
        FileRoute::Complete(_) => match upload::completion(&file) {
            Ok(parts) => Step::Go(FilePlan::Complete { file, parts }),
            // Asked twice (the first answer lost): the same answer again.
            Err(_) if file.is_stored() => Step::Answer(completion_answer(&file)),
            Err(err) => Step::Answer(refused(&err)),
        },
        _ => Step::Answer(refused(&FileError::NotFound)),
    })
}

fn begin<H: FileHost>(
    host: &mut H,
    network: &Network,
    req: &Request,
    member: &Address,
) -> Result<Step<FilePlan>, <H as BindingHost>::Error> {
    let body = match json_body(&req.body, &network.config().limits) {
        Ok(body) => body,
        Err(answer) => return Ok(Step::Answer(answer)),
    };
    let request = match upload::begin_request(&body) {
        Ok(request) => request,
        Err(err) => return Ok(Step::Answer(refused(&err))),
    };
    let used = host.used_bytes()?;
    let (seed, now) = (host.random_seed(), host.now());
    Ok(
        match upload::begin(network, member, request, used, &seed, now) {
            Ok(file) => Step::Go(FilePlan::Begin(file)),
            Err(err) => Step::Answer(refused(&err)),
        },
    )
}

fn link_for<H: FileHost>(
    host: &mut H,
    network: &Network,
    member: &Address,
    file: &StoredFile,
) -> Result<Step<FilePlan>, <H as BindingHost>::Error> {
    if !file.is_stored() || !may_read(network, member, &file.resource) {
        return Ok(Step::Answer(refused(&FileError::NotFound)));
    }
    let key = host.link_key()?;
    let made = link::sign(&key, network.id(), &file.id, member, host.now());
    let url = network_path(
        network.id().as_str(),
        &format!("/v1/files/{}/content?{}", file.id, made.query()),
    );
    Ok(Step::Answer(Response::json(
        json!({"url": url, "expires_at": made.expires_at, "name": file.name, "mime": file.mime, "size": file.size}),
    )))
}

fn content<H: FileHost>(
    host: &mut H,
    network: &Network,
    req: &Request,
    id: &FileId,
) -> Result<Step<FilePlan>, <H as BindingHost>::Error> {
    let Some(link) = Link::from_query(req.query("member"), req.query("expires"), req.query("sig"))
    else {
        return Ok(Step::Answer(Response::error(
            ErrorCode::NotJoined,
            "a file is fetched with the signed link POST v1/files/{file}/link gives a member",
        )));
    };
    let key = host.link_key()?;
    let member = match link::verify(&key, network.id(), id, &link, host.now()) {
        Ok(member) => member,
        Err(err) => return Ok(Step::Answer(refused(&err))),
    };
    let file = match host.file(id)? {
        Some(file) if file.is_stored() && may_read(network, &member, &file.resource) => file,
        _ => return Ok(Step::Answer(refused(&FileError::NotFound))),
    };
    let headers = serve::headers(&file, req.query("download").is_some());
    Ok(Step::Go(FilePlan::Content { file, headers }))
}

/// Keeps a begun upload (with its storage `upload_id` set) and answers its status.
pub fn begun<H: FileStore>(host: &mut H, file: &StoredFile) -> Result<Response, H::Error> {
    host.save_file(file)?;
    Ok(Response::json(upload::status(file)).with_status(201))
}

/// Notes a stored part on the file's record as it is now (other parts may
/// have arrived meanwhile) and answers what is still missing.
pub fn part_stored<H: FileStore>(
    host: &mut H,
    file: &FileId,
    number: u16,
    etag: String,
    size: u64,
) -> Result<Response, H::Error> {
    let Some(mut file) = host.file(file)? else {
        return Ok(refused(&FileError::NotFound));
    };
    upload::record_part(&mut file, number, etag, size);
    host.save_file(&file)?;
    Ok(Response::json(
        json!({"part": number, "missing": upload::missing_parts(&file)}),
    ))
}

fn completion_answer(file: &StoredFile) -> Response {
    Response::json(json!({"file": file.id, "attachment": upload::attachment(file)}))
}

/// Marks a completed upload stored, registers it as its resource (sent as
/// its uploader) and answers the attachment its message names.
pub fn completed<H: FileHost>(
    host: &mut H,
    network: &mut Network,
    mut file: StoredFile,
) -> Result<Response, <H as BindingHost>::Error> {
    file.state = FileState::Stored;
    host.save_file(&file)?;
    let registered = send_value(
        host,
        network,
        file.owner.clone(),
        upload::register_event(&file),
        None,
    )?;
    if registered.status >= 400 {
        return Ok(registered);
    }
    Ok(completion_answer(&file))
}

/// The answer when the storage failed a step: nothing is lost, the step may be tried again.
pub fn storage_failed(what: &str) -> Response {
    Response::error(
        ErrorCode::Internal,
        format!("the file store failed ({what}); try again"),
    )
}
