package jobs

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Shard is one share of a study's jobs, for running a study on several
// machines: shard Index of Count, 0 ≤ Index < Count. The zero value (and any
// Count ≤ 1) is the whole study.
type Shard struct{ Index, Count int }

// MaxShards bounds n: a study or a grid has far fewer jobs, and the split
// keeps one counter per shard.
const MaxShards = 4096

// ParseShard reads "i/n" (0 ≤ i < n ≤ MaxShards).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want i/n, e.g. 0/3", s)
	}
	if n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want 0 ≤ i < n", s)
	}
	if n > MaxShards {
		return Shard{}, fmt.Errorf("shard %q: at most %d shards", s, MaxShards)
	}
	return Shard{Index: i, Count: n}, nil
}

// String is the "i/n" form ("" for the whole study).
func (s Shard) String() string {
	if s.Count <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Select returns the jobs of shard s, in their given order. Every job of the
// study must be passed (stored ones too), in the same order by every shard, so
// that the shards partition the study whatever each has already done. The
// split balances the estimated cost: jobs are taken largest first (ties in the
// given order) and each goes to the shard with the least cost so far (ties to
// the lowest index).
func Select[J any](s Shard, all []J, cost func(J) float64) []J {
	if s.Count <= 1 {
		return all
	}
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cost(all[order[a]]) > cost(all[order[b]]) })
	load := make([]float64, s.Count)
	mine := make([]bool, len(all))
	for _, i := range order {
		least := 0
		for k := range load {
			if load[k] < load[least] {
				least = k
			}
		}
		load[least] += cost(all[i])
		mine[i] = least == s.Index
	}
	var out []J
	for i, j := range all {
		if mine[i] {
			out = append(out, j)
		}
	}
	return out
}

// Missing is the error of a merge that found jobs not stored (nil when none):
// it names the stage, how many, and the first few.
func Missing(stage string, jobs []string) error {
	if len(jobs) == 0 {
		return nil
	}
	show := jobs
	if len(show) > 5 {
		show = show[:5]
	}
	return fmt.Errorf("%s stage: %d jobs are not stored (%s%s): a shard has not finished or was not gathered; nothing was computed",
		stage, len(jobs), strings.Join(show, ", "), map[bool]string{true: ", …", false: ""}[len(jobs) > len(show)])
}

// Resume takes shard s's share of all the jobs of a stage and sorts it: load
// reports whether a job's result is stored (and keeps it); the others are
// returned to run, largest first, with their total cost — or, when reuseOnly
// (a merge), they are an error that names them, and nothing runs.
func Resume[J any](stage string, s Shard, all []J, cost func(J) float64, reuseOnly bool,
	name func(J) string, load func(J) (bool, error)) (todo []J, total float64, err error) {
	var missing []string
	for _, j := range Select(s, all, cost) {
		ok, err := load(j)
		switch {
		case err != nil:
			return nil, 0, err
		case ok:
		case reuseOnly:
			missing = append(missing, name(j))
		default:
			todo = append(todo, j)
		}
	}
	if err := Missing(stage, missing); err != nil {
		return nil, 0, err
	}
	return todo, LargestFirst(todo, cost), nil
}
