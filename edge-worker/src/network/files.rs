//! Files of real size in R2 (the `FILES` bucket binding in `wrangler.toml`;
//! `wrangler dev` keeps it on disk with no account): the I/O around
//! `agentnet_core::bindings::http::files`, which decides every step. Uploads are
//! R2 multipart uploads, one part per request; downloads stream from R2;
//! a deleted message's files leave R2 after its deletion is committed
//! ([`NetworkHost::start_file_release`]).

use crate::host::{read_body, read_bytes, request_head, respond};
use crate::network::component::Component;
use crate::network::file_releases::Releases;
use crate::network::file_store;
use crate::network::http::RequestIo;
use crate::network::object::NetworkHost;
use agentnet_core::bindings::http::files::FileStore;
use agentnet_core::bindings::http::files::{self, FilePlan, FileRoute};
use agentnet_core::bindings::http::no_such_network;
use agentnet_core::bindings::step::Step;
use agentnet_core::files::FileId;
use agentnet_core::files::{FileState, PART_BYTES, StoredFile, deleted_message, released_by};
use agentnet_core::network::Effect;
use agentnet_core::{Address, Event, NetworkId};
use std::rc::Rc;
use worker::{Bucket, HttpMetadata, Request, Response, Result, UploadedPart};

/// The R2 bucket binding's name.
pub const FILES_BINDING: &str = "FILES";

impl NetworkHost {
    fn bucket(&self) -> Result<Bucket> {
        self.env.bucket(FILES_BINDING)
    }

