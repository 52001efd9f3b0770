package tune

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
)

// noisyCSV returns a CSV of m rows: one informative feature (the class
// index plus noise), k−1 features of pure noise, labels named "no"/"yes"
// with a share flip of them flipped. With more neurons than training rows,
// a weakly regularised readout fits the noise and a strong one does not.
func noisyCSV(m, k int, flip float64, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, "x%d,", i+1)
	}
	b.WriteString("label\n")
	for r := 0; r < m; r++ {
		y := rng.IntN(2)
		fmt.Fprintf(&b, "%.4f", float64(y)+0.35*rng.NormFloat64())
		for i := 1; i < k; i++ {
			fmt.Fprintf(&b, ",%.4f", rng.Float64())
		}
		if rng.Float64() < flip {
			y = 1 - y
		}
		fmt.Fprintf(&b, ",%s\n", []string{"no", "yes"}[y])
	}
	return b.String()
}

func readCSV(t *testing.T, name, text string) *dataset.Dataset {
	t.Helper()
	d, err := dataset.ReadCSV(strings.NewReader(text), name+".csv", dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Name = name
	return d
}

// TestSplits: k-fold validates every row exactly once, fold sizes differ by
// at most one and so does each class's count across the folds; holdout
// takes the rounded share of each class; training and validation rows of a
// split are disjoint and cover the data; the same seed gives the same
// splits and another seed others.
func TestSplits(t *testing.T) {
	d := readCSV(t, "d", noisyCSV(103, 3, 0, 1))
	counts := d.ClassCounts()
	for _, v := range []Validation{{Folds: 4}, {Folds: 5, Seed: 7}, {Folds: 2}, {Holdout: 0.25}, {Holdout: 0.5, Seed: 3}} {
		t.Run(v.Method(), func(t *testing.T) {
			splits, err := v.Splits(d)
			if err != nil {
				t.Fatal(err)
			}
			validated := make([]int, d.M())
			var sizes []int
			for _, s := range splits {
				all := append(slices.Clone(s.Train), s.Test...)
				slices.Sort(all)
				if !slices.Equal(all, identityRows(d.M())) {
					t.Fatalf("training and validation rows do not partition the data")
				}
				perClass := make([]int, d.L())
				for _, r := range s.Test {
					validated[r]++
					perClass[d.Y[r]]++
				}
				sizes = append(sizes, len(s.Test))
				for c, n := range perClass {
					want := float64(counts[c]) / float64(len(splits))
					if v.Holdout > 0 {
						want = v.Holdout * float64(counts[c])
					}
					if float64(n) < want-1 || float64(n) > want+1 {
						t.Errorf("class %d: %d validation rows, want about %.1f", c, n, want)
					}
				}
			}
			if v.Holdout == 0 {
				if slices.Max(sizes)-slices.Min(sizes) > 1 {
					t.Errorf("fold sizes %v differ by more than one", sizes)
				}
				for r, n := range validated {
					if n != 1 {
						t.Fatalf("row %d validated %d times", r, n)
					}
				}
			}
			again, _ := v.Splits(d)
			if diff := cmp.Diff(splits, again); diff != "" {
				t.Errorf("same seed, other splits:\n%s", diff)
			}
			v.Seed++
			if other, _ := v.Splits(d); cmp.Equal(splits, other) {
				t.Error("another seed gives the same splits")
			}
		})
	}
	for _, v := range []Validation{{Folds: 1}, {Folds: 0}, {Holdout: 1}, {Holdout: -0.1}, {Folds: 200}, {Holdout: 0.001}} {
		if _, err := v.Splits(d); err == nil {
			t.Errorf("%+v: no error", v)
		}
	}
}

// TestHoldoutKeepsATrainingRow: a holdout split leaves every class at least
// one training row, and TrainingOnly names the classes it validates none of
// (issue 36, item 10: with --holdout 0.5 a one-row class was held out whole,
// and build's baseline refused a held-out file with a class its training
// rows lacked).
func TestHoldoutKeepsATrainingRow(t *testing.T) {
	d := readCSV(t, "d", "x,label\n1,a\n2,a\n3,a\n4,a\n5,b\n6,c\n7,c\n")
	for _, tc := range []struct {
		holdout float64
		only    []string
	}{
		{0.2, []string{"b (1 row)", "c (2 rows)"}},
		{0.25, []string{"b (1 row)"}},
		{0.5, []string{"b (1 row)"}},
		{0.9, []string{"b (1 row)"}},
	} {
		v := Validation{Holdout: tc.holdout}
		ss, err := v.Splits(d)
		if err != nil {
			t.Fatal(err)
		}
		trained := make([]int, d.L())
		for _, r := range ss[0].Train {
			trained[d.Y[r]]++
		}
		if slices.Contains(trained, 0) {
			t.Errorf("holdout %g: training rows per class %v: a class has none", tc.holdout, trained)
		}
		if diff := cmp.Diff(tc.only, v.TrainingOnly(d)); diff != "" {
			t.Errorf("holdout %g: TrainingOnly (-want +got):\n%s", tc.holdout, diff)
		}
	}
	if got := (Validation{Folds: 4}).TrainingOnly(d); got != nil {
		t.Errorf("k-fold: TrainingOnly %v, want none", got)
	}
	// A subset of the rows without class b (a fold of a class-grouped
	// list, say) keeps b's name: b has no row to hold out or fit, and the
	// split is still made (a slice index of −1 panicked before).
	noB := d.Subset([]int{0, 1, 2, 3, 5, 6})
	for _, v := range []Validation{{Holdout: 0.25}, {Folds: 2}} {
		ss, err := v.Splits(noB)
		if err != nil {
			t.Fatalf("%s without class b: %v", v.Method(), err)
		}
		var rows []int
		for _, s := range ss[:1] {
			rows = append(append(rows, s.Train...), s.Test...)
		}
		slices.Sort(rows)
		if diff := cmp.Diff([]int{0, 1, 2, 3, 4, 5}, rows); diff != "" {
			t.Errorf("%s without class b: the first split's rows (-want +got)\n%s", v.Method(), diff)
		}
	}
}

// TestSearchPrefersTheStrongPenaltyOnNoisyData: with as many neurons as
// training rows (the interpolation threshold, where a weakly regularised
// readout generalises worst) and mostly noise features, the search chooses
// the largest λ of the grid, which validates clearly better than the
// smallest; the
// summed counts are the parts' and the validation accuracy is consistent
// with them.
func TestSearchPrefersTheStrongPenaltyOnNoisyData(t *testing.T) {
	d := readCSV(t, "noisy", noisyCSV(160, 12, 0.1, 2))
	task, err := NewTask(d, nil, Validation{Folds: 4})
	if err != nil {
		t.Fatal(err)
	}
	g := protocol.Grid{Ns: []int{120}, Lambdas: []float64{1.0 / 1024, 1, 1024}, Kappas: []int{3}}
	for _, bits := range []int{0, 5} {
		nw := fmt.Sprintf("intrvfl bits %d", bits)
		res, acc, err := task.Search(context.Background(), protocol.IntRVFL, protocol.SearchOptions{Grid: g, Regularizer: model.RegIdentity, Bits: bits}, []uint64{0, 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Best.Lambda != 1024 {
			t.Errorf("%s: chose λ=%g, want 1024 (counts %v)", nw, res.Best.Lambda, res.Correct)
		}
		weak, strong := res.Correct[0][0][0], res.Correct[0][0][2]
		t.Logf("%s: correct %v of %d", nw, res.Correct, res.Best.ValRows)
		if float64(strong-weak) < 0.1*float64(res.Best.ValRows) {
			t.Errorf("%s: λ=1024 has %d correct, λ=2⁻¹⁰ %d of %d: not clearly better", nw, strong, weak, res.Best.ValRows)
		}
		if res.Best.ValRows != 2*d.M() {
			t.Errorf("%s: %d validation rows, want every row once per seed (%d)", nw, res.Best.ValRows, 2*d.M())
		}
		if len(acc.PerSeed) != 2 || len(acc.PerSeed[0]) != 4 || acc.Mean < 0.7 || acc.Mean-res.Best.ValAccuracy > 0.02 || res.Best.ValAccuracy-acc.Mean > 0.02 {
			t.Errorf("%s: validation accuracy %+v, pooled %.4f", nw, acc, res.Best.ValAccuracy)
		}
	}
}

// TestEvaluateWithTestFile: the test file's labels are renumbered to the
// training classes (here it lacks one and names them in another order of
// appearance), the validation accuracy is protocol.Evaluate's on the folds,
// and the test accuracy is that of model.Train on all training rows.
func TestEvaluateWithTestFile(t *testing.T) {
	train := readCSV(t, "train", noisyCSV(200, 4, 0, 3))
	test := readCSV(t, "test", "x1,x2,x3,x4,label\n1.1,0.5,0.5,0.5,yes\n-0.2,0.1,0.2,0.3,no\n0.8,0.9,0.9,0.1,yes\n")
	task, err := NewTask(train, test, Validation{Folds: 3})
	if err != nil {
		t.Fatal(err)
	}
	cfg := model.Config{Arch: model.IntRVFL, N: 60, Kappa: 3, Lambda: 4, Regularizer: model.RegIdentity, ReadoutBits: 5}
	seeds := []uint64{0, 1, 2}
	val, tested, err := task.Evaluate(context.Background(), cfg, seeds)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := protocol.Evaluate(context.Background(), &dataset.UCIDataset{Meta: dataset.UCIMeta{Name: "train"}, Data: train, Folds: task.Splits}, cfg, protocol.EvalOptions{Seeds: seeds})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cv.PerFold, val.PerSeed); diff != "" {
		t.Errorf("validation accuracies differ from protocol.Evaluate's (-want +got):\n%s", diff)
	}
	for s, seed := range seeds {
		c := cfg
		c.Seed = seed
		m, err := model.Train(context.Background(), model.Data{X: train.X, Y: train.Y, ClassNames: train.ClassNames}, c)
		if err != nil {
			t.Fatal(err)
		}
		want := m.Accuracy(test.X, test.M(), []int{1, 0, 1}) // "no" = 0, "yes" = 1 in training
		if got := tested.PerSeed[s][0]; got != want {
			t.Errorf("seed %d: test accuracy %.4f, model.Train gives %.4f", seed, got, want)
		}
	}

	for _, tc := range []struct{ csv, want string }{
		{"x1,x2,x3,label\n1,2,3,yes\n1,2,3,no\n", "has 3 features"},
		{"x1,x2,x3,y4,label\n1,2,3,4,yes\n1,2,3,4,no\n", `column 4 is "y4"`},
		{"x1,x2,x3,x4,label\n1,2,3,4,yes\n1,2,3,4,maybe\n", `class "maybe"`},
	} {
		if _, err := NewTask(train, readCSV(t, "bad", tc.csv), Validation{Folds: 3}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("test file %q: error %v, want one with %q", tc.csv, err, tc.want)
		}
	}
}

// TestResultIsDeterministic: a search and its Result document, run twice,
// give the same bytes, with the fields build reads.
func TestResultIsDeterministic(t *testing.T) {
	text := noisyCSV(120, 5, 0.05, 4)
	doc := func() []byte {
		d := readCSV(t, "det", text)
		v := Validation{Holdout: 0.3, Seed: 5}
		task, err := NewTask(d, nil, v)
		if err != nil {
			t.Fatal(err)
		}
		g := protocol.Grid{Ns: []int{20, 40}, Lambdas: []float64{0.5, 8}, Kappas: []int{1, 3}}
		res, acc, err := task.Search(context.Background(), protocol.IntRVFL, protocol.SearchOptions{Grid: g, Regularizer: model.RegIdentity, Bits: 5}, []uint64{0})
		if err != nil {
			t.Fatal(err)
		}
		cfg := protocol.IntRVFL.Config(res.Best.N, res.Best.Lambda, res.Best.Kappa)
		cfg.Regularizer, cfg.ReadoutBits = model.RegIdentity, 5
		r := &Result{Format: FormatVersion, Command: "search", Data: DescribeData("det.csv", []byte(text), d),
			Validation: DescribeValidation(v, []uint64{0}), Search: DescribeSearch("test", res), Config: DescribeConfig(cfg), Validated: acc}
		b, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b := doc(), doc()
	if !bytes.Equal(a, b) {
		t.Fatalf("two runs differ:\n%s\n%s", a, b)
	}
	for _, key := range []string{`"format": "hdlgen-tuning/1"`, `"arch": "intrvfl"`, `"bits": 5`, `"regularizer": "identity"`, `"method": "holdout 0.3"`, `"sha256": "`} {
		if !bytes.Contains(a, []byte(key)) {
			t.Errorf("document lacks %s:\n%s", key, a)
		}
	}
}

// TestDescribeConfigKappa: the result document reports κ for every network
// type whose traits have it, and for no other, whatever its name (a κ-bearing
// type other than the intRVFL once searched κ and reported none).
func TestDescribeConfigKappa(t *testing.T) {
	for _, a := range model.Archs() {
		tr, err := model.TraitsOf(a)
		if err != nil {
			t.Fatal(err)
		}
		got := DescribeConfig(model.Config{Arch: a, N: 10, Kappa: 3, Lambda: 1}).Kappa
		want := 0
		if tr.Kappa {
			want = 3
		}
		if got != want {
			t.Errorf("%s: κ %d in the result, want %d (Traits.Kappa %v)", a, got, want, tr.Kappa)
		}
	}
}
