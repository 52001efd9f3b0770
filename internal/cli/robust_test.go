package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/model"
)

// fixture trains the iris models the tests below use: float (f.json) and
// with a 5-bit readout (q.json), and emits q.json to hw/.
type fixture struct{ dir, float, quant, hw, csv string }

func newFixture(t *testing.T) fixture {
	t.Helper()
	dir := t.TempDir()
	f := fixture{dir: dir, float: filepath.Join(dir, "f.json"), quant: filepath.Join(dir, "q.json"),
		hw: filepath.Join(dir, "hw"), csv: filepath.Join(dir, "iris.csv")}
	for _, args := range [][]string{
		{"train", "--data", "example:iris", "--n", "20", "--regularizer", "identity", "-o", f.float},
		{"quantize", f.float, "--bits", "5", "-o", f.quant},
		{"emit", f.quant, "-o", f.hw, "--vectors", "20"},
	} {
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	csv := "sepal_length,sepal_width,petal_length,petal_width,class\n5.1,3.5,1.4,0.2,setosa\n6.3,3.3,6.0,2.5,virginica\n"
	if err := os.WriteFile(f.csv, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestOutOfRangeFlags: every flag value outside its documented range is a
// usage error (exit 2) naming the range, before any output (issue 10, items
// 3 and 8: these used to become defaults, run out of memory, or fail late).
func TestOutOfRangeFlags(t *testing.T) {
	f := newFixture(t)
	out := filepath.Join(f.dir, "out.json")
	hw := filepath.Join(f.dir, "hw2")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"train", "--data", "example:iris", "--n", "100000000", "-o", out}, "--n 100000000 outside [1, 1048576]"},
		{[]string{"train", "--data", "example:iris", "--n", "2000000", "-o", out}, "--n 2000000 outside [1, 1048576]"},
		{[]string{"train", "--data", "example:iris", "--n", "-5", "-o", out}, "--n -5 outside [1, 1048576]"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--workers", "0", "-o", out}, "--workers 0 outside [1, 256]"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--workers", "-1", "-o", out}, "--workers -1 outside [1, 256]"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--kappa", "0", "-o", out}, "--kappa 0 outside [1, 32768]"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--kappa", "40000", "-o", out}, "--kappa 40000 outside [1, 32768]"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--lambda", "0", "-o", out}, "--lambda 0: want a finite value > 0"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--lambda", "NaN", "-o", out}, "--lambda NaN: want a finite value > 0"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--bits", "17", "-o", out}, "--bits 17 outside [2, 16]"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--arch", "rvfl", "--bits", "5", "-o", out}, "--bits applies to --arch " + model.Alternatives(model.ArchsWith(model.Traits.ReadoutBits))},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--direct-links", "-o", out}, "apply to --arch rvfl"},
		{[]string{"quantize", f.float, "--bound", "0", "-o", out}, "--bound 0 outside [1, 32767]"},
		{[]string{"quantize", f.float, "--bits", "3", "--bound", "100", "-o", out}, "--bits 3 and --bound 100 both given"},
		{[]string{"quantize", f.float, "--bits", "1", "-o", out}, "--bits 1 outside [2, 16]"},
		{[]string{"quantize", f.float, "--ga", "rounded", "--data", "example:iris", "--population", "-3", "-o", out}, "--population -3 outside [2, 65536]"},
		{[]string{"quantize", f.float, "--ga", "rounded", "--data", "example:iris", "--population", "1", "-o", out}, "--population 1 outside [2, 65536]"},
		{[]string{"quantize", f.float, "--ga", "rounded", "--data", "example:iris", "--generations", "-1", "-o", out}, "--generations -1 outside [0, 1073741824]"},
		{[]string{"quantize", f.float, "--ga", "rounded", "--data", "example:iris", "--patience", "-1", "-o", out}, "--patience -1 outside [0, 1073741824]"},
		{[]string{"quantize", f.float, "--generations", "10", "-o", out}, "--generations applies to the GA"},
		{[]string{"quantize", f.float, "--ga", "best", "-o", out}, `--ga "best": want none, rounded or random`},
		{[]string{"emit", f.quant, "--ready", "0", "-o", hw}, "--ready 0 outside (0, 1]"},
		{[]string{"emit", f.quant, "--ready", "1.5", "-o", hw}, "--ready 1.5 outside (0, 1]"},
		{[]string{"emit", f.quant, "--rom-style", "distributed", "-o", hw}, `--rom-style "distributed": want auto, block`},
		{[]string{"emit", f.quant, "--hold-input", "--system", "zynq", "-o", hw}, "--hold-input is for the stream and AXI4-Stream tops; --system zynq keeps the input register"},
		{[]string{"emit", f.quant, "--vectors", "0", "-o", hw}, "--vectors 0 outside [1, 1000000]"},
		{[]string{"emit", f.quant, "--vectors", "1000000000", "-o", hw}, "--vectors 1000000000 outside [1, 1000000]"},
		{[]string{"emit", f.quant, "--parallel", "0", "-o", hw}, "--parallel 0 outside [1, 20]"},
		{[]string{"emit", f.quant, "--parallel", "21", "-o", hw}, "--parallel 21 outside [1, 20]"},
		{[]string{"sim", f.quant, "--input", f.csv, "--parallel", "0"}, "--parallel 0 outside [1, 20]"},
		{[]string{"size", "--budget", "3uJ", "--features", "16", "--classes", "4", "--max-n", "2000000"}, "--max-n 2000000 outside [1, 1048576]"},
		{[]string{"size", "--budget", "3uJ", "--features", "70000", "--classes", "4"}, "--features 70000 outside [1, 65536]"},
		{[]string{"power", f.quant, "--parallel", "0"}, "--parallel 0: want 1 ≤ P ≤ N"},
		{[]string{"demo", "--out", hw, "--n", "0"}, "--n 0 outside [1, 4096]"},
		{[]string{"demo", "--out", hw, "--parallel", "0"}, "--parallel 0 outside [1, 50]"},
		{[]string{"demo", "--out", hw, "--bits", "40"}, "--bits 40 outside [2, 16]"},
		// Issue 36, item 2: no value silently means the default.
		{[]string{"build", "--data", "example:iris", "-o", hw, "--vectors", "0"}, "--vectors 0 outside [1, 1000000]"},
		{[]string{"build", "--data", "example:iris", "-o", hw, "--workers", "0"}, "--workers 0 outside [1, 256]"},
		{[]string{"build", "--data", "example:iris", "-o", hw, "--folds", "0"}, "--folds 0 outside [2, 1000]"},
		{[]string{"build", "--data", "example:iris", "-o", hw, "--latency-us", "NaN"}, "--latency-us NaN: want a finite value ≥ 0"},
		{[]string{"build", "--data", "example:iris", "-o", hw, "--latency-us", "-1"}, "--latency-us -1: want a finite value ≥ 0"},
		{[]string{"build", "--data", "example:iris", "-o", hw, "--extend-n", "-1"}, "--extend-n -1 outside [0, 1048576]"},
		{[]string{"build", "--data", "example:iris", "-o", hw, "--max-luts", "-1"}, "--max-luts -1 outside [0, 2147483647]"},
		{[]string{"reproduce", "--data", f.dir, "--out", hw, "--workers", "0"}, "--workers 0 outside [1, 256]"},
		{[]string{"reproduce", "--data", f.dir, "--out", hw, "--workers", "-3"}, "--workers -3 outside [1, 256]"},
		{[]string{"search", "--data", "example:iris", "--workers", "0"}, "--workers 0 outside [1, 256]"},
		{[]string{"search", "--data", "example:iris", "--folds", "1"}, "--folds 1 outside [2, 1000]"},
		{[]string{"search", "--data", "example:iris", "--extend-n", "-1"}, "--extend-n -1 outside [0, 1048576]"},
		{[]string{"eval", "--data", "example:iris", "--n", "10", "--workers", "0"}, "--workers 0 outside [1, 256]"},
		{[]string{"power", f.quant, "--workers", "0"}, "--workers 0 outside [1, 256]"},
		{[]string{"campaign", "--out", hw, "--workers", "0"}, "--workers 0 outside [1, 64]"},
		{[]string{"verify", hw, "--cxx-opt", "-O9"}, `--cxx-opt "-O9": want one of -O0, -O1, -O2, -O3, -Os`},
		{[]string{"verify", hw, "--cxx-opt", ""}, `--cxx-opt "": want one of -O0`},
		// Item 3: every limit before any work (the build refused this at its step 8).
		{[]string{"build", "--data", "example:iris", "-o", hw, "--vectors", "2000000"}, "--vectors 2000000 outside [1, 1000000]"},
		{[]string{"build", "--data", "example:iris", "-o", hw, "--n", "2000000", "--lambda", "1", "--kappa", "3"}, "--n 2000000 outside [0, 1048576]"},
		// Issue 35, item 4: the family is checked before any work.
		{[]string{"build", "--data", "example:iris", "-o", hw, "--family", "intrvfl,rvfl8"}, "--family intrvfl,rvfl8: rvfl8 is the fixed-point baseline the family is measured against, not a member"},
		{[]string{"build", "--data", "example:iris", "-o", hw, "--family", "intrvfl2", "--win", "lfsr"}, "intrvfl2 has no generated W_in"},
		{[]string{"build", "--data", "example:iris", "-o", hw, "--family", "intrvfl,intrvfl2", "--n", "10", "--lambda", "1", "--kappa", "3"}, "give one member"},
	}
	for _, tc := range tests {
		code, stdout, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d mentioning %q", tc.args, code, stdout, errs, exitUsage, tc.want)
		}
	}
	for _, p := range []string{out, hw} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written by a rejected command", p)
		}
	}
}

