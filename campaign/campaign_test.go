package campaign

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
)

func TestDrawDeterministic(t *testing.T) {
	for _, seed := range []uint64{1, 2, 12345} {
		a, b := DrawAll(seed, 40), DrawAll(seed, 40)
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("seed %d: two draws differ (-first +second):\n%s", seed, diff)
		}
		// Design i depends on (seed, i) only: a shorter campaign is a prefix.
		if diff := cmp.Diff(a[:3], DrawAll(seed, 3)); diff != "" {
			t.Errorf("seed %d: the first 3 of 40 differ from a campaign of 3:\n%s", seed, diff)
		}
		if diff := cmp.Diff(a[17], Draw(seed, 17)); diff != "" {
			t.Errorf("seed %d: design 17 alone differs:\n%s", seed, diff)
		}
	}
	same := 0
	x, y := DrawAll(1, 40), DrawAll(2, 40)
	for i := range x {
		x[i].Seed, x[i].Index, y[i].Seed, y[i].Index = 0, 0, 0, 0
		if x[i] == y[i] {
			same++
		}
	}
	if same > 0 {
		t.Errorf("seeds 1 and 2 drew %d identical designs of 40", same)
	}
}

// TestDrawLegal draws 20 seeds × 100 designs: every one has a plan, stays in
// the documented bounds, and the extremes the campaign promises all occur;
// the first 10 of each seed are generated in full (rtl.Generate, 2 vectors).
func TestDrawLegal(t *testing.T) {
	seen := map[string]int{}
	for seed := uint64(1); seed <= 20; seed++ {
		for i := 0; i < 100; i++ {
			d := Draw(seed, i)
			pl, err := d.Plan()
			if err != nil {
				t.Fatalf("seed %d design %d (%s %s): %v", seed, i, d.Shape, d.OptionString(), err)
			}
			s := d.Shape
			if s.K < 1 || s.K > MaxK || s.N < 1 || s.N > MaxN || s.N*s.K > max(MaxNK, 4*s.K) || s.L < 2 || s.L > MaxL ||
				d.Parallel < 1 || d.Parallel > s.N || (d.Parallel > MaxP && d.Parallel != s.N) {
				t.Errorf("seed %d design %d: %s %s outside the bounds", seed, i, s, d.OptionString())
			}
			if s.Arch != model.IntRVFL && s.Win != model.WinStored {
				t.Errorf("seed %d design %d: %s with a W_in generator", seed, i, s)
			}
			if d.Axis && !pl.AxisOK {
				t.Errorf("seed %d design %d: axis on a design without AxisOK", seed, i)
			}
			if d.HoldInput && d.System != "" {
				t.Errorf("seed %d design %d: %s: --hold-input with a system top", seed, i, d.OptionString())
			}
			if (d.ReloadableReadout || d.NoScores) && d.System == "" {
				t.Errorf("seed %d design %d: %s without a system top", seed, i, d.OptionString())
			}
			if i < 10 {
				if _, _, err := rtl.Generate(context.Background(), d.Model(), d.EmitOptions(2)); err != nil {
					t.Errorf("seed %d design %d (%s %s): generate: %v", seed, i, s, d.OptionString(), err)
				}
			}
			for name, ok := range map[string]bool{
				"intrvfl": s.Arch == model.IntRVFL, "rvfl8": s.Arch == model.RVFL8,
				"odd K > 1": s.K%2 == 1 && s.K > 1, "K = 1": s.K == 1, "N ≤ 4": s.N <= 4,
				"P = 1": d.Parallel == 1, "P = N > 1": d.Parallel == s.N && d.Parallel > 1, "P ∤ N": s.N%d.Parallel != 0,
				"L = 2": s.L == 2, "L = max": s.L == MaxL,
				"κ = 1": s.Arch == model.IntRVFL && s.Kappa == 1, "κ = max": s.Kappa == LargeKappa,
				"bits 2": s.Arch == model.IntRVFL && s.Bits == 2, "bits 16": s.Bits == 16,
				"axis": d.Axis, "system": d.System != "", "reloadable": d.ReloadableReadout, "no scores": d.NoScores,
				"ready 1": d.Ready == 1, "adder levels 1": d.AdderLevelsPerStage == 1, "argmax levels 1": d.ArgmaxLevelsPerStage == 1,
				"default levels": d.AdderLevelsPerStage == 0 && d.ArgmaxLevelsPerStage == 0,
				"W_in generator": s.Win == model.WinPRBS31, "stored W_in intrvfl": s.Arch == model.IntRVFL && s.Win == model.WinStored,
				"hold input": d.HoldInput, "register sums": d.RegisterSums, "block ROMs": d.ROMStyle != "",
				"all three lean options": d.HoldInput && d.RegisterSums && d.ROMStyle != "",
				"rvfl8 lean":             s.Arch == model.RVFL8 && d.HoldInput && d.RegisterSums,
			} {
				if ok {
					seen[name]++
				} else {
					seen[name] += 0
				}
			}
		}
	}
	for name, n := range seen {
		if n == 0 {
			t.Errorf("no drawn design has %s", name)
		}
	}
}

