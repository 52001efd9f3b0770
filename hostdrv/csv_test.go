package hostdrv_test

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/hwtest"
)

// TestRunClassifyCSV (issue 36, item 1): hdlgen-run classify and the Python
// wrapper's classify read a CSV file as hdlgen predict does. A file with the
// design's columns in another order and the label column among them gives,
// row for row, the classes of predict's reading (dataset.LoadFeaturesCSV with
// the model's feature names, then the model's prediction); a missing or
// unknown column, a row of another length, a field that is not a finite
// number, a first line of numbers (no header), an empty file and a header
// without rows are refused with the line, exit status 1 and nothing printed.
func TestRunClassifyCSV(t *testing.T) {
	sd := buildSimDesign(t)
	m := sd.m1
	runSim := filepath.Join(sd.driver, "build/sim/hdlgen-run-sim")
	lib := filepath.Join(sd.driver, "build/sim/libhdlgen_sim.so")
	python := hwtest.Missing(hwtest.Python) == ""
	work := t.TempDir()

	// The columns shuffled, the label column third.
	rows := finiteRows(simRows(m, sd.data, 200, 51))
	perm := rand.New(rand.NewPCG(36, 1)).Perm(m.K())
	var b strings.Builder
	header := make([]string, 0, m.K()+1)
	for _, i := range perm {
		header = append(header, m.FeatureNames[i])
	}
	header = slices.Insert(header, 2, m.Training.LabelName)
	b.WriteString(strings.Join(header, ",") + "\n")
	for r, row := range rows {
		fields := make([]string, 0, len(header))
		for _, i := range perm {
			fields = append(fields, strconv.FormatFloat(row[i], 'g', -1, 64))
		}
		fields = slices.Insert(fields, 2, m.ClassNames[r%m.L()])
		b.WriteString(strings.Join(fields, ",") + "\n")
	}
	shuffled := filepath.Join(work, "shuffled.csv")
	if err := os.WriteFile(shuffled, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := dataset.LoadFeaturesCSV(shuffled, dataset.FeatureOptions{Features: m.K(), LabelName: m.Training.LabelName, Names: m.FeatureNames})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, d.M())
	for r := range want {
		want[r] = m.ClassNames[m.Predict(d.Row(r))]
	}
	classify := map[string]func(path string) (string, string, error){
		"hdlgen-run": func(path string) (string, string, error) { return output(exec.Command(runSim, "classify", path)) },
	}
	if python {
		classify["hdlgen.py"] = func(path string) (string, string, error) {
			cmd := exec.Command("python3", "hdlgen.py", "-d", "sim", "--lib", lib, "classify", path)
			cmd.Dir = sd.driver
			return output(cmd)
		}
	} else {
		t.Log("no python3: the Python wrapper is not checked")
	}
	for name, run := range classify {
		out, stderr, err := run(shuffled)
		if err != nil {
			t.Fatalf("%s classify: %v\n%s", name, err, stderr)
		}
		if diff := cmp.Diff(want, strings.Split(strings.TrimSuffix(out, "\n"), "\n")); diff != "" {
			t.Errorf("%s classify of a file with the columns in another order (-predict +%s):\n%s", name, name, diff)
		}
	}

	// Refusals. A well-formed file in the model's order, then each defect.
	line := func(vals ...string) string { return strings.Join(vals, ",") + "\n" }
	nums := make([]string, m.K())
	for i := range nums {
		nums[i] = strconv.Itoa(i)
	}
	bad := slices.Clone(nums)
	bad[4] = "1.5x"
	nan := slices.Clone(nums)
	nan[0] = "NaN"
	head := line(m.FeatureNames...)
	for _, c := range []struct{ name, csv, want string }{
		{"missing column", line(m.FeatureNames[1:]...) + line(nums[1:]...), `:1: header does not match the design's feature names: missing "f01"`},
		{"unknown column", line(append(slices.Clone(m.FeatureNames), "f99")...) + line(append(slices.Clone(nums), "1")...), `:1: header does not match the design's feature names: unexpected "f99"`},
		{"malformed row", head + line(nums...) + line(nums...) + line(bad...), `:4: field 5 (column "f05") is not a finite number: "1.5x"`},
		{"short row", head + line(nums...) + line(nums[1:]...), ":3: 10 fields, the header has 11 columns"},
		{"no header", line(bad...) + line(nums...), `:1: header does not match the design's feature names: missing "f01"`},
		{"NaN", head + line(nan...), `:2: field 1 (column "f01") is not a finite number: "NaN"`},
		{"empty", "", ":1: empty file"},
		{"header only", head, ":1: header only: no rows"},
	} {
		path := filepath.Join(work, strings.ReplaceAll(c.name, " ", "-")+".csv")
		if err := os.WriteFile(path, []byte(c.csv), 0o644); err != nil {
			t.Fatal(err)
		}
		for name, run := range classify {
			out, stderr, err := run(path)
			if err == nil || out != "" || !strings.Contains(stderr, path+c.want) {
				t.Errorf("%s, %s: %v, stdout %q, stderr %q; want exit status 1, no output and %q", name, c.name, err, out, stderr, path+c.want)
			}
		}
	}
}

// output runs cmd and returns its standard output and error.
func output(cmd *exec.Cmd) (string, string, error) {
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}