// TestVectorCycleLimit: a vector count whose run would overflow the
// testbenches' 32-bit cycle counters is refused before any simulation.
func TestVectorCycleLimit(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "big.json")
	if code, _, errs := run(t, "train", "--data", "example:iris", "--n", "4000", "--bits", "5", "-o", m); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	code, _, errs := run(t, "emit", m, "--vectors", "1000000", "-o", filepath.Join(dir, "hw"))
	if code != exitUsage || !strings.Contains(errs, "32-bit cycle counters") || !strings.Contains(errs, "use at most") {
		t.Errorf("exit %d, stderr %q; want a usage error about the cycle counters", code, errs)
	}
}

// TestMemoryRule: work estimated above the machine's memory is refused
// before it starts, with the estimate (limits.go; MemTotal injected).
func TestMemoryRule(t *testing.T) {
	dir := t.TempDir()
	float := filepath.Join(dir, "f.json")
	if code, _, errs := run(t, "train", "--data", "example:iris", "--n", "50", "-o", float); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"train", "--data", "example:iris", "--n", "1048576", "--holdout", "0", "-o", filepath.Join(dir, "big.json")}, "training N=1048576 on 150 rows of 4 features needs about 2.4 GiB of memory, more than this machine's 1.0 GiB"},
		{[]string{"quantize", float, "--ga", "rounded", "--data", "example:iris", "--population", "65536", "--holdout", "0", "-o", filepath.Join(dir, "ga.json")}, "the GA (population 65536, 150 rows, N=50, L=3) needs about 300.0 MiB of memory"},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		app := &App{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(string) string { return "" },
			MemTotal: func() (uint64, bool) { return 200 << 20, true }}
		if strings.Contains(tc.want, "1.0 GiB") {
			app.MemTotal = func() (uint64, bool) { return 1 << 30, true }
		}
		root := NewRootCmd(app)
		root.SetArgs(tc.args)
		code := app.exitCode(root.Execute())
		if code != exitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errb.String(), exitUsage, tc.want)
		}
	}
}

