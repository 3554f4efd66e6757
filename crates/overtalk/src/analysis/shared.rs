//! A growing list whose settled prefix is shared between copies.
//!
//! [`crate::analysis::stream::AnalysisStream::speculate`] copies the stream once per possible
//! future at every check. The stream's history (its talkspurts, each speaker's list of them,
//! the floor claims) only grows, and what a future can change is its recent end: the part
//! before that is frozen behind an [`Arc`], so a copy costs the unfrozen tail, not the
//! session. Changing a frozen element is still correct (copy on write: the copy that changes
//! it takes its own copy of the frozen part), only slower.

use std::ops::{Index, IndexMut};
use std::sync::Arc;

/// A list of `T`: a frozen prefix shared between copies, then an owned tail.
#[derive(Clone, Debug)]
pub(crate) struct Shared<T> {
    frozen: Arc<Vec<T>>,
    tail: Vec<T>,
}

impl<T> Default for Shared<T> {
    fn default() -> Shared<T> {
        Shared { frozen: Arc::new(Vec::new()), tail: Vec::new() }
    }
}

impl<T: Clone> Shared<T> {
    /// The number of elements.
    pub(crate) fn len(&self) -> usize {
        self.frozen.len() + self.tail.len()
    }

    /// Appends `v`.
    pub(crate) fn push(&mut self, v: T) {
        self.tail.push(v);
    }

    /// Removes the last element.
    pub(crate) fn pop(&mut self) -> Option<T> {
        match self.tail.pop() {
            Some(v) => Some(v),
            None => Arc::make_mut(&mut self.frozen).pop(),
        }
    }

    /// The last element.
    pub(crate) fn last(&self) -> Option<&T> {
        self.tail.last().or_else(|| self.frozen.last())
    }

    /// Element `i`, if there is one.
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        let f = self.frozen.len();
        if i < f {
            self.frozen.get(i)
        } else {
            self.tail.get(i - f)
        }
    }

    /// The elements in order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + '_ {
        self.frozen.iter().chain(self.tail.iter())
    }

    /// The first index whose element fails `pred` (the list partitioned by it), as
    /// [`slice::partition_point`].
    pub(crate) fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> usize {
        let f = self.frozen.len();
        if self.tail.first().is_some_and(&mut pred) {
            f + self.tail.partition_point(pred)
        } else {
            self.frozen.partition_point(pred)
        }
    }

    /// Inserts `v` at index `at` (not past the end).
    pub(crate) fn insert(&mut self, at: usize, v: T) {
        let f = self.frozen.len();
        if at >= f {
            self.tail.insert(at - f, v);
        } else {
            Arc::make_mut(&mut self.frozen).insert(at, v);
        }
    }

    /// Freezes the elements before index `n` (at most all of them): copies of the list
    /// share them from now on. A freeze never thaws what is frozen already.
    pub(crate) fn freeze_before(&mut self, n: usize) {
        let f = self.frozen.len();
        let k = n.min(self.len()).saturating_sub(f);
        if k > 0 {
            Arc::make_mut(&mut self.frozen).extend(self.tail.drain(..k));
        }
    }
}

#[cfg(test)]
impl<T> Shared<T> {
    /// The number of elements shared between copies.
    pub(crate) fn shared_len(&self) -> usize {
        self.frozen.len()
    }

    /// Whether `self` and `other` share their frozen part.
    pub(crate) fn shares_with(&self, other: &Shared<T>) -> bool {
        Arc::ptr_eq(&self.frozen, &other.frozen)
    }
}

impl<T> Index<usize> for Shared<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        let f = self.frozen.len();
        if i < f {
            &self.frozen[i]
        } else {
            &self.tail[i - f]
        }
    }
}

impl<T: Clone> IndexMut<usize> for Shared<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        let f = self.frozen.len();
        if i < f {
            &mut Arc::make_mut(&mut self.frozen)[i]
        } else {
            &mut self.tail[i - f]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_shares_the_frozen_part_and_changes_only_its_own() {
        let mut a: Shared<u32> = Shared::default();
        for v in [1, 3, 5, 7] {
            a.push(v);
        }
        a.freeze_before(3);
        assert_eq!((a.frozen.len(), a.tail.len()), (3, 1));
        let mut b = a.clone();
        assert!(Arc::ptr_eq(&a.frozen, &b.frozen));
        b.push(9);
        b[3] = 8;
        assert!(Arc::ptr_eq(&a.frozen, &b.frozen));
        b[0] = 0;
        assert!(!Arc::ptr_eq(&a.frozen, &b.frozen));
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), vec![1, 3, 5, 7]);
        assert_eq!(b.iter().copied().collect::<Vec<_>>(), vec![0, 3, 5, 8, 9]);
    }

    #[test]
    fn the_list_behaves_as_a_vec_across_the_frozen_edge() {
        let mut a: Shared<u32> = Shared::default();
        let mut v = Vec::new();
        for x in [2, 4, 6, 8, 10] {
            a.push(x);
            v.push(x);
        }
        a.freeze_before(2);
        for probe in 0..12 {
            assert_eq!(a.partition_point(|&x| x < probe), v.partition_point(|&x| x < probe));
        }
        a.insert(1, 3);
        v.insert(1, 3);
        a.insert(5, 9);
        v.insert(5, 9);
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), v);
        assert_eq!((a.len(), a.get(6), a.get(7), a.last()), (7, Some(&10), None, Some(&10)));
        a.freeze_before(100);
        assert_eq!((a.pop(), a.pop(), a.len()), (Some(10), Some(9), 5));
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), vec![2, 3, 4, 6, 8]);
    }
}
