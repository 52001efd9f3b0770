package jobs

import (
	"context"
	"math"
	"sort"
	"sync"
	"time"
)

// Run runs work on every job with the given number of workers and hands each
// outcome to report, one call at a time (report may update shared state
// without a lock). Once ctx is done no further job starts; the jobs already
// running finish, and Run returns when they have been reported.
func Run[J, R any](ctx context.Context, workers int, jobs []J, work func(J) (R, error), report func(J, R, error)) {
	var mu sync.Mutex
	queue := make(chan J)
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				r, err := work(j)
				mu.Lock()
				report(j, r, err)
				mu.Unlock()
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case queue <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
}

// LargestFirst sorts jobs by decreasing cost, so that with several workers the
// long jobs do not end up last, and returns their total cost.
func LargestFirst[J any](jobs []J, cost func(J) float64) float64 {
	sort.SliceStable(jobs, func(i, j int) bool { return cost(jobs[i]) > cost(jobs[j]) })
	total := 0.0
	for _, j := range jobs {
		total += cost(j)
	}
	return total
}

// TimeLeft extrapolates, from the time since start spent on the cost done so
// far, the time the rest of total needs.
func TimeLeft(start time.Time, done, total float64) time.Duration {
	return time.Duration(float64(time.Since(start)) * (total - done) / math.Max(done, 1e-9)).Round(time.Second)
}
