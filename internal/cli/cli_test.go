package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run executes hdlgen with args and returns exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestEveryCommandHasHelp(t *testing.T) {
	root := NewRootCmd(&App{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	for _, c := range root.Commands() {
		if c.Short == "" {
			t.Errorf("command %q has no short help", c.Name())
		}
		code, out, _ := run(t, c.Name(), "--help")
		if code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("%s --help: exit %d, output %q", c.Name(), code, out)
		}
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"train", "--data", "example:iris", "--n", "10"}, `required flag -o/--out (the model.json to write) not set`},
		{[]string{"train", "--data", "example:iris", "--n", "10", "--arch", "cnn", "-o", "x.json"}, "unknown architecture"},
		{[]string{"train", "--data", "example:nosuch", "--n", "10", "-o", "x.json"}, "unknown example"},
		{[]string{"train", "--data", "example:iris", "--n", "0", "-o", "x.json"}, "--n 0"},
		{[]string{"train", "--data", "example:iris", "-o", "x.json"}, `required flag --n (hidden neurons, 1…`},
		{[]string{"train", "--data", "example:iris", "-o", "x.json"}, "hdlgen search --data FILE"},
		{[]string{"train", "--bogus"}, "unknown flag"},
		{[]string{"eval", "--data", ".", "--dataset", "x", "--n", "5", "--seeds", "0"}, "--seeds 0"},
		{[]string{"search", "--data", ".", "--dataset", "x", "--bits", "1"}, "--bits 1"},
		{[]string{"search", "--data", ".", "--dataset", "x", "--arch", "rvfl", "--bits", "5"}, "for --arch intrvfl"},
		{[]string{"reproduce", "--data", "no-such-collection", "--stages", "retune", "--retune-bits", "17"}, "--retune-bits 17"},
		{[]string{"reproduce", "--data", "no-such-collection", "--stages", "bogus"}, `unknown stage "bogus"`},
		{[]string{"reproduce", "--data", "no-such-collection", "--stages", "race", "--race-bits", "5,17"}, `--race-bits "17"`},
		{[]string{"reproduce", "--data", "no-such-collection", "--stages", "race", "--race-budget", "0"}, "--race-budget 0"},
		{[]string{"reproduce", "--data", "no-such-collection", "--stages", "accuracy,race"}, "a folder of its own"},
		{[]string{"emit", "m.json", "-o", "d", "--system", "versal"}, `--system "versal"`},
		{[]string{"emit", "m.json", "-o", "d", "--reloadable-readout"}, "needs --system zynq"},
		{[]string{"emit", "m.json", "-o", "d", "--no-scores"}, "needs --system zynq"},
	}
	for _, tc := range tests {
		code, _, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
}

func TestTrainPredictRoundTrip(t *testing.T) {
	dir := t.TempDir()
	modelPath := filepath.Join(dir, "iris.json")
	code, _, errs := run(t, "train", "--data", "example:iris", "--arch", "intrvfl", "--n", "50", "--lambda", "4", "--kappa", "3", "--bits", "5", "-o", modelPath)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "held-out") || !strings.Contains(errs, "5-bit integer") {
		t.Errorf("train printed no accuracy: %q", errs)
	}
	// Predict on a CSV with the label column: it is ignored.
	csv := "sepal_length,sepal_width,petal_length,petal_width,class\n-0.9,1.0,-1.3,-1.3,setosa\n1.0,0.0,0.9,1.1,virginica\n"
	csvPath := filepath.Join(dir, "new.csv")
	if err := os.WriteFile(csvPath, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "predict", modelPath, "--data", csvPath)
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, errs)
	}
	if got := strings.Fields(out); len(got) != 2 || got[0] != "setosa" || got[1] != "virginica" {
		t.Errorf("predictions %q, want setosa, virginica", out)
	}
	// Same seed, same bytes.
	again := filepath.Join(dir, "again.json")
	run(t, "train", "--data", "example:iris", "--arch", "intrvfl", "--n", "50", "--lambda", "4", "--kappa", "3", "--bits", "5", "-o", again)
	a, _ := os.ReadFile(modelPath)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("two trainings with the same seed wrote different model.json files")
	}
}

func TestBadInputLeavesNoOutput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("a,b,class\n1,2,x\n3,oops,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.json")
	code, _, errs := run(t, "train", "--data", bad, "--n", "5", "-o", out)
	if code != exitError {
		t.Fatalf("exit %d, want %d", code, exitError)
	}
	if !strings.Contains(errs, "bad.csv:3") || !strings.Contains(errs, "(b)") {
		t.Errorf("error %q does not name file, line and field", errs)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a failed train left an output file")
	}
	// A broken model file: predict names the file and field.
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte("{\n  \"format\": \"hdlgen-model\",\n  \"version\": 9\n}\n"), 0o644)
	code, _, errs = run(t, "predict", broken, "--data", bad)
	if code != exitError || !strings.Contains(errs, "broken.json:3:") || !strings.Contains(errs, "field version") {
		t.Errorf("predict on broken model: exit %d, %q", code, errs)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := run(t, "version")
	if code != 0 || !strings.HasPrefix(out, "hdlgen ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

func TestTrainKeepClasses(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	code, _, errs := run(t, "train", "--data", "example:iris", "--classes", "virginica,setosa", "--n", "10", "-o", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), `"class_names": ["virginica", "setosa"]`) || !strings.Contains(errs, "on 74 rows") || !strings.Contains(errs, "26 rows held out") {
		t.Errorf("class filter not applied: %s", errs)
	}
	code, _, errs = run(t, "train", "--data", "example:iris", "--classes", "setosa,rose", "--n", "10", "-o", p)
	if code != exitUsage || !strings.Contains(errs, `no class "rose"`) {
		t.Errorf("unknown class: exit %d, %q", code, errs)
	}
}

// TestEmitSystem emits a Zynq system top and reports its throughput.
func TestEmitSystem(t *testing.T) {
	dir := t.TempDir()
	modelPath := filepath.Join(dir, "iris.json")
	if code, _, errs := run(t, "train", "--data", "example:iris", "--arch", "intrvfl", "--n", "20", "--kappa", "3", "--bits", "4", "-o", modelPath); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	out := filepath.Join(dir, "zynq")
	code, _, errs := run(t, "emit", modelPath, "-o", out, "--parallel", "4", "--system", "zynq", "--reloadable-readout", "--vectors", "60")
	if code != 0 {
		t.Fatalf("emit: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "system top iris_system: one vector every") || !strings.Contains(errs, "classifications/s at 100 MHz") {
		t.Errorf("emit does not report the system's throughput:\n%s", errs)
	}
	for _, f := range []string{"rtl/iris_system.v", "tb/tb_system.v", "vectors/sys_ops.mem"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}
