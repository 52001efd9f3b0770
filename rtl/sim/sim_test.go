package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// reference computes the scores with the model package's own arithmetic.
func reference(m *model.Model, in []int) []int64 {
	h := make([]int, m.N())
	net, err := m.Integer()
	if err != nil {
		panic(err)
	}
	net.HiddenIntsTo(h, in)
	return m.Readout.Scores(h, m.L())
}

func randomInput(rng *rand.Rand, k, maxIn int) []int {
	in := make([]int, k)
	for i := range in {
		switch rng.IntN(8) {
		case 0:
			in[i] = 0
		case 1:
			in[i] = maxIn
		default:
			in[i] = rng.IntN(maxIn + 1)
		}
	}
	return in
}

type simCase struct {
	shape testmodel.Shape
	p     int
}

func simCases() []simCase {
	i, r := model.IntRVFL, model.RVFL8
	return []simCase{
		{testmodel.Shape{Arch: i, K: 1, N: 1, L: 2, Kappa: 1, Bits: 2}, 1},
		{testmodel.Shape{Arch: i, K: 1, N: 7, L: 3, Kappa: 15, Bits: 8}, 3},
		{testmodel.Shape{Arch: i, K: 3, N: 7, L: 2, Kappa: 1, Bits: 5}, 7},
		{testmodel.Shape{Arch: i, K: 16, N: 64, L: 4, Kappa: 3, Bits: 5}, 8},
		{testmodel.Shape{Arch: i, K: 65, N: 33, L: 10, Kappa: 15, Bits: 2}, 5},
		{testmodel.Shape{Arch: i, K: 130, N: 20, L: 3, Kappa: 7, Bits: 16}, 1},
		{testmodel.Shape{Arch: i, K: 16, N: 513, L: 10, Kappa: 15, Bits: 8}, 513},
		{testmodel.Shape{Arch: r, K: 1, N: 1, L: 2}, 1},
		{testmodel.Shape{Arch: r, K: 3, N: 7, L: 3}, 3},
		{testmodel.Shape{Arch: r, K: 16, N: 64, L: 4}, 64},
		{testmodel.Shape{Arch: r, K: 65, N: 13, L: 10}, 4},
	}
}

func newCore(t testing.TB, m *model.Model, p int) *Core {
	t.Helper()
	return newCoreWith(t, m, plan.Options{Parallel: p})
}

// newCoreWith is newCore with every plan option.
func newCoreWith(t testing.TB, m *model.Model, o plan.Options) *Core {
	t.Helper()
	pl, err := plan.New(m, o)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, pl)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestScoresMatchModel(t *testing.T) {
	for ci, tc := range simCases() {
		for _, p := range []int{1, tc.p, tc.shape.N} {
			m := testmodel.Random(tc.shape, "t", uint64(ci+1))
			c := newCore(t, m, p)
			rng := rand.New(rand.NewPCG(uint64(ci), uint64(p)))
			for trial := 0; trial < 40; trial++ {
				in := randomInput(rng, tc.shape.K, c.MaxInput())
				want := reference(m, in)
				if got := c.Scores(in); !cmp.Equal(want, got) {
					t.Fatalf("%s P=%d: Scores(%v) = %v, model %v", tc.shape, p, in, got, want)
				}
				if trial%8 != 0 {
					continue
				}
				class, scores, lat, err := c.Classify(in)
				if err != nil {
					t.Fatal(err)
				}
				if !cmp.Equal(want, scores) || class != model.ArgmaxInt(want) {
					t.Fatalf("%s P=%d: Classify = %d %v, model %d %v", tc.shape, p, class, scores, model.ArgmaxInt(want), want)
				}
				if lat != c.Plan().Latency {
					t.Fatalf("%s P=%d: latency %d, plan %d", tc.shape, p, lat, c.Plan().Latency)
				}
			}
		}
	}
}

func TestTrainedModels(t *testing.T) {
	for _, s := range []testmodel.Shape{
		{Arch: model.IntRVFL, K: 5, N: 40, L: 3, Kappa: 3, Bits: 5},
		{Arch: model.RVFL8, K: 5, N: 30, L: 3},
	} {
		m, d := testmodel.Trained(s, "blobs", 3)
		c := newCore(t, m, 4)
		k := m.K()
		for r := 0; r < len(d.Y); r++ {
			raw := d.X[r*k : (r+1)*k]
			var in []int
			if m.Arch() == model.IntRVFL {
				in = m.Levels(raw)
			} else {
				for _, a := range m.InputCodes(raw) {
					in = append(in, int(a))
				}
			}
			if got, want := c.Scores(in), m.IntScores(raw); !cmp.Equal(want, got) {
				t.Fatalf("%s row %d: %v, model %v", s, r, got, want)
			}
		}
	}
}

