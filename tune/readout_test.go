package tune

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/readout"
	"github.com/hdlgen/hdlgen/ridge"
)

// TestChooseReadoutCountsOnTheSplits: the counts are those of a model
// trained on each split's fitted rows, rounded and GA-refined, predicted on
// its validation rows; the GA is chosen only when strictly better; a test
// file (the held-out rows of a build) changes nothing, even with its labels
// turned around; a store gives the same choice on a rerun without work.
func TestChooseReadoutCountsOnTheSplits(t *testing.T) {
	d := readCSV(t, "blobs", blobsCSV(180, 3, 3, 0.35, 5))
	cfg := model.Config{Arch: model.IntRVFL, N: 40, Kappa: 3, Lambda: 16, Regularizer: model.RegIdentity}
	ga := quant.DefaultGAOptions()
	ga.Seed, ga.Generations, ga.Patience = 0, 60, 20
	const bound = 3
	task, err := NewTask(d, nil, Validation{Folds: 3})
	if err != nil {
		t.Fatal(err)
	}
	task.Store = t.TempDir()
	got, err := task.ChooseReadout(context.Background(), cfg, bound, ga, []uint64{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	rounded, refined := 0, 0
	for _, seed := range []uint64{0, 1} {
		for _, s := range task.Splits {
			fit, val := d.Subset(s.Train), d.Subset(s.Test)
			c := cfg
			c.Seed = seed
			m, err := model.Train(context.Background(), model.Data{X: fit.X, Y: fit.Y, ClassNames: fit.ClassNames}, c)
			if err != nil {
				t.Fatal(err)
			}
			r, g := *m, *m
			if err := r.QuantizeReadout(bound); err != nil {
				t.Fatal(err)
			}
			if _, err := readout.Quantize(context.Background(), &g, &readout.Data{X: fit.X, Rows: fit.M(), Y: fit.Y},
				readout.Options{Bound: bound, Method: readout.GARounded, GA: ga}); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < val.M(); i++ {
				if r.Predict(val.Row(i)) == val.Y[i] {
					rounded++
				}
				if g.Predict(val.Row(i)) == val.Y[i] {
					refined++
				}
			}
		}
	}
	if got.RoundedCorrect != rounded || got.GACorrect != refined || got.ValRows != 2*d.M() {
		t.Errorf("counts rounded %d, GA %d of %d; want %d, %d of %d", got.RoundedCorrect, got.GACorrect, got.ValRows, rounded, refined, 2*d.M())
	}
	want := ReadoutRounded
	if refined > rounded {
		want = ReadoutGA
	}
	if got.Chosen != want {
		t.Errorf("chose %s with rounded %d, GA %d", got.Chosen, rounded, refined)
	}
	t.Logf("rounded %d, GA %d of %d: %s", rounded, refined, got.ValRows, got.Chosen)

	// The held-out rows as a test file, labels turned around: no effect.
	flipped := d.Subset(identityRows(30))
	for i := range flipped.Y {
		flipped.Y[i] = (flipped.Y[i] + 1) % flipped.L()
	}
	withTest, err := NewTask(d, flipped, Validation{Folds: 3})
	if err != nil {
		t.Fatal(err)
	}
	again, err := withTest.ChooseReadout(context.Background(), cfg, bound, ga, []uint64{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, again); diff != "" {
		t.Errorf("a test file changed the choice (-without +with):\n%s", diff)
	}
	var lines int
	task.Progress = func(string, ...any) { lines++ }
	stored, err := task.ChooseReadout(context.Background(), cfg, bound, ga, []uint64{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, stored); diff != "" || lines != 0 {
		t.Errorf("rerun with the store: %d parts scored again, diff:\n%s", lines, diff)
	}
}

// TestLinearBaseline: λ is the one with the most correct validation
// predictions (ties to the larger), the validation accuracy is that λ's on
// each split, and the test accuracy is a fit on all rows scored on the
// test file normalised with the training statistics.
func TestLinearBaseline(t *testing.T) {
	d := readCSV(t, "blobs", blobsCSV(150, 4, 3, 0.3, 6))
	test := readCSV(t, "test", blobsCSV(60, 4, 3, 0.3, 6))
	task, err := NewTask(d, test, Validation{Folds: 3})
	if err != nil {
		t.Fatal(err)
	}
	lambdas := []float64{1.0 / 64, 1, 64}
	got, err := task.Linear(context.Background(), lambdas)
	if err != nil {
		t.Fatal(err)
	}
	solver := ridge.Solver{Reg: ridge.Identity, Threads: 1}
	correct := make([]int, len(lambdas))
	for _, s := range task.Splits {
		for li, l := range lambdas {
			w, _, err := solver.Solve(linearDesign(d, s.Train, s.Train), d.L(), l)
			if err != nil {
				t.Fatal(err)
			}
			va := linearDesign(d, s.Train, s.Test)
			for i, p := range ridge.Predict(va.H, va.Rows, va.Cols, w, d.L(), 1) {
				if p == va.Labels[i] {
					correct[li]++
				}
			}
		}
	}
	best := 0
	for li := range lambdas {
		if correct[li] >= correct[best] {
			best = li
		}
	}
	if got.Lambda != lambdas[best] {
		t.Errorf("λ=%g, want %g (correct %v)", got.Lambda, lambdas[best], correct)
	}
	if want := float64(correct[best]) / float64(d.M()); got.Validated.Mean < want-1e-9 || got.Validated.Mean > want+1e-9 {
		t.Errorf("validation accuracy %.4f, want %.4f", got.Validated.Mean, want)
	}
	all := identityRows(d.M())
	w, _, err := solver.Solve(linearDesign(d, all, all), d.L(), got.Lambda)
	if err != nil {
		t.Fatal(err)
	}
	te := linearDesignOf(test, model.FitNormalizer(d.X, d.M(), d.K()), identityRows(test.M()))
	n := 0
	for i, p := range ridge.Predict(te.H, te.Rows, te.Cols, w, d.L(), 1) {
		if p == test.Y[i] {
			n++
		}
	}
	if got.Tested == nil || got.Tested.Mean != float64(n)/float64(test.M()) {
		t.Errorf("test accuracy %+v, want %d/%d", got.Tested, n, test.M())
	}
	t.Logf("linear λ=%g: validation %.4f, test %.4f", got.Lambda, got.Validated.Mean, got.Tested.Mean)
}

// TestChooseReadoutShowsTheGAsGenerations: between the parts' lines the
// GA's generations are reported with the time left (a part on many rows
// takes minutes), and the choice does not depend on it.
func TestChooseReadoutShowsTheGAsGenerations(t *testing.T) {
	defer func(d time.Duration) { readoutProgressEvery = d }(readoutProgressEvery)
	d := readCSV(t, "blobs", blobsCSV(120, 3, 3, 0.35, 6))
	cfg := model.Config{Arch: model.IntRVFL, N: 30, Kappa: 3, Lambda: 16, Regularizer: model.RegIdentity}
	ga := quant.DefaultGAOptions()
	ga.Seed, ga.Generations, ga.Patience = 0, 40, 40
	var choices []*ReadoutChoice
	for _, tc := range []struct {
		every time.Duration
		want  bool
	}{{0, true}, {time.Hour, false}} {
		readoutProgressEvery = tc.every
		task, err := NewTask(d, nil, Validation{Folds: 2})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var lines []string
		task.Progress = func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			lines = append(lines, fmt.Sprintf(format, args...))
		}
		c, err := task.ChooseReadout(context.Background(), cfg, 3, ga, []uint64{0})
		if err != nil {
			t.Fatal(err)
		}
		choices = append(choices, c)
		got := slices.ContainsFunc(lines, func(l string) bool {
			return strings.Contains(l, "GA generation") && strings.Contains(l, "of at most 80 over 2 parts, about ")
		})
		if got != tc.want {
			t.Errorf("every %v: GA generation lines %v, want %v:\n%s", tc.every, got, tc.want, strings.Join(lines, "\n"))
		}
	}
	if diff := cmp.Diff(choices[0], choices[1]); diff != "" {
		t.Errorf("the choice depends on the progress lines (-every generation +hourly):\n%s", diff)
	}
}
