//! Clients: registration (RFC 7591) and client ID metadata documents: their fetch rules, size
//! limit, cache and which URLs may be fetched at all (the end-to-end "metadata document" case,
//! now in-process, with the cache's and the time limit's rules it could not see).

use super::support::*;
use super::*;
use crate::app::oauth::clients::{
    CLIENT_TTL_SECONDS, DOCUMENT_FAILURE_TTL_SECONDS, DOCUMENT_TTL_SECONDS,
};
use crate::oauth::tokens::hash;

const DOC: &str = "https://app.example/oauth/client.json";
const DOC_REDIRECT: &str = "https://app.example/callback";

fn document(client_id: &str) -> String {
    format!(
        r#"{{"client_id":"{client_id}","client_name":"Metadata App","redirect_uris":["{DOC_REDIRECT}"]}}"#
    )
}

fn authorize_document(world: &World, client_id: &str, redirect: &str) -> HttpReply {
    let query = format!(
        "response_type=code&client_id={}&redirect_uri={}&code_challenge={}\
         &code_challenge_method=S256&state=doc",
        enc(client_id),
        enc(redirect),
        pkce::s256(VERIFIER)
    );
    world.call(OAuthEndpoint::Authorize, get(&query))
}

#[test]
fn registration_mints_an_id_and_keeps_the_client_for_180_days() {
    let world = World::new();
    let flow = Flow::register(&world, "App");
    assert!(flow.client_id.starts_with("lfd_"), "{}", flow.client_id);
    let key = format!("client:{}", flow.client_id);
    assert_eq!(world.kv.ttl(&key), Some(CLIENT_TTL_SECONDS));
    assert!(world.kv.value(&key).unwrap_or_default().contains(REDIRECT));
}