// stimulus returns n random vectors with random gaps and a random ready pattern.
func stimulus(c *Core, n int, readyP float64, maxGap int, seed uint64) Stimulus {
	rng := rand.New(rand.NewPCG(seed, 9))
	st := Stimulus{}
	for v := 0; v < n; v++ {
		st.Inputs = append(st.Inputs, randomInput(rng, c.k, c.MaxInput()))
		g := 0
		if maxGap > 0 && rng.IntN(2) == 0 {
			g = 1 + rng.IntN(maxGap)
		}
		st.Gaps = append(st.Gaps, g)
	}
	for r := 0; r < 37; r++ {
		st.Ready = append(st.Ready, rng.Float64() < readyP)
	}
	st.Ready[0] = true
	return st
}

func TestRunStream(t *testing.T) {
	for ci, tc := range simCases() {
		for _, pc := range holdCases(tc.p) {
			p := pc.p
			m := testmodel.Random(tc.shape, "t", uint64(ci+7))
			c := newCoreWith(t, m, plan.Options{Parallel: p, HoldInput: pc.hold})
			pl := c.Plan()
			lat := pl.AcceptLatency()
			for _, mode := range []struct {
				name   string
				readyP float64
				maxGap int
			}{{"free", 1, 0}, {"gaps", 1, 5}, {"backpressure", 0.3, 0}, {"both", 0.6, 3}} {
				st := stimulus(c, 40, mode.readyP, mode.maxGap, uint64(ci))
				run, err := c.RunStream(context.Background(), st)
				if err != nil {
					t.Fatalf("%s %s %s: %v", tc.shape, pc, mode.name, err)
				}
				for v, o := range run.Outputs {
					want := reference(m, st.Inputs[v])
					if !cmp.Equal(want, o.Scores) || o.Class != model.ArgmaxInt(want) {
						t.Fatalf("%s %s %s vector %d: got %d %v, want %d %v", tc.shape, pc, mode.name, v, o.Class, o.Scores, model.ArgmaxInt(want), want)
					}
					if o.Latency() < lat || o.Transfer < o.FirstValid {
						t.Fatalf("%s %s %s vector %d: cycles %+v, latency %d", tc.shape, pc, mode.name, v, o, lat)
					}
					if v > 0 {
						prev := run.Outputs[v-1]
						if o.Accept < prev.Accept+st.Gaps[v]+1 || o.FirstValid <= prev.Transfer {
							t.Fatalf("%s %s %s vector %d: cycles %+v after %+v", tc.shape, pc, mode.name, v, o, prev)
						}
					}
				}
				if mode.name == "free" {
					// Always ready, back to back: exact latency (for every vector when
					// G ≥ 2; with G = 1 vectors arrive faster than the II of 2 and queue)
					// and initiation interval.
					for v, o := range run.Outputs {
						if (v == 0 || pl.Groups >= 2) && o.Latency() != lat {
							t.Errorf("%s %s vector %d: latency %d, plan %d", tc.shape, pc, v, o.Latency(), lat)
						}
						// The first vector is offered at cycle 0 to an idle pipeline.
						if v == 0 && o.FirstValid != pl.Latency {
							t.Errorf("%s %s: first result at cycle %d, plan's latency %d", tc.shape, pc, o.FirstValid, pl.Latency)
						}
						// Steady state (the pipeline has filled): one result every II cycles.
						if v >= len(run.Outputs)/2 {
							if d := o.FirstValid - run.Outputs[v-1].FirstValid; d != pl.II {
								t.Errorf("%s %s vector %d: result %d cycles after the previous, II %d", tc.shape, pc, v, d, pl.II)
							}
						}
					}
				}
			}
		}
	}
}

