package study

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/protocol"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
)

// TestRetuneStudy runs the retune stage on the accuracy results of a few
// small datasets and checks what holds by construction: N and κ are kept, the
// retuned λ comes from the grid and never has fewer correct validation
// predictions of the rounded readout than the original λ, the float readout at
// the original λ is the accuracy study's, an unchanged λ gives identical
// accuracies; then the report, and that a rerun reuses every result.
func TestRetuneStudy(t *testing.T) {
	dir := collection(t)
	out := t.TempDir()
	names := []string{"iris", "balloons", "hayes-roth", "tic-tac-toe"} // hayes-roth has a separate test file
	seeds := []uint64{0, 1}
	grid := protocol.Grid{Ns: []int{50, 100}, Lambdas: []float64{1.0 / 64, 0.25, 4, 64, 1024}, Kappas: []int{1, 3}}
	acc, err := RunAccuracy(context.Background(), AccuracyOptions{DataDir: dir, OutDir: out, Datasets: names,
		Networks: []protocol.Network{protocol.IntRVFL}, Grid: grid, Seeds: seeds, Regularizer: model.RegIdentity})
	if err != nil {
		t.Fatal(err)
	}
	accMean := map[string]float64{}
	for _, r := range acc.Results {
		accMean[r.Dataset] = r.Eval.Mean
	}
	opt := RetuneOptions{DataDir: dir, OutDir: out, Datasets: append(slices.Clone(names), "fertility"), Bits: 3, Seeds: seeds}
	s, err := RunRetune(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != len(names) || len(s.Skipped) != 1 || s.Skipped[0].Dataset != "fertility" {
		t.Fatalf("%d results, skipped %+v; want %d and fertility (no accuracy result)", len(s.Results), s.Skipped, len(names))
	}
	changed := 0
	for _, r := range s.Results {
		o, n := r.Original, r.Retuned
		if n.N != o.N || n.Kappa != o.Kappa || !slices.Contains(grid.Lambdas, n.Lambda) {
			t.Errorf("%s: retuned %+v from original %+v", r.Dataset, n, o)
		}
		if r.Bits != 3 || r.Bound != 3 || r.Regularizer != model.RegIdentity {
			t.Errorf("%s: bits %d bound %d penalty %s", r.Dataset, r.Bits, r.Bound, r.Regularizer)
		}
		if n.Correct < r.OriginalRoundedCorrect {
			t.Errorf("%s: retuned λ %g has %d correct validation predictions, the original λ %g %d",
				r.Dataset, n.Lambda, n.Correct, o.Lambda, r.OriginalRoundedCorrect)
		}
		if r.FloatOriginal != accMean[r.Dataset] {
			t.Errorf("%s: float readout %v, the accuracy study's %v", r.Dataset, r.FloatOriginal, accMean[r.Dataset])
		}
		if n.Lambda == o.Lambda {
			if r.FloatRetuned != r.FloatOriginal || r.RoundedRetuned != r.RoundedOriginal || n.Correct != r.OriginalRoundedCorrect {
				t.Errorf("%s: λ unchanged but the results differ: %+v", r.Dataset, r)
			}
		} else {
			changed++
		}
	}
	if changed == 0 {
		t.Errorf("no dataset changed λ for a 3-bit readout; the test does not exercise the second evaluation")
	}
	sum, err := WriteRetuneReport(out, s, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Datasets != len(names) || sum.LambdaChanged != changed || sum.Bound != 3 {
		t.Errorf("summary %+v", sum)
	}
	md, err := os.ReadFile(filepath.Join(out, "retune-summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "3-bit rounded") || !strings.Contains(string(md), "levels −3…3") {
		t.Errorf("retune-summary.md:\n%s", md)
	}
	tsv, err := os.ReadFile(filepath.Join(out, "retune.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(tsv), "\n"); got != len(names)+1 {
		t.Errorf("retune.tsv has %d lines, want %d", got, len(names)+1)
	}
	again, err := RunRetune(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Reused != len(names) {
		t.Errorf("rerun reused %d datasets, want %d", again.Reused, len(names))
	}
	if d := cmp.Diff(s.Results, again.Results); d != "" {
		t.Errorf("reused results differ (-computed +reused):\n%s", d)
	}
}

// TestRetuneGALever: with RetuneOptions.GA the retune stage refines the
// rounded readout at the retuned λ and chooses the refinement exactly when
// it has more correct validation predictions; an unchosen refinement
// leaves the rounded readout's accuracy; results without the lever are not
// reused for it; the report gains the lever's row and columns. The accuracy
// results are the committed wide-grid identity study's.
func TestRetuneGALever(t *testing.T) {
	dir := collection(t)
	out := t.TempDir()
	names := []string{"hayes-roth", "iris", "zoo"}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("..", "results", "uci121-identity-wide", "runs", "intrvfl", n+".result.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(out, "runs", "intrvfl"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, "runs", "intrvfl", n+".result.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt := RetuneOptions{DataDir: dir, OutDir: out, Datasets: names, Seeds: []uint64{0, 1}, TestNorm: protocol.TestNormAuto}
	plain, err := RunRetune(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.GA = true
	s, err := RunRetune(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if s.Reused != 0 || len(s.Results) != len(names) {
		t.Fatalf("GA lever: %d results, %d reused; want %d computed", len(s.Results), s.Reused, len(names))
	}
	chosen := 0
	for i, r := range s.Results {
		p := plain.Results[i]
		if r.Retuned != p.Retuned || r.RoundedRetuned != p.RoundedRetuned {
			t.Errorf("%s: the lever changed the retune itself: %+v vs %+v", r.Dataset, r, p)
		}
		switch {
		case r.GAChosen && r.GACorrect <= r.Retuned.Correct:
			t.Errorf("%s: refinement chosen with %d correct validation predictions, the rounded readout has %d", r.Dataset, r.GACorrect, r.Retuned.Correct)
		case !r.GAChosen && r.Chosen != r.RoundedRetuned:
			t.Errorf("%s: refinement not chosen, but the chosen accuracy %v is not the rounded readout's %v", r.Dataset, r.Chosen, r.RoundedRetuned)
		case r.GAChosen:
			chosen++
		}
	}
	if chosen == 0 || chosen == len(names) {
		t.Errorf("the refinement was chosen on %d of %d datasets; the test should see both outcomes", chosen, len(names))
	}
	sum, err := WriteRetuneReport(out, s, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if sum.GA == nil || sum.GAChosen != chosen || sum.TestNorm != protocol.TestNormAuto {
		t.Errorf("summary: GA %+v, chosen %d (want %d), test norm %q", sum.GA, sum.GAChosen, chosen, sum.TestNorm)
	}
	tsv, err := os.ReadFile(filepath.Join(out, "retune.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tsv), "\tval_ga_correct\tga_chosen\tchosen\t") {
		t.Errorf("retune.tsv header lacks the lever's columns:\n%s", tsv)
	}
}
