package power

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// DefaultMaxN bounds the sizer's search: N ∈ [1, DefaultMaxN] unless
// SizeOptions.MaxN says otherwise (the paper's grid tops out at 1500).
const DefaultMaxN = 4096

// SizeOptions control Size.
type SizeOptions struct {
	Params
	// MaxN is the largest N considered (0 means DefaultMaxN).
	MaxN int
	// Device is the FPGA the design must fit (zero value means board.XC7Z020):
	// designs needing more LUTs, FFs, DSP48E1s or block RAM are not candidates.
	Device board.Device
	// Ps are the candidate parallelisms (nil means DefaultPs); P > N is skipped.
	Ps []int
	// AdderLevels and ArgmaxLevels are the pipeline rules of every candidate
	// (hdlgen emit --adder-levels, --argmax-levels; 0 means the defaults).
	AdderLevels, ArgmaxLevels int
}

// DefaultPs are the parallelisms the sizer tries: 1, 2, 3, 4, 6, 8, 12, …,
// the powers of two and their halfway points 3·2^k up to 4096.
var DefaultPs = func() []int {
	var ps []int
	for p := 1; p <= 4096; p *= 2 {
		ps = append(ps, p)
		if p >= 2 {
			ps = append(ps, p+p/2)
		}
	}
	slices.Sort(ps)
	return ps
}()

// Sizing is the sizer's answer.
type Sizing struct {
	Shape    Shape    `json:"shape"`
	BudgetJ  float64  `json:"budget_j"`
	BudgetOn Budgeted `json:"budget_on"`
	N        int      `json:"n"` // the largest N whose best design fits the budget
	P        int      `json:"p"` // the P that minimises the budgeted energy for that N
	// EstFmaxMHz is that design's Fmax by the analytic estimate
	// (AnalyticFmaxMHz); only designs whose estimate meets the clock are
	// candidates.
	EstFmaxMHz float64  `json:"est_fmax_mhz"`
	Estimate   Estimate `json:"estimate"`
}

// ImpossibleError is returned by Size when no N fits the budget.
type ImpossibleError struct {
	BudgetJ  float64
	BudgetOn Budgeted
	MinJ     float64 // the smallest achievable budgeted energy (N = 1 or its best)
	N, P     int     // the design that achieves MinJ
}

func (e *ImpossibleError) Error() string {
	if math.IsInf(e.MinJ, 1) {
		return "power: no design of this shape fits the device at the clock (analytic Fmax estimate), whatever the budget"
	}
	return fmt.Sprintf("power: budget %s is below the smallest achievable %s energy per classification, %s (N=%d, P=%d)",
		FormatEnergy(e.BudgetJ), e.BudgetOn, FormatEnergy(e.MinJ), e.N, e.P)
}

type tableKey struct {
	shape  Shape
	params Params
	device board.Device
	ps     string
	levels [2]int
}

// sizeTable is, for one shape and operating point, the best (lowest budgeted
// energy) P of every N up to the largest MaxN asked for so far. A smaller
// MaxN reads its prefix: best[n] does not depend on MaxN.
type sizeTable struct {
	best  []float64 // best[n], n = 1…len−1 (index 0 unused); +Inf when nothing fits
	bestP []int
	full  []float64 // suffix(len−1), made once: the MaxN the table was built for
}

// suffix returns suffix[n] = min over n ≤ n' ≤ maxN of best[n'], for n =
// 1…maxN+1 (suffix[maxN+1] = +Inf).
func (t *sizeTable) suffix(maxN int) []float64 {
	if maxN == len(t.best)-1 && t.full != nil {
		return t.full
	}
	suf := make([]float64, maxN+2)
	suf[maxN+1] = math.Inf(1)
	for n := maxN; n >= 1; n-- {
		suf[n] = min(t.best[n], suf[n+1])
	}
	return suf
}

var tables sync.Map // tableKey → *sizeTable