func TestRunAxis(t *testing.T) {
	for ci, tc := range simCases() {
		for _, pc := range holdCases(tc.p) {
			p := pc.p
			m := testmodel.Random(tc.shape, "t", uint64(ci+11))
			c := newCoreWith(t, m, plan.Options{Parallel: p, HoldInput: pc.hold})
			pl := c.Plan()
			if !pl.AxisOK {
				continue
			}
			for _, mode := range []struct {
				name   string
				readyP float64
				maxGap int
			}{{"free", 1, 0}, {"both", 0.5, 4}} {
				st := stimulus(c, 40, mode.readyP, mode.maxGap, uint64(ci))
				run, err := c.RunAxis(context.Background(), st)
				if err != nil {
					t.Fatalf("%s %s %s: %v", tc.shape, pc, mode.name, err)
				}
				for v, o := range run.Outputs {
					want := reference(m, st.Inputs[v])
					if !cmp.Equal(want, o.Scores) || o.Class != model.ArgmaxInt(want) {
						t.Fatalf("%s %s %s vector %d: got %d %v, want %d %v", tc.shape, pc, mode.name, v, o.Class, o.Scores, model.ArgmaxInt(want), want)
					}
					if o.Latency() < pl.AxisLatency {
						t.Fatalf("%s %s %s vector %d: latency %d < %d", tc.shape, pc, mode.name, v, o.Latency(), pl.AxisLatency)
					}
				}
				if mode.name == "free" {
					for v, o := range run.Outputs {
						if v == 0 && o.Latency() != pl.AxisLatency {
							t.Errorf("%s %s: first vector latency %d, plan %d", tc.shape, pc, o.Latency(), pl.AxisLatency)
						}
						if v >= len(run.Outputs)/2 {
							if d := o.FirstValid - run.Outputs[v-1].FirstValid; d != pl.AxisII {
								t.Errorf("%s %s vector %d: steady-state interval %d, plan %d", tc.shape, pc, v, d, pl.AxisII)
							}
						}
					}
				}
			}
		}
	}
}

// holdCase is a parallelism with or without the input register.
type holdCase struct {
	p    int
	hold bool
}

func (h holdCase) String() string { return fmt.Sprintf("P=%d hold=%v", h.p, h.hold) }

// holdCases are P = 1 and P = p, each with the input register and without
// (plan.Options.HoldInput).
func holdCases(p int) []holdCase {
	return []holdCase{{1, false}, {p, false}, {1, true}, {p, true}}
}

func TestStimulusErrors(t *testing.T) {
	m := testmodel.Random(testmodel.Shape{Arch: model.IntRVFL, K: 2, N: 4, L: 2, Kappa: 1, Bits: 3}, "t", 1)
	c := newCore(t, m, 1)
	tests := []struct {
		name string
		st   Stimulus
	}{
		{"gaps", Stimulus{Inputs: [][]int{{0, 1}}, Ready: []bool{true}}},
		{"no ready", Stimulus{Inputs: [][]int{{0, 1}}, Gaps: []int{0}}},
		{"never ready", Stimulus{Inputs: [][]int{{0, 1}}, Gaps: []int{0}, Ready: []bool{false}}},
		{"level above N", Stimulus{Inputs: [][]int{{0, 5}}, Gaps: []int{0}, Ready: []bool{true}}},
		{"short vector", Stimulus{Inputs: [][]int{{0}}, Gaps: []int{0}, Ready: []bool{true}}},
		{"negative gap", Stimulus{Inputs: [][]int{{0, 1}}, Gaps: []int{-1}, Ready: []bool{true}}},
		{"too few cycles", Stimulus{Inputs: [][]int{{0, 1}}, Gaps: []int{0}, Ready: []bool{true}, MaxCycles: 3}},
	}
	for _, tc := range tests {
		if _, err := c.RunStream(context.Background(), tc.st); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestInputAndNewFromModel(t *testing.T) {
	for _, s := range []testmodel.Shape{
		{Arch: model.IntRVFL, K: 3, N: 9, L: 2, Kappa: 2, Bits: 4},
		{Arch: model.RVFL8, K: 3, N: 9, L: 2},
	} {
		m := testmodel.Random(s, "in", 3)
		c, err := NewFromModel(m, plan.Options{Parallel: 2})
		if err != nil {
			t.Fatal(err)
		}
		raw := []float64{0, 0.5, 1.2}
		in, err := c.Input(raw)
		if err != nil {
			t.Fatal(err)
		}
		_, scores, _, err := c.Classify(in)
		if err != nil {
			t.Fatal(err)
		}
		if want := m.IntScores(raw); !cmp.Equal(want, scores) {
			t.Errorf("%s: scores %v, model %v", s, scores, want)
		}
		if _, err := c.Input(raw[:2]); err == nil {
			t.Errorf("%s: a short row was accepted", s)
		}
	}
	if _, err := NewFromModel(testmodel.Random(testmodel.Shape{Arch: model.IntRVFL, K: 1, N: 2, L: 2, Kappa: 1, Bits: 2}, "x", 1), plan.Options{Parallel: 3}); err == nil {
		t.Error("P > N accepted")
	}
}
