//! The shared sort gives exactly the standard library's stable sort.

use super::*;

/// A small deterministic generator, so the cases are many and the same on every run.
fn numbers(seed: u64, count: usize, range: u64) -> Vec<u64> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % range
        })
        .collect()
}

#[test]
fn sorts_as_the_standard_stable_sort_keeping_equal_elements_in_order() {
    for (seed, count, range) in [(1, 0, 1), (2, 1, 1), (3, 7, 3), (4, 50, 5), (5, 300, 40)] {
        // (key, original position): the position shows whether equal keys kept their order.
        let items: Vec<(u64, usize)> = numbers(seed, count, range)
            .into_iter()
            .enumerate()
            .map(|(at, key)| (key, at))
            .collect();
        let mut expected = items.clone();
        expected.sort_by_key(|item| std::cmp::Reverse(item.0));
        let mut sorted = items.clone();
        sort_by(&mut sorted, &|a, b| b.0.cmp(&a.0));
        assert_eq!(sorted, expected, "seed {seed}");
        let mut by_key = items;
        sort_by_key(&mut by_key, &|item| item.0);
        expected.sort_by_key(|item| item.0);
        let mut ascending = expected.clone();
        ascending.sort_by_key(|item| (item.0, item.1));
        assert_eq!(by_key, ascending, "seed {seed}: stable by key");
    }
}

#[test]
fn moves_elements_that_are_not_copied() {
    let mut words: Vec<String> = ["pear", "fig", "apple", "kiwi", "date"]
        .map(String::from)
        .to_vec();
    sort_by_key(&mut words, &|word| word.len());
    assert_eq!(words, ["fig", "pear", "kiwi", "date", "apple"]);
}