#[test]
fn registration_answers_201_with_no_store_and_refuses_a_bad_body() {
    let world = World::new();
    let body = format!(r#"{{"client_name":"App","redirect_uris":["{REDIRECT}"]}}"#);
    let reply = world.call(OAuthEndpoint::Register, json(&body));
    assert_eq!(reply.status, 201);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let bad = world.call(OAuthEndpoint::Register, json(r#"{"client_name":"App"}"#));
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(body_json(&bad)["error"], "invalid_client_metadata");
    let mut unreadable = json("");
    unreadable.body = None;
    assert_eq!(world.call(OAuthEndpoint::Register, unreadable).status, 400);
}

#[test]
fn authorize_renews_a_registered_clients_lifetime() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    let key = format!("client:{}", flow.client_id);
    if let Some(entry) = world.kv.entries.borrow_mut().get_mut(&key) {
        entry.1 = Some(1);
    }
    flow.authorize(&flow.query("s"));
    assert_eq!(world.kv.ttl(&key), Some(CLIENT_TTL_SECONDS));
}

#[test]
fn unknown_clients_are_refused_on_a_page_never_redirected() {
    let world = World::new();
    for client in ["nobody", "lfd_unknown", "ftp://x.example/c.json"] {
        let mut flow = Flow::for_client(&world, client);
        let reply = flow.authorize(&flow.query("s"));
        assert!(reply.status >= 400, "{client}: {}", reply.status);
        assert_eq!(reply.header("location"), None, "{client}");
    }
}

#[test]
fn a_metadata_document_client_is_verified_and_bound_to_its_document() {
    let world = World::new();
    world.documents.serve(DOC, &document(DOC));
    world.github_signs_in("octo", 1001);
    let mut flow = Flow::for_client(&world, DOC);
    let started = authorize_document(&world, DOC, DOC_REDIRECT);
    assert_eq!(started.status, 302, "{}", started.body);
    flow.keep(&started);
    let page = flow.callback(&started);
    assert!(page.body.contains("Verified: app.example"), "{}", page.body);
    assert!(page.body.contains("Metadata App"));
    // A document client is not stored as a registered client.
    assert!(world.kv.keys("client:").is_empty());
    // Redirect URIs must match the document: refused on a page.
    let elsewhere = authorize_document(&world, DOC, "https://app.example/other");
    assert_eq!(elsewhere.status, 400);
    assert_eq!(elsewhere.header("location"), None);
}

#[test]
fn a_document_whose_client_id_is_not_its_url_is_refused() {
    let world = World::new();
    world
        .documents
        .serve(DOC, &document("https://app.example/other.json"));
    let reply = authorize_document(&world, DOC, DOC_REDIRECT);
    assert_eq!(reply.status, 401, "{}", reply.body);
    assert_eq!(reply.header("location"), None);
}

#[test]
fn a_redirect_is_not_followed() {
    let world = World::new();
    let moved = Document {
        status: 302,
        declared_length: None,
        body: Vec::new(),
    };
    world
        .documents
        .documents
        .borrow_mut()
        .insert(DOC.into(), moved);
    let reply = authorize_document(&world, DOC, DOC_REDIRECT);
    assert!(reply.status >= 400);
    assert!(
        reply.body.to_lowercase().contains("redirect"),
        "{}",
        reply.body
    );
    assert_eq!(world.documents.reads.get(), 0);
}

#[test]
fn a_document_over_the_size_limit_is_refused_unread_when_declared_and_cut_off_when_not() {
    let world = World::new();
    let limit = crate::oauth::clients::MAX_DOCUMENT_BYTES;
    let huge = Document {
        status: 200,
        declared_length: Some(limit + 1),
        body: vec![b' '; limit + 1],
    };
    world
        .documents
        .documents
        .borrow_mut()
        .insert(DOC.into(), huge.clone());
    let reply = authorize_document(&world, DOC, DOC_REDIRECT);
    assert!(reply.status >= 400);
    assert!(
        reply.body.contains("KB") || reply.body.contains("large"),
        "{}",
        reply.body
    );
    assert_eq!(
        world.documents.reads.get(),
        0,
        "a declared length over the limit is not read"
    );
    // Undeclared (chunked): read up to the limit, then refused.
    let other = "https://app.example/oauth/chunked.json";
    let chunked = Document {
        declared_length: None,
        ..huge
    };
    world
        .documents
        .documents
        .borrow_mut()
        .insert(other.into(), chunked);
    let reply = authorize_document(&world, other, DOC_REDIRECT);
    assert!(
        reply.body.contains("KB") || reply.body.contains("large"),
        "{}",
        reply.body
    );
    assert_eq!(world.documents.reads.get(), 1);
}

#[test]
fn a_document_is_cached_for_a_day_and_a_failure_for_a_minute() {
    let world = World::new();
    world.documents.serve(DOC, &document(DOC));
    authorize_document(&world, DOC, DOC_REDIRECT);
    authorize_document(&world, DOC, DOC_REDIRECT);
    assert_eq!(
        world.documents.fetched.borrow().len(),
        1,
        "the second comes from the cache"
    );
    let key = format!("cimd:{}", hash(DOC));
    assert_eq!(world.kv.ttl(&key), Some(DOCUMENT_TTL_SECONDS));

    let missing = "https://app.example/oauth/missing.json";
    let first = authorize_document(&world, missing, DOC_REDIRECT);
    assert!(first.status >= 400);
    let again = authorize_document(&world, missing, DOC_REDIRECT);
    assert!(again.status >= 400);
    assert_eq!(
        world.documents.fetched.borrow().len(),
        2,
        "a failure is not fetched again"
    );
    let key = format!("cimd:{}", hash(missing));
    assert_eq!(world.kv.ttl(&key), Some(DOCUMENT_FAILURE_TTL_SECONDS));
    assert_ne!(
        first.body, again.body,
        "the cached failure says it failed recently"
    );
}

#[test]
fn a_document_that_does_not_come_in_time_is_unreachable() {
    let world = World::new();
    world.documents.hang.set(true);
    let reply = authorize_document(&world, DOC, DOC_REDIRECT);
    assert!(reply.status >= 400, "{}", reply.body);
    assert_eq!(reply.header("location"), None);
    assert_eq!(world.documents.fetched.borrow().len(), 1);
}

#[test]
fn private_and_loopback_document_urls_are_never_fetched() {
    let world = World::new();
    for url in [
        "https://10.0.0.1/client.json",
        "https://localhost/client.json",
        "https://metadata.google.internal/client.json",
        "http://127.0.0.1:9/client.json",
        "http://app.example/client.json",
    ] {
        let reply = authorize_document(&world, url, DOC_REDIRECT);
        assert!(reply.status >= 400, "{url}");
    }
    assert!(world.documents.fetched.borrow().is_empty());
    // Loopback documents only when the deployment allows them (local tests).
    let local = World::with(&[("ALLOW_LOOPBACK_CLIENT_METADATA", "1")]);
    authorize_document(&local, "http://127.0.0.1:9/client.json", DOC_REDIRECT);
    assert_eq!(local.documents.fetched.borrow().len(), 1);
}
