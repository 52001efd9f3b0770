package model_test

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
)

// rows returns m rows of k features in [−0.25, 1.25] (clamped by the
// normaliser), with exact 0, 1 and level boundaries mixed in.
func rows(m, k, n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	x := make([]float64, m*k)
	for i := range x {
		switch rng.IntN(6) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = 1
		case 2:
			x[i] = (float64(rng.IntN(n+1)) + 0.5) / float64(n) // a rounding boundary
		default:
			x[i] = rng.Float64()*1.5 - 0.25
		}
	}
	return x
}

func TestBatchPredictorMatchesPredict(t *testing.T) {
	shapes := []randmodel.Shape{
		{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5}, // the median network
		{Arch: model.IntRVFL, K: 1, N: 1, L: 2, Kappa: 1, Bits: 2},
		{Arch: model.IntRVFL, K: 5, N: 7, L: 3, Kappa: 7, Bits: 3},
		{Arch: model.IntRVFL, K: 63, N: 100, L: 10, Kappa: 15, Bits: 8},
		{Arch: model.IntRVFL, K: 64, N: 300, L: 26, Kappa: 3, Bits: 16}, // 26-bit lanes, 2 per word
		{Arch: model.IntRVFL, K: 9, N: 1500, L: 7, Kappa: 15, Bits: 16}, // 31-bit lanes
	}
	for _, s := range shapes {
		t.Run(s.String(), func(t *testing.T) {
			for seed := uint64(0); seed < 3; seed++ {
				m := randmodel.Random(s, "r", seed)
				b := model.NewBatchPredictor(m)
				if b == nil {
					t.Fatal("no batch predictor")
				}
				const nr = 3000
				x := rows(nr, s.K, s.N, seed)
				want := make([]int, nr)
				for r := range want {
					want[r] = m.Predict(x[r*s.K : (r+1)*s.K])
				}
				for _, workers := range []int{1, 3} {
					got := make([]int, nr)
					b.Predict(got, x, nr, workers)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("seed %d, %d workers: batch differs from Predict (-want +got)\n%s", seed, workers, diff)
					}
				}
			}
		})
	}
}

func TestBatchPredictorNotApplicable(t *testing.T) {
	tests := []struct {
		name string
		m    *model.Model
	}{
		{"rvfl8", randmodel.Random(randmodel.Shape{Arch: model.RVFL8, K: 4, N: 8, L: 3}, "r", 1)},
		{"K=65", randmodel.Random(randmodel.Shape{Arch: model.IntRVFL, K: 65, N: 8, L: 3, Kappa: 3, Bits: 5}, "r", 1)},
		{"lanes wider than 32 bits", randmodel.Random(randmodel.Shape{Arch: model.IntRVFL, K: 4, N: 100000, L: 3, Kappa: 15, Bits: 16}, "r", 1)},
	}
	for _, tc := range tests {
		if b := model.NewBatchPredictor(tc.m); b != nil {
			t.Errorf("%s: got a batch predictor, want nil", tc.name)
		}
	}
	m := randmodel.Random(randmodel.Shape{Arch: model.IntRVFL, K: 4, N: 8, L: 3, Kappa: 3, Bits: 5}, "r", 1)
	m.Readout = nil
	if model.NewBatchPredictor(m) != nil {
		t.Error("float readout: got a batch predictor")
	}
}

// BenchmarkPredictMedian compares, in one run, the per-row path
// (Model.Predict) with the batch path on the median network (K=16, N=512,
// L=4, κ=3, 5-bit readout), rows already parsed (no CSV):
//
//	go test ./model -run '^$' -bench PredictMedian -benchtime 3x
func BenchmarkPredictMedian(b *testing.B) {
	s := randmodel.Shape{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5}
	m := randmodel.Random(s, "median", 1)
	const nr = 200_000
	x := rows(nr, s.K, s.N, 7)
	dst := make([]int, nr)
	bp := model.NewBatchPredictor(m)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				f()
			}
			rows := float64(nr) * float64(b.N)
			b.ReportMetric(rows/b.Elapsed().Seconds(), "rows/s")
			// On a shared machine the wall-clock rate depends on the load; the
			// rate per CPU-second of this process does much less.
			b.ReportMetric(rows/(cpuSeconds()-cpu0), "rows/cpu-s")
		})
	}
	run("per-row", func() {
		for r := 0; r < nr; r++ {
			dst[r] = m.Predict(x[r*s.K : (r+1)*s.K])
		}
	})
	run("batch-1", func() { bp.Predict(dst, x, nr, 1) })
	run("batch-2", func() { bp.Predict(dst, x, nr, 2) })
	_ = fmt.Sprint(dst[0])
}

// cpuSeconds is the user+system CPU time of this process.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
