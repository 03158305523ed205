//! How the object's reviewer routes answer: an HTML reply (the Worker adds the pages' security
//! headers when it frames it) and the message page (`web::html::message_page`, written once).

use crate::http::HttpReply;

/// An HTML reply.
pub fn html(status: u16, body: String) -> HttpReply {
    HttpReply::new(status, "text/html; charset=utf-8", body)
}

/// A page saying what went wrong.
pub fn message_page(status: u16, title: &str, message: &str, base_url: &str) -> HttpReply {
    html(
        status,
        crate::web::html::message_page(title, message, base_url),
    )
}
