package parallel

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFor: every task runs exactly once, on a worker in range, and one
// worker runs its tasks in increasing order.
func TestFor(t *testing.T) {
	for _, tc := range []struct{ workers, n int }{{1, 5}, {2, 0}, {2, 1}, {2, 7}, {3, 100}, {8, 3}, {0, 4}} {
		var mu sync.Mutex
		runs := make([]int, tc.n)
		last := map[int]int{}
		For(tc.workers, tc.n, func(w, task int) {
			mu.Lock()
			defer mu.Unlock()
			runs[task]++
			if w < 0 || w >= max(1, min(tc.workers, tc.n)) {
				t.Errorf("workers %d, n %d: worker %d out of range", tc.workers, tc.n, w)
			}
			if prev, ok := last[w]; ok && prev >= task {
				t.Errorf("workers %d, n %d: worker %d ran task %d after %d", tc.workers, tc.n, w, task, prev)
			}
			last[w] = task
		})
		want := make([]int, tc.n)
		for i := range want {
			want[i] = 1
		}
		if diff := cmp.Diff(want, runs); diff != "" {
			t.Errorf("workers %d, n %d: runs per task (-want +got):\n%s", tc.workers, tc.n, diff)
		}
	}
}

// TestRanges: the ranges cover 0…n−1 once, in at most workers pieces.
func TestRanges(t *testing.T) {
	for _, tc := range []struct{ workers, n int }{{1, 5}, {2, 0}, {2, 1}, {2, 7}, {3, 100}, {8, 3}} {
		var mu sync.Mutex
		seen := make([]int, tc.n)
		pieces := 0
		Ranges(tc.workers, tc.n, func(lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			pieces++
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		want := make([]int, tc.n)
		for i := range want {
			want[i] = 1
		}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("workers %d, n %d: (-want +got):\n%s", tc.workers, tc.n, diff)
		}
		if pieces > max(1, tc.workers) {
			t.Errorf("workers %d, n %d: %d ranges", tc.workers, tc.n, pieces)
		}
	}
}
