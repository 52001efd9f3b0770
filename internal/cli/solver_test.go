package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/study"
	"github.com/hdlgen/hdlgen/tune"
)

// TestSolverFlag: --solver pinv-cutoff reaches every command that trains
// and is recorded where each writes its result (model.json, the CSV result
// documents, eval --json, reproduce's stored jobs); a stored exact job is
// not reused by a pinv-cutoff run; bad values are usage errors.
func TestSolverFlag(t *testing.T) {
	dir := t.TempDir()
	pinv := []string{"--solver", "pinv-cutoff"}

	m := filepath.Join(dir, "m.json")
	if code, _, errs := run(t, append([]string{"train", "--data", "example:iris", "--arch", "rvfl", "--n", "200", "--lambda", "0.001", "-o", m}, pinv...)...); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	mod, err := model.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	if tr := mod.Training; tr.Method != "pinv-cutoff" || tr.RTol != 200*0x1p-23 || tr.PinvDropped == 0 {
		t.Errorf("model.json training %+v: want pinv-cutoff, rtol 200·2⁻²³ and dropped singular values", tr)
	}

	csv := noisyCSV(t, dir, "d.csv", 120, 4, 0.1, 1)
	for _, args := range [][]string{
		{"search", "--data", csv, "--grid", "small", "--json", "--pinv-rtol", "1e-4"},
		{"eval", "--data", csv, "--n", "50", "--lambda", "1", "--seeds", "1", "--json", "--pinv-rtol", "1e-4"},
	} {
		code, out, errs := run(t, append(args, pinv...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r tune.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if want := (model.Solver{Method: "pinv-cutoff", RTol: 1e-4}); r.Config.Solver != want {
			t.Errorf("%s: config solver %+v, want %+v", args[0], r.Config.Solver, want)
		}
	}

	data := synthCollection(t, studySets[:1])
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"reproduce", "--data", data, "--out", out, "--grid", "small", "--seeds", "1", "--stages", "accuracy", "--networks", "rvfl"}
	if code, _, errs := run(t, args...); code != 0 {
		t.Fatalf("exact run: exit %d: %s", code, errs)
	}
	code, _, errs := run(t, append(args, pinv...)...)
	if code != 0 || !strings.Contains(errs, "1 jobs to run, 0 reused") {
		t.Fatalf("pinv-cutoff run: exit %d, want the exact job not reused: %s", code, errs)
	}
	var r study.RunResult
	b, err := os.ReadFile(filepath.Join(out, "runs", "rvfl", "alpha.result.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Solver.Method != "pinv-cutoff" || r.Search.Solver.Method != "pinv-cutoff" {
		t.Errorf("stored job solver %+v, search %+v: want pinv-cutoff", r.Solver, r.Search.Solver)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--data", "example:iris", "--n", "10", "--solver", "cholesky", "-o", m}, `unknown solver "cholesky"`},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--pinv-rtol", "0.001", "-o", m}, "given with the exact solver"},
		{[]string{"search", "--data", csv, "--solver", "pinv-cutoff", "--pinv-rtol", "-1"}, "want a finite value ≥ 0"},
		{[]string{"eval", "--data", csv, "--n", "10", "--solver", "svd"}, `unknown solver "svd"`},
		{[]string{"reproduce", "--data", data, "--solver", "pinv-cutoff"}, "an option of the accuracy stage only"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
}