// TestOutputIsNotAnInput: an output path that is an input (the same file,
// also through a link) or lies inside an input folder is refused and the
// input survives (issue 10, item 5: train --data g.csv -o g.csv deleted the CSV).
func TestOutputIsNotAnInput(t *testing.T) {
	f := newFixture(t)
	link := filepath.Join(f.dir, "link.json")
	if err := os.Symlink(f.float, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(f.dir, "hard.csv")
	if err := os.Link(f.csv, hard); err != nil {
		t.Fatal(err)
	}
	coll := filepath.Join(f.dir, "coll")
	if err := os.MkdirAll(filepath.Join(coll, "toy"), 0o755); err != nil {
		t.Fatal(err)
	}
	inHW := filepath.Join(f.hw, "iris.csv")
	if err := os.WriteFile(inHW, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"train", "--data", f.csv, "--n", "10", "-o", f.csv}, "is the same file as --data"},
		{[]string{"train", "--data", f.csv, "--n", "10", "-o", hard}, "is the same file as --data"},
		{[]string{"train", "--data", coll, "--dataset", "toy", "--n", "10", "-o", filepath.Join(coll, "toy", "toy_R.dat")}, "lies inside the input folder"},
		{[]string{"quantize", f.float, "--bits", "5", "-o", f.float}, "is the same file as model.json"},
		{[]string{"quantize", f.float, "--bits", "5", "-o", link}, "is the same file as model.json"},
		{[]string{"quantize", f.float, "--bits", "5", "--data", f.csv, "-o", f.csv}, "is the same file as --data"},
		{[]string{"emit", f.quant, "-o", f.dir}, "holds the input model.json"},
		{[]string{"emit", f.quant, "--data", inHW, "-o", f.hw}, "holds the input --data"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "-o", f.dir}, "refusing to replace a directory"},
	}
	for _, tc := range tests {
		before := snapshot(t, f.dir)
		code, _, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errs, exitUsage, tc.want)
		}
		if after := snapshot(t, f.dir); after != before {
			t.Errorf("%v changed the folder", tc.args)
		}
	}
	// Re-emitting a design from its own model.json is allowed: emit writes it back.
	if code, _, errs := run(t, "emit", filepath.Join(f.hw, "model.json"), "--force", "-o", f.hw, "--vectors", "20", "--parallel", "2"); code != 0 {
		t.Errorf("re-emit from DIR/model.json: exit %d: %s", code, errs)
	}
}

