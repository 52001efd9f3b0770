package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/linalg"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/ridge"
)

// blobsCSV returns m rows of k features in l classes, each class a Gaussian
// blob around its own random centre (spread sd): more neurons separate them
// better, up to a point.
func blobsCSV(m, k, l int, sd float64, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 2))
	centre := make([][]float64, l)
	for c := range centre {
		for i := 0; i < k; i++ {
			centre[c] = append(centre[c], rng.Float64())
		}
	}
	var b strings.Builder
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, "x%d,", i+1)
	}
	b.WriteString("label\n")
	for r := 0; r < m; r++ {
		c := r % l
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "%.5f,", centre[c][i]+sd*rng.NormFloat64())
		}
		fmt.Fprintf(&b, "c%02d\n", c)
	}
	return b.String()
}

// TestStreamedPartEqualsProtocol: the row-chunked scorer gives the
// protocol's search's counts at every grid point — exactly with a rounded
// readout (every λ's predictions in one product), for both penalties, a κ
// at or above K (solved once), chunks that do not divide the rows, and the
// hidden inputs kept for every κ or recomputed (a budget of 1 byte), the
// Gram matrix of 8-bit activations (linalg.GramInt8Known) in one block of
// rows or in several (a chunk of 7 rows: blocks of 56), and the float Syrk.
func TestStreamedPartEqualsProtocol(t *testing.T) {
	defer func(c, k int) { chunkRows, int8GramKappa = c, k }(chunkRows, int8GramKappa)
	d := readCSV(t, "blobs", blobsCSV(300, 5, 3, 0.25, 1))
	task, err := NewTask(d, nil, Validation{Folds: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		reg         model.Regularizer
		bits        int
		chunk, int8 int // chunkRows, int8GramKappa
	}{
		{"identity 5-bit", model.RegIdentity, 5, 37, 127},
		{"variance 5-bit", model.RegVariance, 5, 37, 127},
		{"identity 3-bit", model.RegIdentity, 3, 37, 127},
		{"identity 5-bit, Gram in blocks", model.RegIdentity, 5, 7, 127},
		{"variance 5-bit, Gram in blocks", model.RegVariance, 5, 7, 127},
		{"identity 5-bit, float Gram", model.RegIdentity, 5, 37, 0},
		{"variance 5-bit, float Gram", model.RegVariance, 5, 37, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunkRows, int8GramKappa = tc.chunk, tc.int8
			for _, n := range []int{20, 60} {
				so := protocol.SearchOptions{Grid: protocol.Grid{Ns: []int{n}, Lambdas: []float64{0.25, 4, 64, 1024}, Kappas: []int{1, 3, 5, 15}},
					Regularizer: tc.reg, Bits: tc.bits, Seed: 3}
				want, err := protocol.Search(context.Background(), task.split(task.Splits[1]), protocol.IntRVFL, so)
				if err != nil {
					t.Fatal(err)
				}
				for _, budget := range []int64{0, 1} { // the hidden inputs kept for every κ, and recomputed per κ
					task.MemoryBudget = budget
					got, err := task.streamIntRVFL(context.Background(), so, task.Splits[1], n)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want.Correct, got.Correct); diff != "" {
						t.Errorf("N=%d, memory budget %d: counts (-protocol +streamed):\n%s", n, budget, diff)
					}
				}
				task.MemoryBudget = 0
			}
		})
	}
}

