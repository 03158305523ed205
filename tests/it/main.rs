//! The one integration test binary (`STYLE.md`, "Tests"): checks that read the repository's own
//! files rather than call the crate.

#[cfg(not(target_arch = "wasm32"))]
mod docs;
#[cfg(not(target_arch = "wasm32"))]
mod layers;
mod stored_values;
#[cfg(target_arch = "wasm32")]
mod wasm_adapters;
