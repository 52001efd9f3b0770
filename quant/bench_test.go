package quant

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// Benchmark sizes from the brief: M = 1000 rows, N = 500 neurons, L = 4
// classes, κ = 3, B = 15.
const (
	benchM, benchN, benchL, benchKappa, benchBound = 1000, 500, 4, 3, 15
)

func benchEngine(b *testing.B) (*engine, Readout) {
	b.Helper()
	p := synth(benchM, benchN, benchL, benchKappa, 1.0, 1)
	q, err := Quantize(p.w, benchL, benchN, benchBound)
	if err != nil {
		b.Fatal(err)
	}
	e, err := newEngine(p.h, q, p.labels, DefaultGAOptions())
	if err != nil {
		b.Fatal(err)
	}
	return e, q
}

// fullEvalTime measures the median time of a full evaluation (scores from
// scratch + fitness), the baseline the other benchmarks report ratios to.
func fullEvalTime(e *engine, q []int32, s []int32) time.Duration {
	ts := make([]time.Duration, 15)
	for i := range ts {
		t0 := time.Now()
		scoreCols(s, e.h, e.m, e.n, q, e.l)
		sink += e.fitness(s)
		ts[i] = time.Since(t0)
	}
	return median(ts)
}

func median(ts []time.Duration) time.Duration {
	c := append([]time.Duration(nil), ts...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c[len(c)/2]
}

var sink float64

// BenchmarkFitnessFull: score matrix from scratch (M·N·L int32 MACs) plus the
// GLVQ cost. Reports rows/s and the speed-up over the naive int64 reference
// scorer (naiveScores) measured in the same run.
func BenchmarkFitnessFull(b *testing.B) {
	e, q := benchEngine(b)
	h := Activations{Rows: e.m, Cols: e.n, Data: e.h}
	ts := make([]time.Duration, 5)
	for i := range ts {
		t0 := time.Now()
		y := naiveScores(h, q)
		ts[i] = time.Since(t0)
		sink += float64(y[0])
	}
	naive := median(ts)
	s := make([]int32, e.l*e.m)
	b.ResetTimer()
	for b.Loop() {
		scoreCols(s, e.h, e.m, e.n, q.Weights, e.l)
		sink += e.fitness(s)
	}
	per := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(e.m)/per, "rows/s")
	b.ReportMetric(naive.Seconds()/per, "x_vs_naive")
}

// BenchmarkFitnessIncremental: one mutated gene (M-element score update) plus
// the GLVQ cost, the GA's inner step. Reports rows/s and the speed-up over a
// full evaluation measured in the same run.
func BenchmarkFitnessIncremental(b *testing.B) {
	e, q := benchEngine(b)
	ind := &individual{q: append([]int32(nil), q.Weights...), s: make([]int32, e.l*e.m)}
	base := fullEvalTime(e, ind.q, ind.s)
	var rng stream
	rng.pcg.Seed(1, 2)
	b.ResetTimer()
	for b.Loop() {
		e.mutate(ind, 1, &rng)
		ind.cost = e.fitness(ind.s)
	}
	per := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(e.m)/per, "rows/s")
	b.ReportMetric(base.Seconds()/per, "x_vs_full")
}

// BenchmarkCostOnly: the GLVQ cost of a given score matrix (no updates).
func BenchmarkCostOnly(b *testing.B) {
	e, q := benchEngine(b)
	s := make([]int32, e.l*e.m)
	scoreCols(s, e.h, e.m, e.n, q.Weights, e.l)
	b.ResetTimer()
	for b.Loop() {
		sink += e.fitness(s)
	}
	b.ReportMetric(float64(e.m)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkGA: a whole Refine run with DefaultGAOptions on M=1000, N=500,
// L=4, κ=3, B=15, with 1 and 2 workers. Reports seconds per run,
// evaluations/s, generations run, and x_vs_full: how many times longer the
// same number of full evaluations (measured in the same run) would take.
func BenchmarkGA(b *testing.B) {
	p := synth(benchM, benchN, benchL, benchKappa, 1.0, 1)
	q, err := Quantize(p.w, benchL, benchN, benchBound)
	if err != nil {
		b.Fatal(err)
	}
	e, _ := benchEngine(b)
	full := fullEvalTime(e, q.Weights, make([]int32, e.l*e.m))
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			opt := DefaultGAOptions()
			opt.Workers = workers
			var res GAResult
			for b.Loop() {
				res, err = Refine(context.Background(), q, p.h, p.labels, opt)
				if err != nil {
					b.Fatal(err)
				}
			}
			per := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(per, "s/run")
			b.ReportMetric(float64(res.Evaluations)/per, "evals/s")
			b.ReportMetric(float64(res.Generations), "generations")
			b.ReportMetric(full.Seconds()*float64(res.Evaluations)/per, "x_vs_full")
		})
	}
}
