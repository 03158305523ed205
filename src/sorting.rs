//! Stable sorting through one shared instantiation of the standard library's sort.
//!
//! `slice::sort_by` is generic over both the element type and the comparison closure, so every
//! call site compiles its own copy of driftsort (~4 KB of wasm each). These helpers sort a list of
//! positions with a `dyn` comparison instead, so all of them share a single `[usize]` sort, and
//! then move the elements into place. The result is exactly that of the standard stable sort.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, like `slice::sort_by`.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    sort_positions(&mut order, &mut |a, b| compare(&items[a], &items[b]));
    permute(items, &mut order);
}

/// Sorts `items` stably by `key`, like `slice::sort_by_key`.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably in ascending order, like `slice::sort`. (Also stands in for
/// `sort_unstable` where equal elements are indistinguishable.)
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

#[inline(never)]
fn sort_positions(order: &mut [usize], compare: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| compare(a, b));
}

/// Rearranges `items` so that position `i` holds the element that was at `order[i]`, following
/// each cycle of the permutation with swaps. Leaves `order` as the identity.
fn permute<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..items.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_stable_sort() {
        let mut seed = 12345u64;
        for len in 0..200 {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|item| item.0);
            let mut actual = items.clone();
            sort_by_key(&mut actual, |item| item.0);
            assert_eq!(actual, expected);
            let mut expected = items.clone();
            expected.sort_by_key(|item| std::cmp::Reverse(item.0));
            let mut actual = items.clone();
            sort_by(&mut actual, |a, b| b.0.cmp(&a.0));
            assert_eq!(actual, expected);
            let mut expected = items.clone();
            expected.sort();
            let mut actual = items;
            sort(&mut actual);
            assert_eq!(actual, expected);
        }
    }
}
