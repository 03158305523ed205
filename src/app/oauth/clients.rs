//! Clients: loading a client for `/authorize` (a registered one from KV, or a client ID metadata
//! document fetched, size-checked and cached), and registering one (`/oauth/register`, the review
//! pages' own client).
//!
//! A metadata document is fetched without following redirects, at most
//! `clients::MAX_DOCUMENT_BYTES` (a declared length over it is refused unread), within
//! [`DOCUMENT_TIMEOUT_MS`]; its outcome is cached under `cimd:<sha256(url)>`, a document for 24
//! hours, a failure for 60 seconds. Which URLs may be fetched at all (https, no private or
//! loopback hosts: the SSRF rule) is `clients::is_metadata_document_url`'s.

use futures_util::future::{select, Either};
use serde::{Deserialize, Serialize};

use super::{Incoming, Server, WorkerPorts};
use crate::http::HttpReply;
use crate::oauth::clients::{self, ClientRecord, Registration};
use crate::oauth::error::{DocumentProblem, Error};
use crate::oauth::tokens;
use crate::ports::edge::{Capped, DocumentFetch, Kv};
use crate::ports::pull_request::Console;

/// Registered clients stay 180 days after their last `/authorize`.
pub const CLIENT_TTL_SECONDS: u64 = 180 * 24 * 60 * 60;
pub const DOCUMENT_TTL_SECONDS: u64 = 24 * 60 * 60;
pub const DOCUMENT_FAILURE_TTL_SECONDS: u64 = 60;
pub const DOCUMENT_TIMEOUT_MS: u64 = 3_000;

/// A cached Client ID Metadata Document outcome.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CachedDocument {
    Client { client: ClientRecord },
    Failed,
}

impl<P: WorkerPorts> Server<'_, P> {
    /// The client `client_id` names: a metadata document's, or a registered one's.
    pub(crate) async fn load_client(&self, client_id: &str) -> Result<ClientRecord, Error> {
        let loopback = self.config.allow_loopback_client_metadata;
        if clients::is_metadata_document_url(client_id, loopback) {
            return self.metadata_client(client_id).await;
        }
        if client_id.contains("://") {
            return Err(Error::MetadataDocument(DocumentProblem::UnacceptableUrl));
        }
        if !client_id.starts_with(clients::REGISTERED_PREFIX) {
            return Err(Error::UnknownClient);
        }
        self.kv_json::<ClientRecord>(&format!("client:{client_id}"))
            .await?
            .ok_or(Error::UnknownClient)
    }

    /// A metadata document's client, from the cache or fetched (and its outcome cached).
    async fn metadata_client(&self, url: &str) -> Result<ClientRecord, Error> {
        let key = format!("cimd:{}", tokens::hash(url));
        match self.kv_json::<CachedDocument>(&key).await? {
            Some(CachedDocument::Client { client }) => return Ok(client),
            Some(CachedDocument::Failed) => {
                return Err(Error::MetadataDocument(DocumentProblem::RecentlyFailed))
            }
            None => {}
        }
        let fetched = self.fetch_metadata_document(url).await;
        let (entry, ttl) = match &fetched {
            Ok(client) => (
                CachedDocument::Client {
                    client: client.clone(),
                },
                DOCUMENT_TTL_SECONDS,
            ),
            Err(_) => (CachedDocument::Failed, DOCUMENT_FAILURE_TTL_SECONDS),
        };
        if let Ok(text) = serde_json::to_string(&entry) {
            if let Err(error) = self.ports.clients().put(&key, &text, Some(ttl)).await {
                self.ports.console().error(&format!(
                    "oauth: caching a metadata document failed: {error}"
                ));
            }
        }
        fetched.map_err(Error::MetadataDocument)
    }

    /// Fetches a Client ID Metadata Document: no redirects followed, at most 5 KB, 3 seconds.
    async fn fetch_metadata_document(&self, url: &str) -> Result<ClientRecord, DocumentProblem> {
        let fetch = self.ports.fetch();
        let read = async {
            let head = fetch
                .get(url)
                .await
                .map_err(|_| DocumentProblem::Unreachable)?;
            match head.status {
                200 => {}
                300..=399 => return Err(DocumentProblem::Redirected),
                status => return Err(DocumentProblem::Status(status)),
            }
            if head
                .declared_length
                .is_some_and(|len| len > clients::MAX_DOCUMENT_BYTES)
            {
                return Err(DocumentProblem::TooLarge);
            }
            match fetch.read(head.body, clients::MAX_DOCUMENT_BYTES).await {
                Ok(Capped::Body(body)) => clients::parse_metadata_document(url, &body, self.now()),
                Ok(Capped::TooLarge) => Err(DocumentProblem::TooLarge),
                Err(_) => Err(DocumentProblem::Unreachable),
            }
        };
        let timer = fetch.pause(DOCUMENT_TIMEOUT_MS);
        match select(Box::pin(read), Box::pin(timer)).await {
            Either::Left((result, _)) => result,
            Either::Right(_) => Err(DocumentProblem::Unreachable),
        }
    }

    /// `POST /oauth/register`: the per-address limit, then the registration read from JSON.
    pub(super) async fn register_endpoint(&self, incoming: Incoming) -> Result<HttpReply, Error> {
        self.address_limit(&incoming.address).await?;
        let body = incoming.body.ok_or(Error::MalformedBody)?;
        let client = self
            .register_client(clients::read_registration(&body)?)
            .await?;
        Ok(
            HttpReply::json(201, &clients::registration_response(&client))
                .with_header("cache-control", "no-store")
                .with_header("pragma", "no-cache"),
        )
    }

    /// Registers a client (RFC 7591 §3.2.1): mints its id and keeps its record. Shared by
    /// `/oauth/register` and the review pages' own client, registered once per host.
    pub async fn register_client(&self, registration: Registration) -> Result<ClientRecord, Error> {
        let client_id = format!(
            "{}{}",
            clients::REGISTERED_PREFIX,
            &self.random_text()?[..22]
        );
        let client = registration.record(client_id, self.now());
        self.store_client(&client).await?;
        Ok(client)
    }

    /// Keeps `client` for [`CLIENT_TTL_SECONDS`] from now.
    pub(super) async fn store_client(&self, client: &ClientRecord) -> Result<(), Error> {
        let key = format!("client:{}", client.client_id);
        self.kv_put_json(&key, client, CLIENT_TTL_SECONDS, "encoding a client")
            .await
    }
}
