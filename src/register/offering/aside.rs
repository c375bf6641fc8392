//! Rows made on a second thread while the calling thread stores them: a run's awards and
//! outcomes, as an import's reading thread makes the rows its main thread stores.

/// Items made per batch handed over.
const PER_BATCH: usize = 1024;

/// Runs `make` on a scoped thread, handing each item it makes to its argument (which answers
/// false once the taker has stopped: `make` then stops too), and `take` on the calling thread
/// with every item in the order made, a batch at a time, a few batches in flight at most. The
/// first error, `make`'s or `take`'s, ends both and is returned.
pub(super) fn made_aside<T: Send, E: Send>(
    make: impl FnOnce(&mut dyn FnMut(T) -> bool) -> Result<(), E> + Send,
    mut take: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E> {
    std::thread::scope(|scope| {
        let (to_taker, batches) = std::sync::mpsc::sync_channel::<Result<Vec<T>, E>>(4);
        scope.spawn(move || {
            let mut batch = Vec::with_capacity(PER_BATCH);
            let made = make(&mut |item| {
                batch.push(item);
                if batch.len() < PER_BATCH {
                    return true;
                }
                let full = std::mem::replace(&mut batch, Vec::with_capacity(PER_BATCH));
                to_taker.send(Ok(full)).is_ok()
            });
            // the taker may have stopped: its own error is the one returned
            let _ = to_taker.send(made.map(|()| batch));
        });
        for batch in batches {
            for item in batch? {
                take(item)?;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::made_aside;

    #[test]
    fn every_item_is_taken_in_the_order_made() {
        // three full batches and a part of one
        let n = 3 * super::PER_BATCH + 5;
        let mut taken = Vec::new();
        made_aside::<usize, String>(
            |give| {
                for i in 0..n {
                    if !give(i) {
                        break;
                    }
                }
                Ok(())
            },
            |i| {
                taken.push(i);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(taken, (0..n).collect::<Vec<_>>());
    }

    #[test]
    fn the_first_error_of_either_side_is_returned_and_stops_both() {
        let made_error = made_aside::<usize, String>(
            |give| {
                give(1);
                Err("made".into())
            },
            |_| Ok(()),
        );
        assert_eq!(made_error, Err("made".to_string()));
        // the taker refuses the third item: the maker, stopped, makes no more than the
        // batches in flight (a few, never all ten thousand)
        let made = std::sync::atomic::AtomicUsize::new(0);
        let taken_error = made_aside::<usize, String>(
            |give| {
                for i in 0..10 * super::PER_BATCH {
                    made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if !give(i) {
                        break;
                    }
                }
                Ok(())
            },
            |i| if i == 2 { Err("taken".into()) } else { Ok(()) },
        );
        assert_eq!(taken_error, Err("taken".to_string()));
        assert!(made.into_inner() < 10 * super::PER_BATCH);
    }
}
