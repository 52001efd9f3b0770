package study

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/protocol"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

func TestReadoutStudy(t *testing.T) {
	dir := collection(t)
	out := t.TempDir()
	names := []string{"iris", "balloons", "hayes-roth"} // hayes-roth has a separate test file
	if _, err := RunAccuracy(context.Background(), AccuracyOptions{DataDir: dir, OutDir: out, Datasets: names,
		Networks: []protocol.Network{protocol.IntRVFL}, Grid: smallGrid, Seeds: []uint64{0}}); err != nil {
		t.Fatal(err)
	}
	ga := StudyGAOptions()
	ga.Generations, ga.Patience = 40, 20
	opt := ReadoutOptions{DataDir: dir, OutDir: out, Datasets: append(names, "fertility"), Bounds: []int{1, 2, 15},
		Seeds: []uint64{0, 1}, GASeeds: []uint64{0}, GA: ga}
	s, err := RunReadout(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != 3 || len(s.Skipped) != 1 || s.Skipped[0].Dataset != "fertility" {
		t.Fatalf("%d results, skipped %+v; want 3 and fertility (no accuracy result)", len(s.Results), s.Skipped)
	}
	for _, r := range s.Results {
		if r.Float < 0.5 || r.Round[2] < r.Float-0.1 {
			t.Errorf("%s: float %.3f, B=15 rounded %.3f", r.Dataset, r.Float, r.Round[2])
		}
		for bi := range r.Bounds {
			for _, v := range []float64{r.Round[bi], r.GARounded[bi], r.GARandom[bi]} {
				if v < 0 || v > 1 {
					t.Fatalf("%s: accuracy %v outside [0,1]", r.Dataset, v)
				}
			}
		}
	}
	sum, err := WriteReadoutReport(out, s, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Datasets != 3 || len(sum.Round) != 3 {
		t.Errorf("summary %+v", sum)
	}
	for _, f := range []string{"readout.tsv", "readout-summary.json", "readout-summary.md", "fig6-readout.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	again, err := RunReadout(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Reused != 3 {
		t.Errorf("rerun reused %d datasets, want 3", again.Reused)
	}
}

// TestReadoutUsesTheAccuracyStudysRegularizer: the float readout of the readout
// study is the accuracy study's model, trained with the same ridge penalty, so
// its accuracy equals the accuracy study's and differs from the other penalty's.
func TestReadoutUsesTheAccuracyStudysRegularizer(t *testing.T) {
	dir := collection(t)
	out := t.TempDir()
	names := []string{"wine"}
	seeds := []uint64{0, 1}
	acc, err := RunAccuracy(context.Background(), AccuracyOptions{DataDir: dir, OutDir: out, Datasets: names,
		Networks: []protocol.Network{protocol.IntRVFL}, Grid: smallGrid, Seeds: seeds, Regularizer: model.RegIdentity})
	if err != nil {
		t.Fatal(err)
	}
	stored := acc.Results[0]
	if stored.Reg() != model.RegIdentity {
		t.Fatalf("stored accuracy result has regulariser %q, want identity", stored.Reg())
	}
	ga := StudyGAOptions()
	ga.Generations, ga.Patience = 2, 1
	s, err := RunReadout(context.Background(), ReadoutOptions{DataDir: dir, OutDir: out, Datasets: names,
		Bounds: []int{15}, Seeds: seeds, GASeeds: []uint64{0}, GA: ga})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Results[0]
	if r.Regularizer != model.RegIdentity {
		t.Errorf("readout result regulariser %q, want identity", r.Regularizer)
	}
	if math.Abs(r.Float-stored.Eval.Mean) > 1e-12 {
		t.Errorf("readout study float accuracy %.6f, accuracy study %.6f: not the same model", r.Float, stored.Eval.Mean)
	}
	u, err := dataset.LoadUCI(dir, names[0])
	if err != nil {
		t.Fatal(err)
	}
	b := stored.Search.Best
	other, err := protocol.Evaluate(context.Background(), u, protocol.IntRVFL.Config(b.N, b.Lambda, b.Kappa), protocol.EvalOptions{Seeds: seeds})
	if err != nil {
		t.Fatal(err)
	}
	if other.Mean == stored.Eval.Mean {
		t.Fatalf("variance and identity penalties give the same accuracy %.6f: the test cannot tell them apart", other.Mean)
	}
}

// TestReadoutWithoutGA: float and rounded readouts only; the GA fields are
// absent (not zero) in the results and the report, and the fingerprint keeps
// such results apart from a GA study's.
func TestReadoutWithoutGA(t *testing.T) {
	dir := collection(t)
	out := t.TempDir()
	names := []string{"iris", "balloons"}
	if _, err := RunAccuracy(context.Background(), AccuracyOptions{DataDir: dir, OutDir: out, Datasets: names,
		Networks: []protocol.Network{protocol.IntRVFL}, Grid: smallGrid, Seeds: []uint64{0}}); err != nil {
		t.Fatal(err)
	}
	opt := ReadoutOptions{DataDir: dir, OutDir: out, Datasets: names, Bounds: []int{1, 15}, Seeds: []uint64{0}, NoGA: true}
	s, err := RunReadout(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Results {
		if r.GARounded != nil || r.GARandom != nil || r.RoundGA != nil || r.GASeconds != 0 {
			t.Errorf("%s: GA fields set without the GA: %+v", r.Dataset, r)
		}
		if len(r.Round) != 2 || r.Float < 0.5 {
			t.Errorf("%s: float %.3f, rounded %v", r.Dataset, r.Float, r.Round)
		}
	}
	if _, err := WriteReadoutReport(out, s, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile(filepath.Join(out, "readout-summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(js), "ga_rounded") {
		t.Errorf("readout-summary.json has GA fields without the GA:\n%s", js)
	}
	md, err := os.ReadFile(filepath.Join(out, "readout-summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "no GA") || strings.Contains(string(md), "GA from rounded") {
		t.Errorf("readout-summary.md does not describe a study without the GA:\n%s", md)
	}
	opt.NoGA = false
	opt.GASeeds = []uint64{0}
	opt.GA = StudyGAOptions()
	opt.GA.Generations, opt.GA.Patience = 2, 1
	withGA, err := RunReadout(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if withGA.Reused != 0 {
		t.Errorf("a GA study reused %d results of the study without the GA", withGA.Reused)
	}
	// The other way round works: a GA result holds everything a study
	// without the GA computes, so that study reuses it, GA fields dropped.
	opt.NoGA = true
	again, err := RunReadout(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Reused != len(names) {
		t.Errorf("a study without the GA reused %d of %d GA results", again.Reused, len(names))
	}
	strip := func(rs []*ReadoutResult) []ReadoutResult {
		var out []ReadoutResult
		for _, r := range rs {
			c := *r
			c.Fingerprint, c.Seconds, c.GASeconds, c.GARows = "", 0, 0, 0
			out = append(out, c)
		}
		return out
	}
	if d := cmp.Diff(strip(s.Results), strip(again.Results)); d != "" {
		t.Errorf("reused GA results differ from the study without the GA (-computed +reused):\n%s", d)
	}
}
