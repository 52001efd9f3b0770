package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
)

func TestChooseGA(t *testing.T) {
	tests := []struct {
		ga, rounded float64
		force, keep bool
		note        string
	}{
		{0.9, 0.8, false, true, "≥ rounding's 0.8000: keeping the GA readout"},
		{0.8, 0.8, false, true, "≥ rounding's 0.8000: keeping the GA readout"},
		{0.7, 0.8, false, false, "writing the rounded readout instead"},
		{0.7, 0.8, true, true, "keeping the GA readout (--keep-ga)"},
	}
	for _, tc := range tests {
		keep, note := chooseGA(tc.ga, tc.rounded, tc.force)
		if keep != tc.keep || !strings.Contains(note, tc.note) {
			t.Errorf("chooseGA(%v, %v, %v) = %v %q, want %v …%q…", tc.ga, tc.rounded, tc.force, keep, note, tc.keep, tc.note)
		}
	}
}

func TestCollapseWarning(t *testing.T) {
	f := func(fit, held float64, has bool) accuracyRow {
		return accuracyRow{Readout: "x", Fit: fit, Held: held, HasHeld: has}
	}
	tests := []struct {
		name string
		rows []accuracyRow
		want string // substring; "" means no warning
	}{
		{"float only", []accuracyRow{f(0.9, 0.8, true)}, ""},
		{"small loss", []accuracyRow{f(0.9, 0.80, true), f(0.9, 0.76, true)}, ""},
		{"collapse held-out", []accuracyRow{f(0.9, 0.80, true), f(0.9, 0.40, true)}, "held-out accuracy from 0.8000 to 0.4000"},
		{"held-out decides", []accuracyRow{f(0.9, 0.80, true), f(0.5, 0.80, true)}, ""},
		{"training without held-out", []accuracyRow{f(0.9, 0, false), f(0.5, 0, false)}, "training accuracy from 0.9000 to 0.5000"},
	}
	for _, tc := range tests {
		got := collapseWarning(tc.rows)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// accuracyLine matches a row of the accuracy table: readout, training, held-out.
var accuracyLine = regexp.MustCompile(`(?m)^  (float|\d+-bit integer)\s+([0-9.]+)\s+([0-9.]+|—)$`)

// TestTrainTestFileAgreesWithPredictScore: train --test reports the held-out
// accuracy that predict --score measures on the same file, with the label in
// the first column and string class names.
func TestTrainTestFileAgreesWithPredictScore(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../examples/sensors.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(src), "\n"), "\n")
	trainCSV, testCSV := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	os.WriteFile(trainCSV, []byte(strings.Join(lines[:181], "")), 0o644)
	os.WriteFile(testCSV, []byte(lines[0]+strings.Join(lines[181:], "")+"\n"), 0o644)
	m := filepath.Join(dir, "m.json")
	code, _, errs := run(t, "train", "--data", trainCSV, "--test", testCSV, "--label-column", "condition", "--n", "40", "--lambda", "4", "--bits", "5", "-o", m)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "on 180 rows of train, validated on the 60 rows of "+testCSV) {
		t.Errorf("train stderr: %s", errs)
	}
	rows := accuracyLine.FindAllStringSubmatch(errs, -1)
	if len(rows) != 2 || rows[0][1] != "float" || rows[1][1] != "5-bit integer" {
		t.Fatalf("accuracy table %q in %s", rows, errs)
	}
	code, out, errs := run(t, "predict", m, "--data", testCSV, "--score")
	if code != 0 {
		t.Fatalf("predict --score: exit %d: %s", code, errs)
	}
	if want := "accuracy " + rows[1][3] + " ("; !strings.HasPrefix(out, want) {
		t.Errorf("predict --score printed %q, want it to start with %q (train's held-out integer accuracy)", out, want)
	}
	if !strings.Contains(out, "true \\ predicted") || strings.Count(out, "\n") != 5 {
		t.Errorf("no 3-class confusion matrix in %q", out)
	}
	code, out, _ = run(t, "predict", m, "--data", trainCSV, "--score")
	if want := "accuracy " + rows[1][2] + " ("; code != 0 || !strings.HasPrefix(out, want) {
		t.Errorf("predict --score on the training file: exit %d, %q, want %q", code, out, want)
	}
}