    /// Answers a request under `v1/files` (`route`, read once by the core's table).
    pub(crate) async fn serve_files(
        &self,
        mut req: Request,
        id: NetworkId,
        route: FileRoute,
    ) -> Result<Response> {
        let mut request = request_head(&req);
        let bytes = if matches!(route, FileRoute::Part(..)) {
            read_bytes(&mut req, PART_BYTES as usize).await
        } else {
            read_body(&mut req).await.map(|body| {
                request.body = body;
                Vec::new()
            })
        };
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(refusal) => return respond(refusal),
        };
        if !self.ensure_loaded(&id)? {
            return respond(no_such_network(&id));
        }
        if route == FileRoute::Begin {
            // Space held by uploads abandoned a day ago is freed before it is counted.
            let abandoned = file_store::take_abandoned(&self.store()?.sql, crate::host::now())?;
            self.delete_from_r2(abandoned);
        }
        let len = bytes.len() as u64;
        let step =
            self.with_network(|io, network| files::plan(io, network, &request, &route, len))?;
        let plan = match step {
            Step::Answer(answer) => return respond(answer),
            Step::Go(plan) => plan,
        };
        match plan {
            FilePlan::Begin(file) => self.begin_upload(&id, file).await,
            FilePlan::Part { file, number } => self.store_part(&id, &file, number, bytes).await,
            FilePlan::Complete { file, parts } => self.complete_upload(&id, file, parts).await,
            FilePlan::Content { file, headers } => self.stream_file(&id, &file, headers).await,
        }
    }

    async fn begin_upload(&self, id: &NetworkId, mut file: StoredFile) -> Result<Response> {
        let metadata = HttpMetadata {
            content_type: Some(file.mime.clone()),
            ..Default::default()
        };
        let started = self
            .bucket()?
            .create_multipart_upload(file.key(id))
            .http_metadata(metadata)
            .execute()
            .await;
        let upload = match started {
            Ok(upload) => upload,
            Err(err) => return self.storage_failed("starting the upload", &err),
        };
        if let FileState::Uploading { upload_id, .. } = &mut file.state {
            *upload_id = upload.upload_id().await;
        }
        respond(self.with_network(|io, _| files::begun(io, &file))?)
    }

    async fn store_part(
        &self,
        id: &NetworkId,
        file: &StoredFile,
        number: u16,
        bytes: Vec<u8>,
    ) -> Result<Response> {
        let FileState::Uploading { upload_id, .. } = &file.state else {
            return respond(files::storage_failed("the upload is over"));
        };
        let size = bytes.len() as u64;
        let upload = self
            .bucket()?
            .resume_multipart_upload(file.key(id), upload_id)?;
        let etag = match upload.upload_part(number, bytes).await {
            Ok(part) => part.etag(),
            Err(err) => return self.storage_failed("storing a part", &err),
        };
        respond(self.with_network(|io, _| files::part_stored(io, &file.id, number, etag, size))?)
    }

    async fn complete_upload(
        &self,
        id: &NetworkId,
        file: StoredFile,
        parts: Vec<(u16, String)>,
    ) -> Result<Response> {
        let FileState::Uploading { upload_id, .. } = &file.state else {
            return respond(files::storage_failed("the upload is over"));
        };
        let upload = self
            .bucket()?
            .resume_multipart_upload(file.key(id), upload_id)?;
        let parts = parts
            .into_iter()
            .map(|(n, etag)| UploadedPart::new(n, etag));
        if let Err(err) = upload.complete(parts).await {
            return self.storage_failed("completing the upload", &err);
        }
        let answer = self.with_network(|io, network| files::completed(io, network, file))?;
        self.schedule_alarm().await?;
        respond(answer)
    }

    async fn stream_file(
        &self,
        id: &NetworkId,
        file: &StoredFile,
        headers: Vec<(String, String)>,
    ) -> Result<Response> {
        let object = match self.bucket()?.get(file.key(id)).execute().await {
            Ok(Some(object)) => object,
            Ok(None) => {
                return respond(agentnet_core::bindings::Response::error(
                    agentnet_core::ErrorCode::NotFound,
                    "the file is gone",
                ));
            }
            Err(err) => return self.storage_failed("reading the file", &err),
        };
        let Some(body) = object.body() else {
            return respond(files::storage_failed("the file has no body"));
        };
        let mut response = Response::from_body(body.response_body()?)?;
        for (name, value) in &headers {
            // workerd sets the length of R2's stream itself.
            if name != "Content-Length" {
                response.headers_mut().set(name, value)?;
            }
        }
        Ok(response)
    }

    fn storage_failed(&self, what: &str, err: &worker::Error) -> Result<Response> {
        worker::console_error!("R2 failed {what}: {err}");
        respond(files::storage_failed(what))
    }

    /// Deletes from R2, in a task of its own, the files that committed
    /// events released (a deleted message's attachments, an unregistered
    /// resource); their records go at once, so the quota frees at once.
    pub(crate) fn start_file_release(&self) {
        let events = self.live.releases.take();
        if events.is_empty() {
            return;
        }
        let released = match self.released_files(&events) {
            Ok(released) => released,
            Err(err) => {
                worker::console_error!("files not released: {err}");
                return;
            }
        };
        self.delete_from_r2(released);
    }

    /// Deletes `released` from R2 in a task of its own: a stored object is
    /// deleted, an upload never completed is aborted.
    fn delete_from_r2(&self, released: Vec<StoredFile>) {
        if released.is_empty() {
            return;
        }
        // The network's id from its stored configuration: a commit may run
        // while the network is borrowed (an HTTP send), so it is not borrowed here.
        let network = match self.store().and_then(|store| store.config()) {
            Ok(Some(config)) => config.id,
            Ok(None) => return,
            Err(err) => {
                worker::console_error!("files not released: {err}");
                return;
            }
        };
        let Ok(bucket) = self.bucket() else {
            return;
        };
        worker::wasm_bindgen_futures::spawn_local(async move {
            for file in &released {
                let key = file.key(&network);
                let gone = match &file.state {
                    FileState::Uploading { upload_id, .. } => {
                        match bucket.resume_multipart_upload(&key, upload_id) {
                            Ok(upload) => upload.abort().await,
                            Err(err) => Err(err),
                        }
                    }
                    FileState::Stored => bucket.delete(&key).await,
                };
                if let Err(err) = gone {
                    worker::console_error!("R2 did not delete {key}: {err}");
                }
            }
        });
    }

    fn released_files(&self, events: &[Rc<Event>]) -> Result<Vec<StoredFile>> {
        let store = self.store()?;
        let mut released = Vec::new();
        for event in events {
            let message = match deleted_message(event) {
                Some(id) => store.event_by_id(&id)?,
                None => None,
            };
            for release in released_by(event, message.as_ref()) {
                for file in file_store::of_resource(&store.sql, &release.resource)? {
                    if release.covers(&file) {
                        file_store::remove(&store.sql, &file.id)?;
                        released.push(file);
                    }
                }
            }
        }
        Ok(released)
    }
}

impl FileStore for RequestIo<'_> {
    type Error = worker::Error;

    fn file(&mut self, id: &FileId) -> Result<Option<StoredFile>> {
        file_store::get(&self.sql(), id)
    }

    fn save_file(&mut self, file: &StoredFile) -> Result<()> {
        file_store::save(&self.sql(), file)
    }

    fn used_bytes(&mut self) -> Result<u64> {
        file_store::used(&self.sql())
    }

    fn link_key(&mut self) -> Result<[u8; 32]> {
        file_store::key(&self.sql(), crate::host::random_seed())
    }
}

impl Component<NetworkHost> for Releases {
    fn observe(&self, effect: &Effect, _taken: &mut Vec<Address>) {
        if let Effect::Append { event, .. } = effect {
            self.appended(event);
        }
    }

    /// Stored files a deleted message or resource released leave R2.
    fn committed(&self, host: &NetworkHost) {
        host.start_file_release();
    }
}
