//! OAuth 2.1 for the MCP endpoint (MCP authorization, 2025-06-18 through 2026-07-28): this Worker
//! is both the protected resource and its own authorization server, with GitHub as the identity
//! provider underneath.
//!
//! The pure modules decide, with time, randomness and stored records passed in:
//! `challenge` (401/403/429 replies and RFC 9728 metadata), `metadata` (RFC 8414), `pkce`,
//! `redirect_uri`, `clients` (RFC 7591 registration and Client ID Metadata Documents),
//! `authorize` (the authorization request and the consent form), `grants` (codes, grants,
//! refresh rotation), `token_request` (a code exchange or refresh, typed, and the person it goes
//! to), `tokens` (token formats and hashes), `rate_limit`, `github_flow` (the GitHub web flow's
//! requests and responses), `person_api` (messages to the person's object), `web_client` (the
//! review pages' own registration, authorization request and token requests), `form` and `error`
//! (RFC 6749 error codes and their one rendering).
//! The application layer carries the decisions out: `app::oauth` (the endpoints' flows over the
//! Worker's ports: KV, the people's objects, GitHub, metadata documents; `service::oauth_server`
//! is its shell) and `app::person` (each person's state, run by the `store::PersonStore`
//! object); `seal` (AES-GCM for GitHub tokens at rest) is wasm only.
//!
//! # Each MUST and the test that holds it
//!
//! End-to-end tests are in `tests/e2e/oauth.test.mjs` (and, for `/settings`,
//! `tests/e2e/settings.test.mjs`); each is named by the start of its title. What the person's
//! object does with them is tested in-process too (`app::person::tests`, named by module), and
//! so are the Worker's endpoints, with the real person application behind them
//! (`app::oauth::tests`, issue #45).
//! Issue #37 moved the end-to-end cases that tested a rule rather than the platform into the
//! native tests named here; a row whose end-to-end cell names a smoke case of another rule keeps
//! its route exercised through workerd, and `—` means the rule is held natively only.
//!
//! | Rule (issue #5, DESIGN.md §5) | Native test | End-to-end test |
//! |---|---|---|
//! | AS metadata: `issuer` equals its URL, S256 only, CIMD and `iss` flags | `metadata::tests::metadata` | `authorization server metadata`, `the conformance suite` |
//! | 401 + `WWW-Authenticate` with `resource_metadata` and `scope` | `challenge::tests::missing_token_points_at_metadata` | `an unauthenticated /mcp request` |
//! | expired or revoked token → 401 `invalid_token` | `grants::tests::access_tokens`, `app::person::tests::refresh` | `an API token is shown once` (revoked at `/oauth/revoke`), `connected apps are listed` |
//! | token without write on a save → 403 `insufficient_scope` | `challenge::tests::insufficient_scope_names_the_scope`, `authorize::tests::consent_forms` (the unticked box), `tools::get_pull_request::tests::a_read_only_connection_cannot_arrange` | `an API token is shown once` (a read token's save) |
//! | registration: https, loopback http any port, app schemes; no `javascript:`, `data:`, `file:`, fragments, user info | `redirect_uri::tests::registration_rules`, `clients::tests::registration_requests`, `clients::tests::the_redirect_uris_a_client_may_register` | `the per-address limit counts the socket` (`security.test.mjs`) |
//! | CIMD: https URL with a path, `client_id` equal, required fields, ≤ 5 KB, exact redirects | `clients::tests::metadata_document_urls`, `clients::tests::metadata_documents`, `app::oauth::tests::clients` (fetch, no redirects, size, cache, SSRF, time limit) | `a client ID metadata document client` |
//! | redirect URI exact match (loopback: any port) | `redirect_uri::tests::matching`, `app::person::tests::codes`, `authorize::tests::request_rules_in_order` | `a client ID metadata document client` |
//! | client and redirect URI first, shown on a page; later errors go back with `state` and `iss` | `authorize::tests::request_rules_in_order`, `error::tests::redirect_reply_carries_state_and_iss`, `web::consent::tests::page_reply_cannot_be_framed`, `app::oauth::tests::clients::unknown_clients_are_refused_on_a_page_never_redirected` | `a client ID metadata document client` |
//! | PKCE S256 only: plain and missing refused | `pkce::tests::only_s256_is_accepted`, `authorize::tests::request_rules_in_order` | — |
//! | PKCE verifier checked at the token endpoint | `pkce::tests::verifiers`, `grants::tests::code_exchanges`, `app::person::tests::codes`, `error::tests::token_refusals_say_what_was_wrong` | `W1. the review pages' sign-in` |
//! | `resource` must be our `/mcp` (authorize and token); a token is good only there (RFC 8707) | `authorize::tests::request_rules_in_order`, `grants::tests::code_exchanges`, `app::person::tests::codes`, `app::person::tests::checks::a_token_is_good_only_at_its_resource` | — |
//! | codes single use, 10 minutes; a second use revokes the grant; a failed use spends the code (below, issue 31) | `grants::tests::code_exchanges`, `app::person::tests::codes` | `W1. the review pages' sign-in` |
//! | access 1 h; refresh rotates, 30 days from use, 180 days at most; a refresh names its client | `grants::tests::refreshes`, `grants::tests::refresh_lifetimes`, `app::person::tests::refresh`, `token_request::tests::forms` | `the SDK refreshes by itself` |
//! | a replayed refresh token revokes the grant | `grants::tests::refreshes`, `app::person::tests::refresh::a_refresh_rotates_and_a_replay_revokes_the_grant` | — |
//! | authorization response carries `code`, `state`, `iss` | `authorize::tests::validated_request`, `error::tests::redirect_reply_carries_state_and_iss`, `app::oauth::tests::flow::full_flow_consent_page_code_and_token`, `app::oauth::tests::flow::deny_sends_access_denied_back_with_state_and_iss` | `full flow` |
//! | consent: CSRF token + `__Host-` cookie bound to the pending consent, same origin (`Origin` or `Sec-Fetch-Site`, one of them required), form body, single use | `authorize::tests::consent_forms`, `app::person::tests::consent`, `app::oauth::tests::flow::the_consent_post_is_held_to_the_browser_post_rules` | `full flow` (the real form) |
//! | consent never framed, client text escaped, Verified/Unverified, redirect host shown | `web::consent::tests` | `full flow`, `a client ID metadata document client` |
//! | consent remembered per (person, client, redirect URI) | `redirect_uri::tests::consent_keys`, `app::person::tests::consent` | `consent is offered again when a person asks to change access` (`security-round3.test.mjs`) |
//! | GitHub round trip: PKCE, single-use `state` bound to the browser, 10 minutes | `github_flow::tests::authorize_url_has_pkce_and_state`, `app::oauth::tests::flow` (`the_callback_completes_only_in_the_browser_that_started_it`, `a_flow_is_used_once`, `a_flow_expires_after_ten_minutes_even_if_kv_still_holds_it`) | `full flow` (the flow cookie sent back) |
//! | token responses `Cache-Control: no-store` | `error::tests::json_reply_is_not_cached`, `app::oauth::tests::flow::full_flow_consent_page_code_and_token` | `full flow`, `the conformance suite` |
//! | 120 requests/min/person → 429 + `Retry-After` + JSON-RPC error | `rate_limit::tests::the_121st_request_in_a_minute_is_refused`, `challenge::tests::rate_limited_says_when_to_retry`, `app::person::tests::checks` (the window, another person's) | `a rate-limited request says so` (`operations.test.mjs`) |
//! | per-address limit on register, token, authorize | `rate_limit::tests::windows`, `app::person::tests::checks::the_address_window_counts_per_object`, `error::tests::codes_and_statuses`, `app::oauth::tests::limits` (per address, one window for the three, failing open) | `the per-address limit counts the socket` (`security.test.mjs`) |
//! | GitHub tokens never leave the server; redacted `Debug` | `github_flow::tests::refresh_timing`, `person_api::tests::replies_round_trip` | `full flow` (no `gho_` in responses), `the GitHub token works for tools` |
//! | the official SDK's OAuth client provider works end to end | — | `the official SDK client connects`, `the SDK refreshes by itself` |
//! | `/settings`: apps with access and last use; Disconnect ends a grant on the very next request, its refresh refused | `web::settings_page::tests::escapes_names_and_shows_access`, `app::person::tests::settings` | `connected apps are listed` |
//! | `/settings` forms: the CSRF token of this browser session and person, same origin, form body (below, issue 31); CSP, no framing | `web::csrf::tests::verification` | `forms without the CSRF token` (a planted token, a text body) |
//! | API tokens (`lfk_`): hashed, shown once, bearer on `/mcp`, name in `updatedBy`, revocable | `tokens::tests::mint_and_parse`, `web::settings_page::tests::shows_a_new_token_once` | `an API token is shown once` |
//! | the review pages' web sign-in is an ordinary client: the registration rules, PKCE, client, redirect URI and resource bindings, refresh rotation, and the token endpoint's per-address limit | `web_client::tests::the_callback_grant_is_refused_with_a_wrong_verifier_or_client`, `web_client::tests::a_session_refresh_names_its_client_and_resource`, `token_request::tests::only_our_tokens_of_the_right_kind_name_a_person` | `a reviewer signs in with GitHub` (`tests/e2e/review-page.test.mjs`), `4. sign-out` |
//!
//! ### Hardening after the outside attack run (issue 14)
//!
//! Each row's end-to-end test is in `tests/e2e/security.test.mjs` and fails without its fix.
//!
//! | rule | unit tests | end-to-end test |
//! |---|---|---|
//! | a tick needs the viewer's own GitHub read of the pull request (404 otherwise, nothing stored, no object created), names only an item its latest page offers, and a person holds at most `MAX_TICKS_PER_PERSON` ticks per pull request; the reply names only the item | `web::review_page::tests::tickable_items_are_exactly_the_ticks_the_page_offers` | `1. a tick on a pull request the viewer cannot see`, `1. a tick must name an item`, `1. a tick without the CSRF pair` |
//! | `.` and `..` are not owner or repository names (tools and `/r/…`); GitHub paths are built only from a checked `RepoPath` and never leave `/repos/{owner}/{repo}/` | `github::api::tests::names_that_would_leave_the_repository_are_refused`, `github::api::tests::no_path_leaves_the_repository`, `tools::arguments::tests::dot_names_are_refused`, `router::tests::routes` | `2. \`.\` and \`..\` are refused` |
//! | client names with control or format (Cf: bidi, zero-width) characters are refused at registration and in metadata documents; self-reported `clientInfo` names lose them; names are shown in `<bdi>` | `unicode::tests`, `clients::tests::registration_requests`, `clients::tests::client_names_that_hide_or_show_nothing_are_refused`, `web::consent::tests::names_are_isolated_and_never_reordered`, `web::settings_page::tests`, `mcp::dispatch::tests::reported_client_names_lose_format_and_control_characters` | — |
//! | sign-out is a POST with the CSRF pair and a same-site `Origin`; `GET /signout` only shows the button | `router::tests::routes` | `4. sign-out`, `a reviewer signs in with GitHub` |
//! | Client ID Metadata Document URLs on `localhost.`, `*.localhost`, single-label names, `.internal`, `.local`, `.lan`, `.home.arpa`, `.test` and other internal zones are refused before any fetch | `clients::tests::metadata_document_urls` | `5. metadata document URLs on internal-looking hosts` |
//! | the per-address limit keys on `cf-connecting-ip` only where Cloudflare's edge sets it (`CLIENT_ADDRESS=edge`, production); under `wrangler dev`, which passes on a client's own header, on the loopback socket | `rate_limit::tests::a_forged_header_is_ignored_in_local_development` | `the per-address limit counts the socket` |
//!
//! ### Hardening, round 2 (issue 31)
//!
//! Each row's test fails without its fix (checked against the code before it); W1's are
//! in-process in `app::person::tests::codes` with the review pages' sign-in as the smoke case in
//! `tests/e2e/oauth.test.mjs`; W2's rules in `web::csrf::tests` with each route's wiring in
//! `tests/e2e/security.test.mjs` and `settings.test.mjs`, plus the arrange editor's in
//! `tests/e2e/review-page.test.mjs`.
//!
//! | rule | unit tests | end-to-end test |
//! |---|---|---|
//! | W1: an exchange that fails after naming a code we minted (wrong or malformed `code_verifier`, another `client_id`, `redirect_uri` or `resource`, too late) spends the code: the right request then gets `invalid_grant`; decided and carried out in one synchronous step of the person's object | `grants::tests::code_exchanges`, `web_client::tests::the_callback_grant_is_refused_with_a_wrong_verifier_or_client`, `app::person::tests::codes::w1_a_code_presented_with_another_redirect_uri_or_resource_is_spent`, `…::another_client_presenting_the_code_burns_it` | `W1. the review pages' sign-in spends its code` |
//! | W1: any attempt with a code that already made tokens (a wrong verifier or client included) revokes them, as a replay does | `grants::tests::code_exchanges`, `app::person::tests::codes::a_reused_code_revokes_the_grant_it_made`, `app::person::tests::codes::w1_a_failed_attempt_with_a_redeemed_code_revokes_what_it_made` | — |
//! | W2: the pages' CSRF token is HMAC-SHA-256 of the browser session's nonce and the signed-in person under a key derived from `TOKEN_ENCRYPTION_KEY`: a planted cookie makes no valid pair, another person's pair is refused | `security::hmac::tests::rfc_4231_vectors`, `security::browser_post::tests::session_tokens`, `web::csrf::tests::verification` | `W2. a CSRF pair works only for the person`, `forms without the CSRF token` |
//! | W2: every state-changing browser request (settings forms, ticks, arrange, sign-out, Delete my data, consent) needs `Origin` equal to this site or `Sec-Fetch-Site: same-origin`, neither naming another; one with neither is refused with a page that says why | `security::browser_post::tests::origins`, `web::csrf::tests::verification`, `web::csrf::tests::refusals_say_what_to_do`, `authorize::tests::consent_forms` | `1. a tick without the CSRF pair`, `4. sign-out`, `forms without the CSRF token`, `arrange on the web: forged and invalid posts` |
//! | form endpoints refuse other content types (`text/plain`, multipart, JSON) with 415; the arrange save takes JSON only | `security::browser_post::tests::content_types`, `web::csrf::tests::verification`, `authorize::tests::consent_forms` | `forms without the CSRF token` (a text body), `arrange on the web: forged and invalid posts` |
//! | `client_name` must have a visible character: empty, white-space-only and invisible-only names get `invalid_client_metadata` | `unicode::tests::visible_characters`, `clients::tests::registration_requests`, `clients::tests::client_names_that_hide_or_show_nothing_are_refused` | — |
//! | `/context` names the file GitHub couldn't serve, not the pull request | `errors::tests::file_failures_name_the_file_not_the_pull_request` | `31. /context names the file GitHub could not serve` |

pub mod authorize;
pub mod challenge;
pub mod clients;
pub mod error;
pub mod form;
pub mod github_flow;
pub mod grants;
pub mod metadata;
pub mod person_api;
pub mod pkce;
pub mod rate_limit;
pub mod redirect_uri;
pub mod token_request;
pub mod tokens;
pub mod web_client;

#[cfg(target_arch = "wasm32")]
pub mod seal;

/// The longest client name we show (registration and client ID metadata documents refuse
/// longer ones). Here rather than in `clients`, so `error`'s message names it without an import
/// loop.
pub const MAX_CLIENT_NAME_CHARS: usize = 100;
