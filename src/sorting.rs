//! One compiled stable sort for the sorts of the review core and the tools.
//!
//! Why: Rust compiles a sort once per element type and comparator, about 5–7 KB of wasm each
//! (the stable sort's merge, quick and small sorts), and the layout, hints, suggestions, the
//! review feedback and the file list each sorted their own type. [`sort_by`] sorts positions
//! (`usize`) with a comparator behind a `&dyn`, so every caller shares one compiled sort and
//! adds only a small permutation of its own (issue #37's size work).
//!
//! The result is exactly the standard library's stable `sort_by` with the same comparator:
//! positions are sorted by the comparator, then by position, a total order, so equal elements
//! keep their order; the elements are then moved into place by swaps.
//!
//! What not: no sorts of hot, large inputs where an indirect call per comparison would show
//! (none of the callers sorts more than a pull request's files).

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as `<[T]>::sort_by` does.
pub fn sort_by<T>(items: &mut [T], compare: &dyn Fn(&T, &T) -> Ordering) {
    let order = {
        let items = &*items;
        positions(items.len(), &|a, b| compare(&items[a], &items[b]))
    };
    permute(items, &order);
}

/// Sorts `items` stably in their own order, as `<[T]>::sort` does (the review page's and the
/// checklist's hunk ids, the recorded head shas, the Go imports: every `Vec<&str>` sort, so no
/// standard sort of `&str` is compiled beside the one here).
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, &|a, b| a.cmp(b));
}

/// Sorts `items` stably by the key `key` gives, as `<[T]>::sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: &dyn Fn(&T) -> K) {
    sort_by(items, &|a, b| key(a).cmp(&key(b)));
}

/// `0..count` sorted by `compare`, ties by position: the one compiled sort.
fn positions(count: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|&a, &b| compare(a, b).then(a.cmp(&b)));
    order
}

/// Moves `items[order[k]]` to `k` for every `k`, following each cycle of the permutation.
fn permute<T>(items: &mut [T], order: &[usize]) {
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at];
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests;