// TestSearchIndependentOfWorkersStoreAndMemory: the same search with one
// worker, with three, with a store, and with a memory budget so small that
// every part is streamed gives the same result.
func TestSearchIndependentOfWorkersStoreAndMemory(t *testing.T) {
	d := readCSV(t, "blobs", blobsCSV(240, 4, 3, 0.3, 2))
	g := protocol.Grid{Ns: []int{10, 30, 50}, Lambdas: []float64{0.5, 8, 128}, Kappas: []int{1, 3}}
	so := protocol.SearchOptions{Grid: g, Regularizer: model.RegIdentity, Bits: 5}
	run := func(workers int, store string, budget int64) *Searched {
		t.Helper()
		task, err := NewTask(d, nil, Validation{Folds: 4})
		if err != nil {
			t.Fatal(err)
		}
		task.Workers, task.Store, task.MemoryBudget = workers, store, budget
		s, err := task.SearchMore(context.Background(), protocol.IntRVFL, so, []uint64{0, 1}, Extension{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := run(1, "", 0)
	if base.Scored != 2*4*3 || base.Streamed != 0 {
		t.Errorf("scored %d parts (%d streamed), want 24 (none)", base.Scored, base.Streamed)
	}
	for _, tc := range []struct {
		name         string
		workers      int
		store        string
		budget       int64
		wantStreamed int
	}{{"three workers", 3, "", 0, 0}, {"store", 2, t.TempDir(), 0, 0}, {"streamed", 2, "", 1, 24}} {
		got := run(tc.workers, tc.store, tc.budget)
		if diff := cmp.Diff(base.Sum.Correct, got.Sum.Correct); diff != "" {
			t.Errorf("%s: counts differ (-one worker +%s):\n%s", tc.name, tc.name, diff)
		}
		if got.Sum.Best != base.Sum.Best || !cmp.Equal(got.Accuracy, base.Accuracy) {
			t.Errorf("%s: best %+v %+v, want %+v %+v", tc.name, got.Sum.Best, got.Accuracy, base.Sum.Best, base.Accuracy)
		}
		if got.Streamed != tc.wantStreamed {
			t.Errorf("%s: %d parts streamed, want %d", tc.name, got.Streamed, tc.wantStreamed)
		}
	}
}

// TestInterruptedSearchResumes: a search with a store, cancelled once some
// parts have finished, keeps them; the rerun scores only the others and
// gives the result of an uninterrupted search.
func TestInterruptedSearchResumes(t *testing.T) {
	d := readCSV(t, "blobs", blobsCSV(200, 4, 2, 0.3, 3))
	so := protocol.SearchOptions{Grid: protocol.Grid{Ns: []int{10, 20, 40}, Lambdas: []float64{1, 16}, Kappas: []int{1, 3}},
		Regularizer: model.RegIdentity, Bits: 5}
	store := t.TempDir()
	newTask := func() *Task {
		task, err := NewTask(d, nil, Validation{Folds: 4})
		if err != nil {
			t.Fatal(err)
		}
		task.Store = store
		return task
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := newTask()
	var finished atomic.Int32
	first.Progress = func(format string, args ...any) {
		if strings.Contains(format, "parts, about") && finished.Add(1) == 5 {
			cancel()
		}
	}
	_, err := first.SearchMore(ctx, protocol.IntRVFL, so, []uint64{0}, Extension{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted search: %v, want a cancellation", err)
	}
	var lines []string
	again := newTask()
	again.Progress = func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	got, err := again.SearchMore(context.Background(), protocol.IntRVFL, so, []uint64{0}, Extension{})
	if err != nil {
		t.Fatal(err)
	}
	kept := int(finished.Load())
	if got.Reused != kept || got.Scored != 12-kept || kept < 5 {
		t.Errorf("rerun reused %d and scored %d parts; the first run finished %d of 12", got.Reused, got.Scored, kept)
	}
	if len(lines) == 0 || !strings.Contains(lines[0], fmt.Sprintf("%d of 12 parts kept from an earlier run", kept)) {
		t.Errorf("rerun's progress does not say what it kept: %q", lines)
	}
	whole := newTask()
	whole.Store = ""
	want, err := whole.SearchMore(context.Background(), protocol.IntRVFL, so, []uint64{0}, Extension{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Sum.Correct, got.Sum.Correct); diff != "" || want.Sum.Best != got.Sum.Best {
		t.Errorf("resumed search differs from an uninterrupted one (-want +got):\n%s", diff)
	}
	// A part stored with other settings is not reused.
	other := newTask()
	so2 := so
	so2.Grid.Lambdas = []float64{1, 32}
	o, err := other.SearchMore(context.Background(), protocol.IntRVFL, so2, []uint64{0}, Extension{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Reused != 0 {
		t.Errorf("a search with another λ grid reused %d stored parts", o.Reused)
	}
}

// TestSearchExtendsWhileTheEdgeIsBest: with too few neurons in the grid, the
// best N is the largest; the extension scores NextN until the best is
// inside, and the result equals a search over the extended grid. A budget
// (Fits) or MaxN stops it earlier, saying why.
func TestSearchExtendsWhileTheEdgeIsBest(t *testing.T) {
	d := readCSV(t, "blobs", blobsCSV(400, 6, 6, 0.22, 4))
	task, err := NewTask(d, nil, Validation{Folds: 3})
	if err != nil {
		t.Fatal(err)
	}
	so := protocol.SearchOptions{Grid: protocol.Grid{Ns: []int{2, 4}, Lambdas: []float64{0.25, 4}, Kappas: []int{1, 3}},
		Regularizer: model.RegIdentity, Bits: 5}
	got, err := task.SearchMore(context.Background(), protocol.IntRVFL, so, []uint64{0}, Extension{MaxN: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Extended) == 0 || got.Extended[0] != 50 || !strings.Contains(got.Stopped, "below the largest scored") {
		t.Fatalf("extended %v, stopped %q; want at least N=50 and a stop below the edge", got.Extended, got.Stopped)
	}
	ext := so
	ext.Grid.Ns = append([]int{2, 4}, got.Extended...)
	want, _, err := task.Search(context.Background(), protocol.IntRVFL, ext, []uint64{0})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Correct, got.Sum.Correct); diff != "" {
		t.Errorf("extended search differs from the search of the extended grid:\n%s", diff)
	}
	if got.Sum.Best.N == got.Extended[len(got.Extended)-1] {
		t.Errorf("stopped with the best N=%d at the edge", got.Sum.Best.N)
	}
	capped, err := task.SearchMore(context.Background(), protocol.IntRVFL, so, []uint64{0}, Extension{MaxN: 2000, Fits: func(n int) bool { return n < 50 }})
	if err != nil {
		t.Fatal(err)
	}
	if len(capped.Extended) != 0 || !strings.Contains(capped.Stopped, "LUT budget") {
		t.Errorf("budget: extended %v, stopped %q", capped.Extended, capped.Stopped)
	}
	if _, err := task.SearchMore(context.Background(), protocol.RVFL, so, []uint64{0}, Extension{MaxN: 100}); err == nil {
		t.Error("an extension of the rvfl's search: no error")
	}
}

// TestCurve: each N's point is the best of its grid points by
// protocol.Better, and the search's best is one of them.
func TestCurve(t *testing.T) {
	sum := &protocol.SearchResult{
		Grid:    protocol.Grid{Ns: []int{10, 20}, Lambdas: []float64{1, 2}, Kappas: []int{1, 3}},
		Correct: [][][]int{{{5, 7}, {9, 9}}, {{7, 6}, {8, 10}}},
		Best:    protocol.Best{N: 20, Kappa: 3, Lambda: 2, Correct: 10, ValRows: 20},
	}
	want := []CurvePoint{{N: 10, Kappa: 1, Lambda: 2, Correct: 7, Accuracy: 0.35}, {N: 20, Kappa: 3, Lambda: 2, Correct: 10, Accuracy: 0.5}}
	if diff := cmp.Diff(want, Curve(sum)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestNextN(t *testing.T) {
	for _, tc := range [][2]int{{1500, 1900}, {1900, 2400}, {2400, 3000}, {4, 50}, {50, 100}, {100, 150}} {
		if got := NextN(tc[0]); got != tc[1] {
			t.Errorf("NextN(%d) = %d, want %d", tc[0], got, tc[1])
		}
	}
}

// TestSearchMemoryIsBounded: on many rows, a search whose parts exceed the
// memory budget is streamed, and the heap it holds stays near the budget
// (here 32 MB) instead of growing with the rows (the protocol's search of
// this data holds about 10 bytes per row and neuron: 180 MB at N=150).
func TestSearchMemoryIsBounded(t *testing.T) {
	const m, k = 120_000, 4
	rng := rand.New(rand.NewPCG(7, 7))
	d := &dataset.Dataset{Name: "big", ClassNames: []string{"a", "b"}, FeatureNames: []string{"w", "x", "y", "z"},
		X: make([]float64, m*k), Y: make([]int, m)}
	for r := 0; r < m; r++ {
		d.Y[r] = r % 2
		for i := 0; i < k; i++ {
			d.X[r*k+i] = rng.NormFloat64() + 0.5*float64(d.Y[r])
		}
	}
	task, err := NewTask(d, nil, Validation{Folds: 2})
	if err != nil {
		t.Fatal(err)
	}
	task.MemoryBudget = 32 << 20
	so := protocol.SearchOptions{Grid: protocol.Grid{Ns: []int{100, 150}, Lambdas: []float64{1, 64}, Kappas: []int{1}},
		Regularizer: model.RegIdentity, Bits: 5}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	s, err := task.SearchMore(context.Background(), protocol.IntRVFL, so, []uint64{0}, Extension{})
	close(stop)
	<-sampled
	if err != nil {
		t.Fatal(err)
	}
	if s.Streamed != 4 {
		t.Errorf("%d of 4 parts streamed", s.Streamed)
	}
	grew := float64(peak.Load()) - float64(before.HeapInuse)
	t.Logf("heap in use grew by %.1f MB (data %.1f MB)", grew/(1<<20), float64(8*m*k)/(1<<20))
	if grew > 64<<20 {
		t.Errorf("the search's heap grew by %.0f MB, want at most 64 MB for a 32 MB budget", grew/(1<<20))
	}
}

// TestDualPartEqualsProtocol: with more neurons than training rows, the
// dual scorer (each κ's kernel formed once) gives the protocol's search's
// counts exactly — for both penalties, two readout widths, tiny and huge λ,
// and a κ at or above K; and the search uses it for those parts only.
func TestDualPartEqualsProtocol(t *testing.T) {
	d := readCSV(t, "blobs", blobsCSV(90, 5, 3, 0.25, 8))
	task, err := NewTask(d, nil, Validation{Folds: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := task.Splits[2]
	for _, tc := range []struct {
		name string
		reg  model.Regularizer
		bits int
	}{{"identity 5-bit", model.RegIdentity, 5}, {"variance 5-bit", model.RegVariance, 5}, {"identity 2-bit", model.RegIdentity, 2}, {"variance 3-bit", model.RegVariance, 3}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []int{61, 150} {
				if !dualScored(protocol.SearchOptions{Bits: tc.bits}, s, n) {
					t.Fatalf("N=%d on %d training rows is not a dual part", n, len(s.Train))
				}
				so := protocol.SearchOptions{Grid: protocol.Grid{Ns: []int{n}, Lambdas: []float64{1.0 / 1024, 0.25, 4, 64, 1024, 32768}, Kappas: []int{1, 3, 5, 15}},
					Regularizer: tc.reg, Bits: tc.bits, Seed: 5}
				want, err := protocol.Search(context.Background(), task.split(s), protocol.IntRVFL, so)
				if err != nil {
					t.Fatal(err)
				}
				got, err := task.dualIntRVFL(context.Background(), so, s, n)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.Correct, got.Correct); diff != "" || got.Jittered != want.Jittered {
					t.Errorf("N=%d: jittered %d, protocol %d; counts (-protocol +dual):\n%s", n, got.Jittered, want.Jittered, diff)
				}
			}
		})
	}
	if dualScored(protocol.SearchOptions{Bits: 5}, s, len(s.Train)) || dualScored(protocol.SearchOptions{Bits: 5, Solver: model.Solver{Method: "pinv-cutoff"}}, s, 150) ||
		dualScored(protocol.SearchOptions{}, s, 150) {
		t.Error("the primal system, the pinv cutoff or the float readout scored as a dual part")
	}
}

// TestDualReadoutsAreSolveDuals: the dual scorer's readout of every λ is
// ridge.Solver.SolveDual's, bit for bit, for both penalties (so the kernel
// formed once changes nothing but the time).
func TestDualReadoutsAreSolveDuals(t *testing.T) {
	const m, n, l = 40, 90, 3
	rng := rand.New(rand.NewPCG(9, 9))
	h := make([]float64, m*n)
	for i := range h {
		h[i] = float64(rng.IntN(7) - 3)
	}
	for i := 0; i < m; i++ {
		h[i*n+5] = 2 // a constant column (zero variance)
	}
	y := make([]int, m)
	for i := range y {
		y[i] = rng.IntN(l)
	}
	lambdas := []float64{1.0 / 1024, 0.5, 16, 4096}
	for _, reg := range []model.Regularizer{model.RegIdentity, model.RegVariance} {
		solver := model.Solver{}.Ridge(reg, 1)
		var got [][]float64
		if err := dualReadouts(linalg.Engine{Threads: 1}, solver, h, m, n, y, l, lambdas, func(li int, w []float64, _ bool) error {
			got = append(got, slices.Clone(w))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for li, lambda := range lambdas {
			want, _, err := solver.SolveDual(ridge.Data{H: h, Rows: m, Cols: n, Labels: y}, l, lambda)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if math.Float64bits(want[i]) != math.Float64bits(got[li][i]) {
					t.Fatalf("%s λ=%g: W[%d] = %v, SolveDual %v", reg, lambda, i, got[li][i], want[i])
				}
			}
		}
	}
}
