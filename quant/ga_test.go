package quant

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// smallOpts is a cheap GA configuration for tests.
func smallOpts(seed uint64) GAOptions {
	o := DefaultGAOptions()
	o.Population = 16
	o.Generations = 60
	o.Patience = 0
	o.Seed = seed
	return o
}

func TestGADeterministic(t *testing.T) {
	p := synth(300, 40, 3, 3, 1.0, 21)
	seed, err := Quantize(p.w, p.l, 40, 2)
	if err != nil {
		t.Fatal(err)
	}
	run := func(workers int, s uint64, random bool) GAResult {
		t.Helper()
		o := smallOpts(s)
		o.Workers = workers
		var res GAResult
		var err error
		if random {
			res, err = RandomGA(context.Background(), p.l, 2, p.h, p.labels, o)
		} else {
			res, err = Refine(context.Background(), seed, p.h, p.labels, o)
		}
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, random := range []bool{false, true} {
		a := run(1, 7, random)
		if diff := cmp.Diff(a, run(1, 7, random)); diff != "" {
			t.Errorf("random=%v: two runs with seed 7 differ (-first +second):\n%s", random, diff)
		}
		for _, w := range []int{2, 3, 16} {
			if diff := cmp.Diff(a, run(w, 7, random)); diff != "" {
				t.Errorf("random=%v: Workers=1 and Workers=%d differ (-1 +%d):\n%s", random, w, w, diff)
			}
		}
		if b := run(2, 8, random); cmp.Equal(a.History, b.History) && cmp.Equal(a.Readout, b.Readout) {
			t.Errorf("random=%v: seeds 7 and 8 gave identical runs; the seed is not used", random)
		}
	}
}

// TestGANeverWorseThanSeed: for several problems, bounds and seeds the
// refined cost is at most the seed's, the reported cost equals a full
// recomputation (incremental scores are exact), the history is
// non-increasing and the weights stay within ±B.
func TestGANeverWorseThanSeed(t *testing.T) {
	for _, tc := range []struct {
		m, n, l, b int
		noise      float64
	}{
		{200, 30, 2, 1, 0.5},
		{200, 30, 4, 3, 2.0},
		{150, 50, 3, 15, 0.1}, // a good seed: little to gain
		{100, 20, 5, 7, 5.0},
	} {
		p := synth(tc.m, tc.n, tc.l, 3, tc.noise, uint64(tc.m+tc.b))
		seed, err := Quantize(p.w, tc.l, tc.n, tc.b)
		if err != nil {
			t.Fatal(err)
		}
		seedCost, err := Cost(p.h, seed, p.labels, DefaultGAOptions().Beta)
		if err != nil {
			t.Fatal(err)
		}
		for s := uint64(1); s <= 3; s++ {
			o := smallOpts(s)
			o.Generations = 30
			res, err := Refine(context.Background(), seed, p.h, p.labels, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Cost > seedCost {
				t.Errorf("%+v seed %d: GA cost %v > seed cost %v", tc, s, res.Cost, seedCost)
			}
			full, err := Cost(p.h, res.Readout, p.labels, o.Beta)
			if err != nil {
				t.Fatal(err)
			}
			if full != res.Cost {
				t.Errorf("%+v seed %d: reported cost %v, recomputed %v", tc, s, res.Cost, full)
			}
			if err := res.Readout.Validate(); err != nil {
				t.Errorf("%+v seed %d: %v", tc, s, err)
			}
			if res.Readout.Method != MethodGARounded || res.Readout.Scale != seed.Scale || res.Readout.Bound != tc.b {
				t.Errorf("%+v seed %d: readout metadata %+v", tc, s, res.Readout)
			}
			if len(res.History) != res.Generations+1 || res.History[len(res.History)-1] != res.Cost {
				t.Errorf("%+v seed %d: history of %d entries for %d generations, last %v, cost %v",
					tc, s, len(res.History), res.Generations, res.History[len(res.History)-1], res.Cost)
			}
			for g := 1; g < len(res.History); g++ {
				if res.History[g] > res.History[g-1] {
					t.Errorf("%+v seed %d: best cost rose at generation %d: %v → %v", tc, s, g, res.History[g-1], res.History[g])
				}
			}
		}
	}
}

// TestGAGenerationsZero: with no generations the result is the best of the
// initial population, which for Refine is never worse than the seed.
func TestGAGenerationsZero(t *testing.T) {
	p := synth(100, 16, 3, 3, 1, 5)
	seed, err := Quantize(p.w, 3, 16, 3)
	if err != nil {
		t.Fatal(err)
	}
	o := smallOpts(1)
	o.Generations = 0
	res, err := Refine(context.Background(), seed, p.h, p.labels, o)
	if err != nil {
		t.Fatal(err)
	}
	seedCost, _ := Cost(p.h, seed, p.labels, o.Beta)
	if res.Generations != 0 || len(res.History) != 1 || res.Cost > seedCost || res.Evaluations != o.Population {
		t.Errorf("Generations=0: got %+v, seed cost %v", res, seedCost)
	}
}

// TestGAImprovesBadSeed: on a separable problem (labels from an integer
// teacher) a GA started from the negated teacher — accuracy near 0 — must
// reach high training accuracy.
func TestGAImprovesBadSeed(t *testing.T) {
	p := synth(200, 24, 3, 3, 0, 33)
	bad := make([]float64, len(p.w))
	for i, v := range p.w {
		bad[i] = -v
	}
	seed, err := Quantize(bad, 3, 24, 3)
	if err != nil {
		t.Fatal(err)
	}
	acc0, err := Accuracy(p.h, seed, p.labels)
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultGAOptions()
	o.Population = 32
	o.Generations = 400
	res, err := Refine(context.Background(), seed, p.h, p.labels, o)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := Accuracy(p.h, res.Readout, p.labels)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("accuracy %.3f → %.3f, cost %.2f → %.2f in %d generations", acc0, acc, res.History[0], res.Cost, res.Generations)
	if acc0 > 0.2 || acc < 0.9 {
		t.Errorf("accuracy %.3f → %.3f, want ≤ 0.2 → ≥ 0.9", acc0, acc)
	}
	if res.Cost > 0.5*res.History[0] {
		t.Errorf("cost %v → %v, want at least halved", res.History[0], res.Cost)
	}

	// The random start reaches a good solution too.
	rnd, err := RandomGA(context.Background(), 3, 3, p.h, p.labels, o)
	if err != nil {
		t.Fatal(err)
	}
	racc, _ := Accuracy(p.h, rnd.Readout, p.labels)
	if racc < 0.85 || rnd.Readout.Method != MethodGARandom || rnd.Readout.Scale != 1 {
		t.Errorf("random GA: accuracy %.3f, readout %+v", racc, rnd.Readout)
	}
}

// TestGAEarlyStop: a trivially separable problem reaches the cost floor
// (every row at μ = −1); the run must then stop exactly Patience generations
// after the last improvement.
func TestGAEarlyStop(t *testing.T) {
	// Two classes, N = 2: h = (+1, −1) for class 0 and (−1, +1) for class 1.
	// The seed has every row wrong (μ = +1), more than one mutation away from
	// the floor.
	h := Activations{Rows: 40, Cols: 2, Data: make([]int8, 80)}
	labels := make([]int, 40)
	for m := range 40 {
		labels[m] = m % 2
		s := int8(1 - 2*(m%2))
		h.Data[2*m], h.Data[2*m+1] = s, -s
	}
	seed := Readout{Classes: 2, Neurons: 2, Bound: 3, Bits: 3, Scale: 1, Weights: []int32{-3, 3, 3, -3}, Method: MethodRound}
	o := smallOpts(1)
	o.InitMutations = 1
	o.Generations = 1000
	o.Patience = 25
	res, err := Refine(context.Background(), seed, h, labels, o)
	if err != nil {
		t.Fatal(err)
	}
	floor := 0.0
	for range 40 {
		floor += RowCost(1, -1, o.Beta) // summed in row order, as the fitness does
	}
	last := 0 // last generation that improved the best cost
	for g := 1; g < len(res.History); g++ {
		if res.History[g] < res.History[g-1] {
			last = g
		}
	}
	t.Logf("cost %v → %v, last improvement at generation %d, stopped after %d", res.History[0], res.Cost, last, res.Generations)
	if res.History[0] <= floor || res.Cost != floor {
		t.Errorf("cost %v → %v, want from above the floor %v to the floor", res.History[0], res.Cost, floor)
	}
	if !res.StoppedEarly || res.Generations != last+o.Patience {
		t.Errorf("StoppedEarly=%v after %d generations, want true after %d+%d", res.StoppedEarly, res.Generations, last, o.Patience)
	}

	// Patience 0 runs every generation.
	o.Patience = 0
	o.Generations = 40
	res, err = Refine(context.Background(), seed, h, labels, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.StoppedEarly || res.Generations != 40 || len(res.History) != 41 {
		t.Errorf("Patience 0: StoppedEarly=%v, %d generations, want false, 40", res.StoppedEarly, res.Generations)
	}
}

// TestEngineIncrementalExact: after a run every individual's incrementally
// maintained scores equal a full recomputation and its cost equals the
// fitness of those scores.
func TestEngineIncrementalExact(t *testing.T) {
	p := synth(120, 33, 4, 7, 1, 44)
	for _, b := range []int{1, 5} {
		seed, err := Quantize(p.w, 4, 33, b)
		if err != nil {
			t.Fatal(err)
		}
		o := smallOpts(3)
		o.UniformRate = 0.5
		o.RandomLevel = 0.5
		e, err := newEngine(p.h, seed, p.labels, o)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.run(context.Background(), seed.Weights); err != nil {
			t.Fatal(err)
		}
		full := make([]int32, len(e.pop[0].s))
		for i, ind := range e.pop {
			scoreCols(full, e.h, e.m, e.n, ind.q, e.l)
			if diff := cmp.Diff(full, ind.s); diff != "" {
				t.Fatalf("B=%d individual %d: incremental scores differ from full (-full +incremental):\n%s", b, i, diff)
			}
			r := seed.Clone()
			copy(r.Weights, ind.q)
			c, err := Cost(p.h, r, p.labels, o.Beta)
			if err != nil {
				t.Fatal(err)
			}
			if c != ind.cost {
				t.Fatalf("B=%d individual %d: cost %v, Cost() %v", b, i, ind.cost, c)
			}
			for k, q := range ind.q {
				if q < -int32(b) || q > int32(b) {
					t.Fatalf("B=%d individual %d: gene %d = %d outside ±%d", b, i, k, q, b)
				}
			}
		}
	}
}

func TestGAErrors(t *testing.T) {
	p := synth(20, 8, 2, 3, 1, 1)
	seed, err := Quantize(p.w, 2, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	mod := func(f func(o *GAOptions)) GAOptions {
		o := DefaultGAOptions()
		f(&o)
		return o
	}
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"zero options", func() error { _, err := Refine(context.Background(), seed, p.h, p.labels, GAOptions{}); return err }, "Population = 0"},
		{"elite", func() error {
			_, err := Refine(context.Background(), seed, p.h, p.labels, mod(func(o *GAOptions) { o.Elite = o.Population }))
			return err
		}, "Elite"},
		{"rate", func() error {
			_, err := Refine(context.Background(), seed, p.h, p.labels, mod(func(o *GAOptions) { o.CrossoverRate = 1.5 }))
			return err
		}, "CrossoverRate"},
		{"beta", func() error {
			_, err := Refine(context.Background(), seed, p.h, p.labels, mod(func(o *GAOptions) { o.Beta = -1 }))
			return err
		}, "beta -1"},
		{"labels", func() error {
			_, err := Refine(context.Background(), seed, p.h, p.labels[:5], DefaultGAOptions())
			return err
		}, "5 labels for 20 rows"},
		{"shape", func() error {
			_, err := Refine(context.Background(), seed, Activations{Rows: 20, Cols: 7, Data: make([]int8, 140)}, p.labels, DefaultGAOptions())
			return err
		}, "7 columns"},
		{"one class", func() error {
			_, err := RandomGA(context.Background(), 1, 3, p.h, make([]int, 20), DefaultGAOptions())
			return err
		}, "at least 2 classes"},
		{"random bound", func() error {
			_, err := RandomGA(context.Background(), 2, 0, p.h, p.labels, DefaultGAOptions())
			return err
		}, "bound 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "quant: ") {
				t.Errorf("error = %v, want a quant: error containing %q", err, tc.want)
			}
		})
	}
}