// snapshot lists the files under dir with their sizes and modes.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + " " + fi.Mode().String() + " " + fi.ModTime().String())
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.Write(data)
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPredictMatchesColumnNames: predict and sim read the columns by the
// model's feature names (issue 10, item 10: swapped or renamed columns were
// classified silently).
func TestPredictMatchesColumnNames(t *testing.T) {
	f := newFixture(t)
	write := func(name, content string) string {
		p := filepath.Join(f.dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inOrder := write("a.csv", "sepal_length,sepal_width,petal_length,petal_width\n5.1,3.5,1.4,0.2\n6.3,3.3,6.0,2.5\n")
	swapped := write("b.csv", "petal_width,sepal_width,petal_length,sepal_length,class\n0.2,3.5,1.4,5.1,x\n2.5,3.3,6.0,6.3,y\n")
	renamed := write("c.csv", "sl,sepal_width,petal_length,petal_width\n5.1,3.5,1.4,0.2\n")
	_, want, _ := run(t, "predict", f.quant, "--data", inOrder)
	if want == "" {
		t.Fatal("no predictions")
	}
	if code, got, errs := run(t, "predict", f.quant, "--data", swapped); code != 0 || got != want {
		t.Errorf("permuted columns: exit %d, %q (stderr %q); want the in-order predictions %q", code, got, errs, want)
	}
	_, wantSim, _ := run(t, "sim", f.quant, "--input", inOrder)
	if code, got, errs := run(t, "sim", f.quant, "--input", swapped); code != 0 || got != wantSim {
		t.Errorf("sim, permuted columns: exit %d, %q (stderr %q); want %q", code, got, errs, wantSim)
	}
	code, _, errs := run(t, "predict", f.quant, "--data", renamed)
	if code != exitError || !strings.Contains(errs, `missing "sepal_length"; unexpected "sl"`) || !strings.Contains(errs, "--by-position") {
		t.Errorf("renamed column: exit %d, stderr %q", code, errs)
	}
	if code, got, errs := run(t, "predict", f.quant, "--data", renamed, "--by-position"); code != 0 || got == "" {
		t.Errorf("--by-position: exit %d, %q, %s", code, got, errs)
	}
}
