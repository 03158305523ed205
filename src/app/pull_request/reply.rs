//! How the object's reviewer routes answer a page: an HTML reply (the Worker adds the pages'
//! security headers when it frames it, `service::review::framed_page`), and the message page
//! (`web::html::message_page`) as a reply, written once for the object's routes and the
//! Worker's refusals alike.

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