// TestGAStopsOnContext: a GA with an (effectively) unbounded generation count
// and no patience returns ctx's error once ctx ends, both when ctx has ended
// before the call and when it ends during the run. Without the context check
// the second case would run for about 10^9 generations (the test's timeout).
func TestGAStopsOnContext(t *testing.T) {
	p := synth(200, 30, 3, 3, 1.0, 5)
	seed, err := Quantize(p.w, p.l, 30, 3)
	if err != nil {
		t.Fatal(err)
	}
	o := smallOpts(1)
	o.Generations = 1 << 30
	o.Workers = 2
	runs := map[string]func(ctx context.Context) (GAResult, error){
		"refine": func(ctx context.Context) (GAResult, error) { return Refine(ctx, seed, p.h, p.labels, o) },
		"random": func(ctx context.Context) (GAResult, error) { return RandomGA(ctx, p.l, 3, p.h, p.labels, o) },
	}
	for name, run := range runs {
		t.Run(name+"/before", func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := run(ctx); !errors.Is(err, context.Canceled) {
				t.Errorf("error %v, want one wrapping context.Canceled", err)
			}
		})
		t.Run(name+"/during", func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				// Cancel once the run is under way (after its first evaluations).
				time.Sleep(20 * time.Millisecond)
				cancel()
			}()
			res, err := run(ctx)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v (result after %d generations), want one wrapping context.Canceled", err, res.Generations)
			}
		})
	}
}
