package study

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
)

// runPool runs work on every job with the given number of workers and hands
// each outcome to report, one call at a time (report may update shared state
// without a lock). Once ctx is done no further job starts; the jobs already
// running finish, and runPool returns when they have been reported.
func runPool[J, R any](ctx context.Context, workers int, jobs []J, work func(J) (R, error), report func(J, R, error)) {
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

// runDefaults fills the settings every study shares: the protocol's seeds, two
// workers, the published test-file normalisation, and no progress output.
func runDefaults(seeds *[]uint64, workers *int, tn *TestNorm, progress *io.Writer) {
	if len(*seeds) == 0 {
		*seeds = DefaultSeeds
	}
	if *workers < 1 {
		*workers = 2
	}
	if *tn == "" {
		*tn = TestNormOwn
	}
	if *progress == nil {
		*progress = io.Discard
	}
}

// outcomes sorts the errors of finished jobs: a dataset whose data file is
// missing or unreadable is skipped (once, however many of its jobs fail), a
// cancellation is not an error of its own, and the first other error is kept,
// prefixed with the study's label and the dataset when label is not empty.
type outcomes struct {
	skipped  *[]Skipped
	seen     map[string]bool
	label    string
	firstErr error
}

func newOutcomes(skipped *[]Skipped, label string) *outcomes {
	o := &outcomes{skipped: skipped, seen: map[string]bool{}, label: label}
	for _, s := range *skipped {
		o.seen[s.Dataset] = true
	}
	return o
}

// Job outcomes.
const (
	jobDone = iota
	jobSkipped
	jobFailed
)

// add records the error of a job on the named dataset and returns jobDone,
// jobSkipped or jobFailed.
func (o *outcomes) add(name string, err error) int {
	switch {
	case err == nil:
		return jobDone
	case errors.Is(err, dataset.ErrDataFileMissing) || isLoadError(err):
		if !o.seen[name] {
			o.seen[name] = true
			*o.skipped = append(*o.skipped, Skipped{name, err.Error()})
		}
		return jobSkipped
	default:
		if o.firstErr == nil && !errors.Is(err, context.Canceled) {
			o.firstErr = err
			if o.label != "" {
				o.firstErr = fmt.Errorf("%s %s: %w", o.label, name, err)
			}
		}
		return jobFailed
	}
}

// intRVFLAccuracyResults loads the stored intRVFL accuracy result of each named
// dataset (every dataset of the collection when names is empty), the starting
// point of the studies that reuse the accuracy study's selection; datasets
// without one are returned as skipped.
func intRVFLAccuracyResults(st store, dataDir string, names []string) ([]*RunResult, []Skipped, error) {
	if len(names) == 0 {
		var err error
		if names, err = dataset.ListUCI(dataDir); err != nil {
			return nil, nil, err
		}
	}
	var found []*RunResult
	var skipped []Skipped
	for _, name := range names {
		acc := new(RunResult)
		ok, err := st.loadAny("result", IntRVFL, name, acc)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			skipped = append(skipped, Skipped{name, "no stored intrvfl accuracy result (run the accuracy stage first)"})
			continue
		}
		acc.Dataset = name
		found = append(found, acc)
	}
	return found, skipped, nil
}

// largestFirst sorts jobs by decreasing cost, so that with several workers the
// long jobs do not end up last, and returns their total cost.
func largestFirst[J any](jobs []J, cost func(J) float64) float64 {
	sort.SliceStable(jobs, func(i, j int) bool { return cost(jobs[i]) > cost(jobs[j]) })
	total := 0.0
	for _, j := range jobs {
		total += cost(j)
	}
	return total
}

// timeLeft extrapolates, from the time since start spent on the cost done so
// far, the time the rest of total needs.
func timeLeft(start time.Time, done, total float64) time.Duration {
	return time.Duration(float64(time.Since(start)) * (total - done) / math.Max(done, 1e-9)).Round(time.Second)
}
