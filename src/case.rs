//! Lower-casing text for comparisons and ids that ignore case.
//!
//! Why not `str::to_lowercase` everywhere: in the wasm it brings the standard library's Unicode
//! case tables (about 15 KB, a few KB gzip of the 400 KiB budget, DESIGN.md section 7), while the
//! runtime already has the same mapping in JavaScript's `String.prototype.toLowerCase` (both
//! follow Unicode's default case conversion, final sigma included). So the wasm's entry installs
//! the runtime's mapping when an instance starts ([`install`]); native builds and tests use the
//! standard library's. Checklist ids are made with it, so the two must agree: they do for every
//! character both Unicode versions know.

#[cfg(target_arch = "wasm32")]
use std::sync::OnceLock;

/// The lowering the entry installed.
#[cfg(target_arch = "wasm32")]
static LOWER: OnceLock<fn(&str) -> String> = OnceLock::new();

/// Sets the function [`lowercase`] uses, once per instance (the entry's start hook).
#[cfg(target_arch = "wasm32")]
pub fn install(lower: fn(&str) -> String) {
    let _ = LOWER.set(lower);
}

/// `text` lower-cased by Unicode's default case conversion.
#[cfg(target_arch = "wasm32")]
pub fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    match LOWER.get() {
        Some(lower) => lower(text),
        // Not reached: the start hook runs before any request. ASCII is the safe floor.
        None => text.to_ascii_lowercase(),
    }
}

/// `text` lower-cased by Unicode's default case conversion.
#[cfg(not(target_arch = "wasm32"))]
pub fn lowercase(text: &str) -> String {
    text.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowers_ascii_and_beyond() {
        assert_eq!(lowercase("Src/Main.RS"), "src/main.rs");
        assert_eq!(lowercase("ÜBERBLICK Σ"), "überblick σ");
        // Final sigma, as JavaScript's toLowerCase lowers it too.
        assert_eq!(lowercase("ΟΔΟΣ"), "\u{3bf}\u{3b4}\u{3bf}\u{3c2}");
    }
}
