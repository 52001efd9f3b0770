package protocol

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

// benchEvaluate times Evaluate (the fast path) and EvaluateBaseline on u and
// cfg with the protocol's 5 seeds, alternately in the same run (one after
// the other, repeated for at least pairTime so that small datasets give
// several pairs), and reports the medians of both and the ratio of the
// medians (x-baseline). The accuracies must agree
// (TestEvaluateMatchesBaseline checks them bit for bit).
func benchEvaluate(b *testing.B, u *dataset.UCIDataset, cfg model.Config) {
	ctx := context.Background()
	var fast, base []float64
	b.ReportMetric(0, "ns/op")
	for b.Loop() {
		for start := time.Now(); len(fast) == 0 || time.Since(start) < pairTime; {
			t0 := time.Now()
			f, err := Evaluate(ctx, u, cfg, EvalOptions{})
			if err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			r, err := EvaluateBaseline(ctx, u, cfg, EvalOptions{})
			if err != nil {
				b.Fatal(err)
			}
			fast, base = append(fast, t1.Sub(t0).Seconds()), append(base, time.Since(t1).Seconds())
			if r.Mean != f.Mean {
				b.Fatalf("accuracy %v, baseline %v", f.Mean, r.Mean)
			}
		}
	}
	slices.Sort(fast)
	slices.Sort(base)
	b.ReportMetric(Median(fast), "s/op")
	b.ReportMetric(Median(base), "baseline-s")
	b.ReportMetric(Median(base)/Median(fast), "x-baseline")
}

// pairTime is the least time benchEvaluate spends on pairs of runs.
const pairTime = 3 * time.Second

// intCfg is the intRVFL configuration of the benchmarks: κ = 3, the
// variance penalty, one thread (the studies' setting).
func intCfg(n int) model.Config {
	return model.Config{Arch: model.IntRVFL, N: n, Kappa: 3, Lambda: 4, Regularizer: model.RegVariance, Threads: 1}
}

// Synthetic datasets of the collection's shape (syntheticUCI: 16 features,
// 4 classes, four overlapping 75 %/25 % folds), half of the features
// continuous unless "Discrete".

// BenchmarkEvaluateSmallM: 400 rows, N = 1000: every fold's system is the
// dual one (300 training rows < N).
func BenchmarkEvaluateSmallM(b *testing.B) {
	benchEvaluate(b, syntheticUCI("small-m", 400, 16, 4, 0, 1, false), intCfg(1000))
}

// BenchmarkEvaluateLargeM: 20,000 rows, N = 500; the continuous features
// give each fold its own normaliser.
func BenchmarkEvaluateLargeM(b *testing.B) {
	benchEvaluate(b, syntheticUCI("large-m", 20000, 16, 4, 0, 1, false), intCfg(500))
}

// BenchmarkEvaluateLargeMDiscrete: as LargeM with discrete features only, so
// that the four folds share their levels (as on connect-4, chess-krvk or
// nursery).
func BenchmarkEvaluateLargeMDiscrete(b *testing.B) {
	benchEvaluate(b, syntheticUCI("large-m-discrete", 20000, 16, 4, 0, 1, true), intCfg(500))
}

// BenchmarkEvaluateLargeN: 5,000 rows, N = 1500.
func BenchmarkEvaluateLargeN(b *testing.B) {
	benchEvaluate(b, syntheticUCI("large-n", 5000, 16, 4, 0, 1, false), intCfg(1500))
}

// BenchmarkEvaluateTwoFile: a 5,000-row training file and a 2,000-row test
// file, N = 1000.
func BenchmarkEvaluateTwoFile(b *testing.B) {
	benchEvaluate(b, syntheticUCI("two-file", 5000, 16, 4, 2000, 1, false), intCfg(1000))
}

// BenchmarkEvaluateCollection evaluates a mixed set of datasets of the
// collection with the intRVFL configurations the accuracy study chose
// (results/uci121/accuracy.tsv: N, λ, κ; the variance penalty), both paths
// alternately, and reports the total time of each and the ratio. Discrete
// features (mushroom, chess-krvkp, nursery) let the folds share their
// levels; the others give each fold its own. It needs HDLGEN_UCI121.
func BenchmarkEvaluateCollection(b *testing.B) {
	dir := collection(b)
	sets := []struct {
		name    string
		n       int
		lambda  float64
		kappa   int
		dataset *dataset.UCIDataset
	}{
		{name: "statlog-heart", n: 50, lambda: 32, kappa: 3},
		{name: "ecoli", n: 350, lambda: 16, kappa: 1},
		{name: "image-segmentation", n: 500, lambda: 0.5, kappa: 3},
		{name: "abalone", n: 300, lambda: 32, kappa: 15},
		{name: "wine-quality-white", n: 750, lambda: 32, kappa: 3},
		{name: "mushroom", n: 100, lambda: 0.0625, kappa: 15},
		{name: "chess-krvkp", n: 1500, lambda: 8, kappa: 7},
		{name: "nursery", n: 950, lambda: 32, kappa: 7},
		{name: "magic", n: 800, lambda: 32, kappa: 3},
	}
	for i := range sets {
		u, err := dataset.LoadUCI(dir, sets[i].name)
		if err != nil {
			b.Fatal(err)
		}
		sets[i].dataset = u
	}
	ctx := context.Background()
	var fast, base []float64
	b.ReportMetric(0, "ns/op")
	for b.Loop() {
		var tf, tb float64
		for _, s := range sets {
			cfg := IntRVFL.Config(s.n, s.lambda, s.kappa)
			t0 := time.Now()
			f, err := Evaluate(ctx, s.dataset, cfg, EvalOptions{})
			if err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			r, err := EvaluateBaseline(ctx, s.dataset, cfg, EvalOptions{})
			if err != nil {
				b.Fatal(err)
			}
			tf, tb = tf+t1.Sub(t0).Seconds(), tb+time.Since(t1).Seconds()
			if r.Mean != f.Mean {
				b.Fatalf("%s: accuracy %v, baseline %v", s.name, f.Mean, r.Mean)
			}
		}
		fast, base = append(fast, tf), append(base, tb)
	}
	slices.Sort(fast)
	slices.Sort(base)
	b.ReportMetric(Median(fast), "s/op")
	b.ReportMetric(Median(base), "baseline-s")
	b.ReportMetric(Median(base)/Median(fast), "x-baseline")
}

// BenchmarkEvaluateSmallMIdentity is SmallM with the identity penalty, the
// default for a user's CSV file.
func BenchmarkEvaluateSmallMIdentity(b *testing.B) {
	cfg := intCfg(1000)
	cfg.Regularizer = model.RegIdentity
	benchEvaluate(b, syntheticUCI("small-m", 400, 16, 4, 0, 1, false), cfg)
}
