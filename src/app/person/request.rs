//! The person object's operations as one typed request: the path of the object's URL says which,
//! its JSON body says with what (`oauth::person_api`, `person_data`).
//!
//! Why here: the shell decodes a request by calling [`Request::decode`] and nothing else, so
//! every operation's body is decoded once, into its derived type, natively testable.
//! What not: no behaviour; `Person::answer` runs the request.

use serde::Serialize;

use crate::oauth::person_api as api;
use crate::person_data as data;

/// One operation on a person's object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    Check(api::CheckRequest),
    Address(api::AddressRequest),
    Begin(api::BeginRequest),
    Consent(api::ConsentRequest),
    Token(api::CodeTokenRequest),
    Refresh(api::RefreshTokenRequest),
    Revoke(api::RevokeRequest),
    Settings(api::SettingsRequest),
    Disconnect(api::DisconnectRequest),
    CreateApiToken(api::CreateApiTokenRequest),
    RevokeApiToken(api::RevokeApiTokenRequest),
    NoteTicked(data::Ticked),
    /// One batch of the index, at most `person_data::PULLS_PER_REQUEST` entries.
    ListTicked {
        limit: usize,
    },
    DropTicked(data::TickedList),
    /// Whether the index lists a pull request under a key (`person_data::adopts_login_rows`).
    HasTicked(data::Ticked),
    Forget,
}

/// `HAS_TICKED`'s reply: `{"listed": bool, "logins": [...]}`: whether the index lists the pull
/// request under the asked key, and every login it lists the pull request under (issue 36: an
/// account renamed before its first visit after rows were keyed by id finds its rows by these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listed {
    pub listed: bool,
    pub logins: Vec<String>,
}

/// The reply of an operation that answers nothing but success: `{}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Done {}

impl Request {
    /// The request `path` names with `body`; `Ok(None)` when no operation has that path.
    pub fn decode(path: &str, body: &str) -> Result<Option<Request>, crate::json::DecodeError> {
        use crate::json::decode;
        Ok(Some(match path {
            api::CHECK => Request::Check(decode(body)?),
            api::ADDRESS => Request::Address(decode(body)?),
            api::BEGIN => Request::Begin(decode(body)?),
            api::CONSENT => Request::Consent(decode(body)?),
            api::TOKEN => Request::Token(decode(body)?),
            api::REFRESH => Request::Refresh(decode(body)?),
            api::REVOKE => Request::Revoke(decode(body)?),
            api::SETTINGS => Request::Settings(decode(body)?),
            api::DISCONNECT => Request::Disconnect(decode(body)?),
            api::CREATE_API_TOKEN => Request::CreateApiToken(decode(body)?),
            api::REVOKE_API_TOKEN => Request::RevokeApiToken(decode(body)?),
            data::NOTE_TICKED => Request::NoteTicked(decode(body)?),
            data::LIST_TICKED => Request::ListTicked {
                limit: data::batch_limit(body),
            },
            data::DROP_TICKED => Request::DropTicked(decode(body)?),
            data::HAS_TICKED => Request::HasTicked(decode(body)?),
            data::FORGET => Request::Forget,
            _ => return Ok(None),
        }))
    }

    /// Whether the operation may write grants, tokens or the GitHub token (all but the token
    /// check and the address window), so what the checks remembered must be forgotten.
    pub fn may_write(&self) -> bool {
        !matches!(self, Request::Check(_) | Request::Address(_))
    }
}

#[cfg(test)]
mod tests {
    use super::Request;

    #[test]
    fn each_path_decodes_its_body_once() {
        let check = Request::decode(
            "/check",
            r#"{"token":"t","limit_per_minute":3,"resource":"https://x/mcp"}"#,
        );
        assert!(matches!(check, Ok(Some(Request::Check(ref c))) if c.limit_per_minute == 3));
        assert!(matches!(
            Request::decode("/data/ticked/list", r#"{"limit":500}"#),
            Ok(Some(Request::ListTicked { limit: 40 }))
        ));
        assert!(matches!(
            Request::decode("/data/forget", ""),
            Ok(Some(Request::Forget))
        ));
        assert!(matches!(Request::decode("/nothing", "{}"), Ok(None)));
        let error = Request::decode("/revoke", r#"{"client_id":null}"#).unwrap_err();
        assert!(error.to_string().contains("token"), "{error}");
    }
}
