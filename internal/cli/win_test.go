package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/study"
	"github.com/hdlgen/hdlgen/tune"
)

// TestWinFlag: --win lfsr reaches every command that creates an intRVFL and
// is recorded where each writes its result (model.json, design.json, the CSV
// result documents, reproduce's stored jobs); a stored-W_in job is not
// reused by an lfsr run; the rvfl networks and bad values are usage errors.
func TestWinFlag(t *testing.T) {
	dir := t.TempDir()
	lfsr := []string{"--win", "lfsr"}

	m := filepath.Join(dir, "m.json")
	if code, _, errs := run(t, append([]string{"train", "--data", "example:iris", "--n", "20", "--bits", "5", "-o", m}, lfsr...)...); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	mod, err := model.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	if in := mod.Net.(*model.IntNet); in.Gen != model.WinPRBS31 || in.PRBSSeed != model.PRBSSeed(mod.Seed) {
		t.Errorf("model.json W_in source %q seed %d, want prbs31 from seed %d", in.Gen, in.PRBSSeed, mod.Seed)
	}
	hw := filepath.Join(dir, "hw")
	if code, _, errs := run(t, "emit", m, "-o", hw, "--parallel", "3", "--vectors", "20"); code != 0 {
		t.Fatalf("emit: exit %d: %s", code, errs)
	}
	var pl plan.Plan
	b, err := os.ReadFile(filepath.Join(hw, "design.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pl); err != nil {
		t.Fatal(err)
	}
	if pl.WinGenerator != model.WinPRBS31 || pl.HasROM(plan.ROMWin) || pl.WinWindow != 31 {
		t.Errorf("design.json: generator %q, W_in ROM %v, window %d; want prbs31, no ROM, 31", pl.WinGenerator, pl.HasROM(plan.ROMWin), pl.WinWindow)
	}

	csv := noisyCSV(t, dir, "d.csv", 120, 4, 0.1, 1)
	for _, args := range [][]string{
		{"search", "--data", csv, "--grid", "small", "--json"},
		{"eval", "--data", csv, "--n", "50", "--lambda", "1", "--seeds", "1", "--json"},
	} {
		code, out, errs := run(t, append(args, lfsr...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r tune.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if r.Config.Win != "lfsr" {
			t.Errorf("%s: config W_in %q, want lfsr", args[0], r.Config.Win)
		}
	}

	data := synthCollection(t, studySets[:1])
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"reproduce", "--data", data, "--out", out, "--grid", "small", "--seeds", "1", "--stages", "accuracy", "--networks", "intrvfl"}
	if code, _, errs := run(t, args...); code != 0 {
		t.Fatalf("stored run: exit %d: %s", code, errs)
	}
	code, _, errs := run(t, append(args, lfsr...)...)
	if code != 0 || !strings.Contains(errs, "1 jobs to run, 0 reused") {
		t.Fatalf("lfsr run: exit %d, want the stored job not reused: %s", code, errs)
	}
	var r study.RunResult
	if b, err = os.ReadFile(filepath.Join(out, "runs", "intrvfl", "alpha.result.json")); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Win != model.WinPRBS31 || r.Search.Win != model.WinPRBS31 {
		t.Errorf("stored job W_in %q, search %q: want prbs31", r.Win, r.Search.Win)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--data", "example:iris", "--n", "10", "--arch", "rvfl8", "--win", "lfsr", "-o", m}, "intrvfl only"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--win", "rom", "-o", m}, `unknown W_in source "rom"`},
		{[]string{"search", "--data", csv, "--arch", "rvfl", "--win", "lfsr"}, "intrvfl only"},
		{[]string{"eval", "--data", csv, "--n", "10", "--arch", "rvfl8", "--win", "lfsr"}, "intrvfl only"},
		{[]string{"reproduce", "--data", data, "--win", "lfsr", "--stages", "accuracy"}, "give --networks intrvfl"},
		{[]string{"reproduce", "--data", data, "--win", "lfsr", "--networks", "intrvfl"}, "accuracy stage only"},
		{[]string{"build", "--data", csv, "-o", filepath.Join(dir, "b"), "--win", "prbs7"}, `unknown W_in source "prbs7"`},
	} {
		code, _, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
}
