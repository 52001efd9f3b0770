// Package parallel splits one computation's work over a few goroutines: a
// pool of numbered tasks (For) or a split of rows into contiguous ranges
// (Ranges). Both run inline when there is one worker, and neither decides
// anything that a result could depend on: callers keep their arithmetic
// independent of the worker that runs it.
package parallel

import (
	"sync"
	"sync/atomic"
)

// For runs fn(worker, task) for task = 0…n−1 on up to workers goroutines,
// handing the tasks out in increasing order. worker is in [0, min(workers,
// n)), and each worker runs its tasks one after another, so a buffer per
// worker needs no lock. With one worker (or one task) it runs inline, as
// worker 0.
func For(workers, n int, fn func(worker, task int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for t := 0; t < n; t++ {
			fn(0, t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for t := int(next.Add(1) - 1); t < n; t = int(next.Add(1) - 1) {
				fn(w, t)
			}
		}()
	}
	wg.Wait()
}

// Ranges splits 0…n−1 into at most workers consecutive ranges of nearly
// equal length and runs fn(lo, hi) for each on its own goroutine (inline
// when there is one range).
func Ranges(workers, n int, fn func(lo, hi int)) {
	workers = min(workers, n)
	if workers <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			fn(n*w/workers, n*(w+1)/workers)
		}()
	}
	wg.Wait()
}