// Size returns the largest N (1 ≤ N ≤ MaxN) whose best design, over the
// candidate Ps and among those that fit the device and whose analytic Fmax
// estimate (AnalyticFmaxMHz) meets the clock, has a budgeted energy per
// classification ≤ budget (joules), with that P and the estimate. A larger
// budget never gives a smaller N: the answer is the largest element of a set
// that only grows with the budget. The per-shape table is computed once per
// process (about 10⁵ analytic evaluations, about a tenth of a second on the
// 2-core machine: BenchmarkSizeNewShape) and then each call is a binary
// search.
func Size(budget float64, s Shape, o SizeOptions) (Sizing, error) {
	if !(budget > 0) || math.IsInf(budget, 0) {
		return Sizing{}, fmt.Errorf("power: budget %v J, want a finite value > 0", budget)
	}
	p, err := o.Params.norm()
	if err != nil {
		return Sizing{}, err
	}
	o.Params = p
	if o.MaxN == 0 {
		o.MaxN = DefaultMaxN
	}
	if o.MaxN < 1 {
		return Sizing{}, fmt.Errorf("power: max N %d, want ≥ 1", o.MaxN)
	}
	if o.Device == (board.Device{}) {
		o.Device = board.XC7Z020
	}
	if o.Ps == nil {
		o.Ps = DefaultPs
	} else {
		o.Ps = slices.Clone(o.Ps)
		slices.Sort(o.Ps)
		if len(o.Ps) == 0 || o.Ps[0] < 1 {
			return Sizing{}, fmt.Errorf("power: candidate parallelisms %v, want P ≥ 1", o.Ps)
		}
	}
	if err := (Design{Shape: s, N: 1, Options: plan.Options{Parallel: 1, AdderLevelsPerStage: o.AdderLevels, ArgmaxLevelsPerStage: o.ArgmaxLevels}}).Check(); err != nil {
		return Sizing{}, err
	}
	t := table(s, o)
	// suffix is non-decreasing in n: the answer is the largest n with suffix[n] ≤ budget.
	suffix := t.suffix(o.MaxN)
	n := sortSearchLast(o.MaxN, func(n int) bool { return suffix[n] <= budget })
	if n == 0 {
		minN := 1
		for k := 1; k <= o.MaxN; k++ {
			if t.best[k] < t.best[minN] {
				minN = k
			}
		}
		return Sizing{}, &ImpossibleError{BudgetJ: budget, BudgetOn: p.BudgetOn, MinJ: t.best[minN], N: minN, P: t.bestP[minN]}
	}
	d := Design{Shape: s, N: n, Options: plan.Options{Parallel: t.bestP[n], AdderLevelsPerStage: o.AdderLevels, ArgmaxLevelsPerStage: o.ArgmaxLevels}}
	e, err := EstimateAnalytic(d, p)
	if err != nil {
		return Sizing{}, err
	}
	return Sizing{Shape: s, BudgetJ: budget, BudgetOn: p.BudgetOn, N: n, P: d.P(), EstFmaxMHz: AnalyticFmaxMHz(d), Estimate: e}, nil
}

// sortSearchLast returns the largest n in [1, max] with f(n) true, where f is
// true on a prefix [1, k] (k may be 0), or 0.
func sortSearchLast(maxN int, f func(int) bool) int {
	lo, hi := 0, maxN // invariant: f(lo) true (or lo = 0), f(hi+1) false
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if f(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func table(s Shape, o SizeOptions) *sizeTable {
	key := tableKey{shape: s, params: o.Params, device: o.Device, ps: fmt.Sprint(o.Ps), levels: [2]int{o.AdderLevels, o.ArgmaxLevels}}
	var have *sizeTable
	if t, ok := tables.Load(key); ok {
		if have = t.(*sizeTable); len(have.best) > o.MaxN {
			return have
		}
	}
	// Extend the stored prefix (if any) to o.MaxN.
	t := &sizeTable{best: make([]float64, o.MaxN+1), bestP: make([]int, o.MaxN+1)}
	from := 1
	if have != nil {
		from = len(have.best)
		copy(t.best, have.best)
		copy(t.bestP, have.bestP)
	}
	for n := from; n <= o.MaxN; n++ {
		t.best[n] = math.Inf(1)
		for _, p := range o.Ps {
			if p > n {
				break
			}
			d := Design{Shape: s, N: n, Options: plan.Options{Parallel: p, AdderLevelsPerStage: o.AdderLevels, ArgmaxLevelsPerStage: o.ArgmaxLevels}}
			st := newStructure(d)
			r := analyticOf(d, st)
			if ok, _ := o.Device.Fits(r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36); !ok {
				break // resources grow with P: no larger P fits either
			}
			if analyticFmaxMHz(d, st) < o.ClockHz/1e6 {
				continue // too slow for the clock; a larger P may still meet it
			}
			e := evaluate(d, r, st.Latency, st.II, o.Params)
			if e.BudgetedJ < t.best[n] {
				t.best[n], t.bestP[n] = e.BudgetedJ, p
			}
		}
	}
	t.full = t.suffix(o.MaxN)
	// Keep the longer table when another goroutine stored one meanwhile.
	for {
		old, loaded := tables.LoadOrStore(key, t)
		if !loaded {
			return t
		}
		if stored := old.(*sizeTable); len(stored.best) >= len(t.best) {
			return stored
		}
		if tables.CompareAndSwap(key, old, t) {
			return t
		}
	}
}