func TestTrainDataChecks(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var ids strings.Builder
	ids.WriteString("a,b,id\n")
	for i := 0; i < 12; i++ {
		ids.WriteString(strings.Repeat("1,", 2) + "row" + string(rune('a'+i)) + "\n")
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"label per row", []string{"--data", write("ids.csv", ids.String()), "--holdout", "0"}, 0,
			`has as many classes as rows (12)`},
		{"no header", []string{"--data", write("nohead.csv", "1,2,0\n3,4,1\n")}, exitError, "looks like data, not a header"},
		{"label first, not given", []string{"--data", "../../examples/sensors.csv"}, exitError, "--label-column condition"},
		{"holdout and test", []string{"--data", "example:iris", "--holdout", "0.3", "--test", "x.csv"}, exitUsage, "two ways to validate"},
		{"holdout range", []string{"--data", "example:iris", "--holdout", "1"}, exitUsage, "want a share in [0, 1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"train", "--n", "5", "-o", filepath.Join(dir, "m.json")}, tc.args...)
			code, _, errs := run(t, args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
}

func TestQuantizeHeldOutFlagsNeedData(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	if code, _, errs := run(t, "train", "--data", "example:iris", "--n", "20", "-o", m); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	for _, flag := range [][]string{{"--holdout", "0.2"}, {"--test", "x.csv"}, {"--label-column", "class"}, {"--split-seed", "3"}} {
		args := append([]string{"quantize", m, "-o", filepath.Join(dir, "q.json")}, flag...)
		code, _, errs := run(t, args...)
		if code != exitUsage || !strings.Contains(errs, "add --data") {
			t.Errorf("%v: exit %d, %q", flag, code, errs)
		}
	}
	// The GA path reports held-out accuracy and its choice.
	code, _, errs := run(t, "quantize", m, "--bits", "3", "--ga", "rounded", "--generations", "20", "--data", "example:iris", "-o", filepath.Join(dir, "q.json"))
	if code != 0 {
		t.Fatalf("quantize --ga: exit %d: %s", code, errs)
	}
	got := accuracyLine.FindAllStringSubmatch(errs, -1)
	var names []string
	for _, r := range got {
		names = append(names, r[1])
	}
	if diff := cmp.Diff([]string{"float", "3-bit integer"}, names); diff != "" || !strings.Contains(errs, "held-out accuracy") {
		t.Errorf("quantize --ga stderr (-want +got readouts)\n%s\n%s", diff, errs)
	}
}

// TestPredictBatchEqualsPerRow: predict (batch path) prints the classes of
// Model.Predict, row by row, and of hdlgen sim; --score counts them.
func TestPredictBatchEqualsPerRow(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	if code, _, errs := run(t, "train", "--data", "../../examples/breast-cancer-wisc.csv", "--n", "300", "--bits", "4", "--lambda", "1", "-o", p); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	m, err := model.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataset.LoadCSV("../../examples/breast-cancer-wisc.csv", dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	correct := 0
	for r := 0; r < d.M(); r++ {
		c := m.Predict(d.Row(r))
		want = append(want, m.ClassNames[c])
		if c == d.Y[r] {
			correct++
		}
	}
	code, out, errs := run(t, "predict", p, "--data", "../../examples/breast-cancer-wisc.csv")
	if code != 0 {
		t.Fatalf("predict: %s", errs)
	}
	if diff := cmp.Diff(want, strings.Fields(out)); diff != "" {
		t.Errorf("predict (-per-row +printed)\n%s", diff)
	}
	// And to the cycle-accurate simulator of the hardware (first field of each line).
	code, simOut, errs := run(t, "sim", p, "--input", "../../examples/breast-cancer-wisc.csv", "--parallel", "7")
	if code != 0 {
		t.Fatalf("sim: %s", errs)
	}
	var simClasses []string
	for _, l := range strings.Split(strings.TrimSpace(simOut), "\n") {
		simClasses = append(simClasses, strings.Fields(l)[0])
	}
	if diff := cmp.Diff(strings.Fields(out), simClasses); diff != "" {
		t.Errorf("predict vs sim (-predict +sim)\n%s", diff)
	}
	code, out, _ = run(t, "predict", p, "--data", "../../examples/breast-cancer-wisc.csv", "--score")
	if want := fmt.Sprintf("(%d/%d)", correct, d.M()); code != 0 || !strings.Contains(out, want) {
		t.Errorf("predict --score: %q, want %s", out, want)
	}
}

// TestOutAliases: train and quantize take -o, --out and the older --output.
func TestOutAliases(t *testing.T) {
	dir := t.TempDir()
	for i, flag := range []string{"-o", "--out", "--output"} {
		p := filepath.Join(dir, fmt.Sprintf("m%d.json", i))
		if code, _, errs := run(t, "train", "--data", "example:iris", "--n", "5", flag, p); code != 0 {
			t.Errorf("train %s: exit %d: %s", flag, code, errs)
		}
		q := filepath.Join(dir, fmt.Sprintf("q%d.json", i))
		if code, _, errs := run(t, "quantize", p, "--bits", "4", flag, q); code != 0 {
			t.Errorf("quantize %s: exit %d: %s", flag, code, errs)
		}
	}
	if code, _, errs := run(t, "quantize", filepath.Join(dir, "m0.json"), "--bits", "4"); code != exitUsage || !strings.Contains(errs, "-o/--out") {
		t.Errorf("quantize without -o: exit %d, %q", code, errs)
	}
}

// TestOneClassTestFiles: a labelled file scored against a model may hold a
// single class — the held-out rows of a class with one row (issue 26, item
// 9: predict --score and train --test refused it, and build failed at its
// third step); training data still needs two classes.
func TestOneClassTestFiles(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.csv")
	if err := os.WriteFile(one, []byte("sepal_length,sepal_width,petal_length,petal_width,class\n5.1,3.5,1.4,0.2,setosa\n4.9,3.0,1.4,0.2,setosa\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(dir, "m.json")
	if code, _, errs := run(t, "train", "--data", "example:iris", "--test", one, "--n", "20", "--bits", "5", "-o", m); code != 0 {
		t.Fatalf("train --test with one class: exit %d: %s", code, errs)
	}
	code, out, errs := run(t, "predict", m, "--data", one, "--score")
	if code != 0 || !strings.Contains(out, "accuracy") {
		t.Errorf("predict --score with one class: exit %d, %q, %s", code, out, errs)
	}
	if code, _, errs := run(t, "train", "--data", one, "--n", "20", "-o", filepath.Join(dir, "x.json")); code == 0 || !strings.Contains(errs, "only one class") {
		t.Errorf("training on one class: exit %d, %s; want a refusal", code, errs)
	}
}
