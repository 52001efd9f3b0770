package quant

import (
	"context"
	"hash/fnv"
	"math"
	"testing"
)

// goldenProblem builds a small problem from the GA's own platform-independent
// stream (math/rand/v2's IntN and NormFloat64 are not bit-stable across
// architectures): integer activations, labels from an integer teacher, and
// a float readout = teacher + noise.
func goldenProblem() (Activations, []int, []float64) {
	const m, n, l, kappa = 150, 24, 3, 3
	var rng stream
	rng.pcg.Seed(2024, 11)
	h := Activations{Rows: m, Cols: n, Data: make([]int8, m*n)}
	for i := range h.Data {
		h.Data[i] = int8(rng.intN(2*kappa+1) - kappa)
	}
	teacher := make([]int32, l*n)
	for i := range teacher {
		teacher[i] = int32(rng.intN(21) - 10)
	}
	labels := make([]int, m)
	for r := range m {
		y := make([]int32, l)
		for c := range l {
			y[c] = dot(h.Data[r*n:(r+1)*n], teacher[c*n:(c+1)*n])
		}
		labels[r] = Argmax(y)
	}
	w := make([]float64, l*n)
	for i := range w {
		w[i] = float64(teacher[i]) + 2.5*float64(rng.intN(9)-4)
	}
	return h, labels, w
}

// TestGAGolden pins the exact outcome of a small run (cost bits, generations,
// evaluations and a hash of Q) for Refine and RandomGA. The expected values
// were recorded on linux/amd64; the test must give the same bits on every
// GOARCH and GOAMD64 level (e.g. GOARCH=386, GOAMD64=v3 where the compiler
// may fuse multiply-adds) and for every worker count.
func TestGAGolden(t *testing.T) {
	h, labels, w := goldenProblem()
	seed, err := Quantize(w, 3, 24, 3)
	if err != nil {
		t.Fatal(err)
	}
	hashQ := func(q []int32) uint64 {
		f := fnv.New64a()
		for _, v := range q {
			f.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
		}
		return f.Sum64()
	}
	type outcome struct {
		CostBits    uint64
		Generations int
		Evaluations int
		QHash       uint64
	}
	for _, tc := range []struct {
		name string
		run  func(o GAOptions) (GAResult, error)
		want outcome
	}{
		{"refine", func(o GAOptions) (GAResult, error) { return Refine(context.Background(), seed, h, labels, o) },
			outcome{CostBits: 0x40397f99969582d2, Generations: 150, Evaluations: 2720, QHash: 0x1b6584b32b07472d}},
		{"random", func(o GAOptions) (GAResult, error) { return RandomGA(context.Background(), 3, 3, h, labels, o) },
			outcome{CostBits: 0x40381329c962dd10, Generations: 150, Evaluations: 2720, QHash: 0x8fd387b5c348bba1}},
	} {
		for _, workers := range []int{1, 2} {
			o := DefaultGAOptions()
			o.Population = 20
			o.Generations = 150
			o.Patience = 40
			o.Seed = 99
			o.Workers = workers
			res, err := tc.run(o)
			if err != nil {
				t.Fatal(err)
			}
			got := outcome{math.Float64bits(res.Cost), res.Generations, res.Evaluations, hashQ(res.Readout.Weights)}
			t.Logf("%s workers=%d: %#v (cost %v)", tc.name, workers, got, res.Cost)
			if got != tc.want {
				t.Errorf("%s workers=%d: got %#v, want %#v", tc.name, workers, got, tc.want)
			}
		}
	}
}
