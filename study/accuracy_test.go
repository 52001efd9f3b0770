package study

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/protocol"
)

var smallGrid = protocol.Grid{Ns: []int{50, 100}, Lambdas: []float64{0.25, 4}, Kappas: []int{1, 3}}

// TestReproducePipelineAndResume runs the whole accuracy study on three small
// datasets of the collection (plus the incomplete miniboone), checks the report,
// and that a second run reuses every stored job.
func TestReproducePipelineAndResume(t *testing.T) {
	dir := collection(t)
	out := t.TempDir()
	var progress bytes.Buffer
	opt := AccuracyOptions{DataDir: dir, OutDir: out, Datasets: []string{"iris", "fertility", "balloons", "miniboone"},
		Grid: smallGrid, Seeds: []uint64{0, 1}, Progress: &progress}
	s, err := RunAccuracy(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != 3*len(protocol.AccuracyNetworks) {
		t.Fatalf("%d results, want %d", len(s.Results), 3*len(protocol.AccuracyNetworks))
	}
	if len(s.Skipped) != 1 || s.Skipped[0].Dataset != "miniboone" || !strings.Contains(s.Skipped[0].Reason, "missing") {
		t.Errorf("skipped = %+v, want miniboone with its reason", s.Skipped)
	}
	sum, err := WriteAccuracyReport(out, s, nil, "test", time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Datasets != 3 || sum.IntVsRVFL == nil {
		t.Fatalf("summary %+v", sum)
	}
	for _, n := range sum.Networks {
		if n.MeanAccuracy < 0.6 || n.MeanAccuracy > 1 {
			t.Errorf("%s: mean accuracy %.3f implausible", n.Network, n.MeanAccuracy)
		}
	}
	tsv, err := os.ReadFile(filepath.Join(out, "accuracy.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(tsv), "\n"); lines != 1+12 {
		t.Errorf("accuracy.tsv has %d lines, want header + 12", lines)
	}
	for _, f := range []string{"summary.json", "summary.md", "fig5-rvfl-vs-intrvfl.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(progress.String(), "ETA") {
		t.Errorf("no progress with ETA on the progress writer: %q", progress.String())
	}

	again, err := RunAccuracy(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Reused != 12 {
		t.Errorf("rerun reused %d jobs, want 12", again.Reused)
	}
	// Another grid is another study: nothing is reused.
	opt.Grid.Lambdas = []float64{1}
	opt.Datasets = []string{"balloons"}
	third, err := RunAccuracy(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if third.Reused != 0 || len(third.Results) != len(protocol.AccuracyNetworks) {
		t.Errorf("changed grid: reused %d of %d", third.Reused, len(third.Results))
	}
}

// TestReproduceInterruptKeepsFinishedWork cancels a run after the first finished
// job and checks that the rerun only does the rest.
func TestReproduceInterruptKeepsFinishedWork(t *testing.T) {
	dir := collection(t)
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	w := &cancelAfter{marker: "] ", cancel: cancel}
	opt := AccuracyOptions{DataDir: dir, OutDir: out, Datasets: []string{"iris", "balloons"}, Grid: smallGrid,
		Seeds: []uint64{0}, Workers: 1, Progress: w}
	s, err := RunAccuracy(ctx, opt)
	if err == nil {
		t.Fatal("canceled run returned no error")
	}
	finished := len(s.Results)
	if finished == 0 || finished >= 8 {
		t.Fatalf("%d jobs finished before the interrupt; want some but not all", finished)
	}
	opt.Progress = nil
	resumed, err := RunAccuracy(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Reused != finished || len(resumed.Results) != 8 {
		t.Errorf("resume reused %d (want %d) and has %d results (want 8)", resumed.Reused, finished, len(resumed.Results))
	}
}

// cancelAfter cancels a context when the first job-finished progress line arrives.
type cancelAfter struct {
	marker string
	cancel func()
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), "[") && strings.Contains(string(p), c.marker) {
		c.cancel()
	}
	return len(p), nil
}