// writeFakeRecords records designs 0…n−1 of seed as passed without running them.
func writeFakeRecords(t *testing.T, c Config, n int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(c.Out, "designs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		r := &Record{Design: Draw(c.Seed, i), Vectors: c.Vectors, GateLevel: c.GateLevel(i), Passed: true,
			Steps: []StepRecord{{Name: "model", Passed: true, Vectors: c.Vectors}}, Seconds: 1}
		if err := writeRecord(recordPath(c.Out, i), r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestResumeKeepsRecords: a campaign whose designs are all recorded runs
// nothing (no tools needed), leaves the records byte for byte and writes the
// reports from them; a record of another vector count is not reused.
func TestResumeKeepsRecords(t *testing.T) {
	c := Config{Designs: 3, Vectors: 7, Seed: 9, Out: t.TempDir(), GateLevelEvery: 2, Command: "test"}
	writeFakeRecords(t, c, 3)
	before, err := os.ReadFile(recordPath(c.Out, 1))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	c.Progress = &log
	sum, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Passed != 3 || sum.Failed != 0 || sum.Missing != 0 {
		t.Errorf("summary: %d passed, %d failed, %d missing; want 3, 0, 0", sum.Passed, sum.Failed, sum.Missing)
	}
	if !strings.Contains(log.String(), "3 recorded already, 0 to run") {
		t.Errorf("progress %q: want 3 recorded already, 0 to run", log.String())
	}
	after, err := os.ReadFile(recordPath(c.Out, 1))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(before), string(after)); diff != "" {
		t.Errorf("record 1 changed:\n%s", diff)
	}
	tsv, err := os.ReadFile(filepath.Join(c.Out, "results.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(tsv)), "\n"); len(lines) != 4 || lines[0] != TSVHeader {
		t.Errorf("results.tsv has %d lines (want a header and 3 rows):\n%s", len(lines), tsv)
	}
	// Another draw (seed) or vector count does not match the records.
	for _, other := range []Config{{Seed: 10, Vectors: 7}, {Seed: 9, Vectors: 8}} {
		d := Draw(other.Seed, 0)
		r, err := readRecord(recordPath(c.Out, 0))
		if err != nil {
			t.Fatal(err)
		}
		other.Designs, other.GateLevelEvery = 3, 2
		if r.matches(d, other) {
			t.Errorf("record of seed 9, 7 vectors matches seed %d, %d vectors", other.Seed, other.Vectors)
		}
	}
	if sum, err := Collect(c.Out, 10, 3); err != nil || sum.Missing != 3 {
		t.Errorf("Collect for seed 10: %+v, %v; want 3 missing", sum, err)
	}
}

// TestRunEndToEnd runs a 2-design campaign (design 0 first alone, then the
// rest: a partial run resumed) with both simulators, and checks the records,
// the reports and that the work directories are gone. Seed 25's designs 0
// and 1 (an intRVFL with K = 1, N = 4 and an rvfl8 with K = 11, N = 2, stream
// tops only: `hdlgen campaign --designs 2 --seed 25 --list`) are two
// Verilator builds; seed 1's (two rvfl8 with the AXI4-Stream and system tops)
// were six, 152 s of the cold run in results/tests/cold.md. The committed
// campaign verifies the other tops.
func TestRunEndToEnd(t *testing.T) {
	hwtest.Require(t, hwtest.Verilator, hwtest.Icarus)
	work := t.TempDir()
	c := Config{Designs: 2, Vectors: 30, Seed: 25, Out: t.TempDir(), WorkDir: work, Command: "test"}
	first := c
	first.Only = []int{0}
	sum, err := Run(context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Passed != 1 || sum.Missing != 1 {
		t.Fatalf("partial run: %d passed, %d missing; want 1, 1:\n%+v", sum.Passed, sum.Missing, sum.Records)
	}
	rec0, err := os.ReadFile(recordPath(c.Out, 0))
	if err != nil {
		t.Fatal(err)
	}
	sum, err = Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Passed != 2 || sum.Failed != 0 || sum.Mismatches != 0 || sum.Missing != 0 {
		t.Errorf("%d passed, %d failed, %d mismatches, %d missing; want 2, 0, 0, 0", sum.Passed, sum.Failed, sum.Mismatches, sum.Missing)
	}
	again, err := os.ReadFile(recordPath(c.Out, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rec0, again) {
		t.Errorf("the resumed campaign ran design 0 again")
	}
	for _, r := range sum.Records {
		sims := 0
		for _, s := range r.Steps {
			if !s.Passed {
				t.Errorf("%s: step %s failed", r.Design.Name(), s.Name)
			}
			if strings.HasPrefix(s.Name, "verilator/") || strings.HasPrefix(s.Name, "icarus/") {
				sims++
				// The system top's script classifies every test vector and
				// then repeats a few in its flush segment (rtl/sysvectors.go).
				system := strings.HasSuffix(s.Name, "/system")
				if s.Vectors != c.Vectors && !(system && s.Vectors > c.Vectors) {
					t.Errorf("%s: %s checked %d vectors, want %d", r.Design.Name(), s.Name, s.Vectors, c.Vectors)
				}
			}
		}
		if sims < 2 {
			t.Errorf("%s: %d simulation steps, want both simulators", r.Design.Name(), sims)
		}
	}
	summary, err := os.ReadFile(filepath.Join(c.Out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(summary), "**0 mismatches**") {
		t.Errorf("summary.md lacks the 0-mismatch statement:\n%s", summary)
	}
	if left, _ := filepath.Glob(filepath.Join(work, "*")); len(left) != 0 {
		t.Errorf("work directories left behind: %v", left)
	}
}

// TestDrawMatchesCommittedCampaign: the committed campaign's records (seed 1,
// 300 designs) are the designs Draw gives today, so the campaign resumes
// them instead of starting over.
func TestDrawMatchesCommittedCampaign(t *testing.T) {
	recs, err := filepath.Glob(filepath.Join("..", "results", "campaign", "designs", "d*.json"))
	if err != nil || len(recs) == 0 {
		t.Fatalf("no committed records: %v", err)
	}
	for _, p := range recs {
		r, err := readRecord(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := Draw(r.Design.Seed, r.Design.Index); r.Design != want {
			t.Errorf("%s: committed %+v, drawn %+v", p, r.Design, want)
		}
	}
}

// TestSelectsNetworks: --network keeps the draw (design i is Draw(S, i)
// whatever the filter) and runs the drawn designs of the networks given; with
// --only both must hold. The expected indices are seed 1's draw (hdlgen
// campaign --designs 20 --seed 1 --list).
func TestSelectsNetworks(t *testing.T) {
	tests := []struct {
		name     string
		only     []int
		networks []string
		want     []int
	}{
		{"all", nil, nil, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}},
		{"intrvfl2", nil, []string{"intrvfl2"}, []int{2, 4, 18}},
		{"conj", nil, []string{"conj"}, []int{7, 13, 15, 16}},
		{"intconj", nil, []string{"intconj"}, []int{8, 10, 12, 14}},
		{"rvfl8 and intrvfl", nil, []string{"rvfl8", "intrvfl"}, []int{0, 1, 3, 5, 6, 9, 11, 17, 19}},
		{"intrvfl2 among --only", []int{0, 2, 3, 4, 5}, []string{"intrvfl2"}, []int{2, 4}},
		{"no such design", []int{0, 1}, []string{"intrvfl2"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{Designs: 20, Seed: 1, Only: tc.only, Networks: tc.networks}
			var got []int
			for _, d := range DrawAll(c.Seed, c.Designs) {
				if c.Selects(d) {
					got = append(got, d.Index)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("selected designs (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunStopsWithoutTools: on a machine without the simulators the campaign
// stops before its first design, naming the tools and their packages, and
// records nothing (before, every design was recorded as failed).
func TestRunStopsWithoutTools(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	c := Config{Designs: 3, Vectors: 5, Seed: 1, Out: t.TempDir(), WorkDir: t.TempDir(), Command: "test"}
	_, err := Run(context.Background(), c)
	if err == nil || !strings.Contains(err.Error(), "verilator") || !strings.Contains(err.Error(), "apt-get install") {
		t.Fatalf("Run without tools: err %v, want one naming verilator and its package", err)
	}
	recs, err := filepath.Glob(filepath.Join(c.Out, "designs", "*.json"))
	if err != nil || len(recs) != 0 {
		t.Errorf("records written without tools: %v (%v)", recs, err)
	}
}

// TestRunNetworkFilter: a campaign restricted to intrvfl2 whose intrvfl2
// designs are all recorded runs nothing (no tools needed), although the other
// networks' designs have no record; the reports count those as not yet run.
func TestRunNetworkFilter(t *testing.T) {
	c := Config{Designs: 20, Vectors: 5, Seed: 1, Out: t.TempDir(), Command: "test", Networks: []string{"intrvfl2"}}
	if err := os.MkdirAll(filepath.Join(c.Out, "designs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range DrawAll(c.Seed, c.Designs) {
		if d.Shape.Arch != model.IntRVFL2 {
			continue
		}
		r := &Record{Design: d, Vectors: c.Vectors, Passed: true,
			Steps: []StepRecord{{Name: "model", Passed: true, Vectors: c.Vectors}}, Seconds: 1}
		if err := writeRecord(recordPath(c.Out, d.Index), r); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	c.Progress = &log
	sum, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "3 recorded already, 0 to run") {
		t.Errorf("progress %q: want 3 recorded already, 0 to run", log.String())
	}
	if sum.Passed != 3 || sum.Missing != 17 {
		t.Errorf("summary: %d passed, %d not yet run; want 3 and 17", sum.Passed, sum.Missing)
	}
}
