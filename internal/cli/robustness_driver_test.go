//go:build unix

package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// issue36DriverRows adds the board driver's CSV cases (issue 36, item 1):
// hdlgen-run classify, built natively from sys26's driver/ (make native, no
// device), reads a CSV file as predict does — a header, the columns matched
// to the model's feature names — and refuses a bad one before it opens the
// device, naming the file and line. (A well-formed file in another column
// order gives predict's classes: TestRunClassifyCSV in hostdrv, on the
// simulated system.)
func issue36DriverRows(w workspace, job func(func() robustRow)) {
	drv := w.path("sys26/driver")
	mk := exec.Command("make", "-s", "native")
	mk.Dir = drv
	if out, err := mk.CombinedOutput(); err != nil {
		w.t.Errorf("make native in sys26/driver: %v\n%s", err, out)
		return
	}
	runner := "sys26/driver/build/native/hdlgen-run"
	head := "sepal_length,sepal_width,petal_length,petal_width\n"
	for _, c := range []struct{ class, file, csv, re string }{
		{"driver CSV: a feature column missing", "d36-missing.csv", "sepal_length,sepal_width,petal_length\n5.1,3.5,1.4\n",
			`d36-missing\.csv:1: header does not match the design's feature names: missing "petal_width"`},
		{"driver CSV: an unknown column", "d36-unknown.csv", "sepal_length,sepal_width,petal_length,petal_width,colour\n5.1,3.5,1.4,0.2,red\n",
			`d36-unknown\.csv:1: header does not match the design's feature names: unexpected "colour"`},
		{"driver CSV: text in row 3", "d36-text.csv", head + "5.1,3.5,1.4,0.2\n4.9,3.O,1.4,0.2\n",
			`d36-text\.csv:3: field 2 \(column "sepal_width"\) is not a finite number: "3\.O"`},
		{"driver CSV: a short row", "d36-short.csv", head + "5.1,3.5,1.4\n", `d36-short\.csv:2: 3 fields, the header has 4 columns`},
		{"driver CSV: no header (a malformed first row)", "d36-nohead.csv", "5.1,3.5,1.4,0.2x\n4.9,3.0,1.4,0.2\n",
			`d36-nohead\.csv:1: header does not match the design's feature names`},
	} {
		w.write(c.file, c.csv)
		job(func() robustRow {
			o := w.run(runner, "classify", c.file)
			return robustRow{item: "36.1", class: c.class, cmd: runner + " classify " + c.file,
				want: "exit 1 naming file:line, no output", o: o,
				held: o.code == 1 && o.stdout == "" && regexp.MustCompile(c.re).MatchString(o.stderr)}
		})
	}
}

// run runs a program of the workspace (a path relative to it) there.
func (w workspace) run(prog string, args ...string) outcome {
	w.t.Helper()
	cmd := exec.Command(filepath.Join(w.dir, prog), args...)
	cmd.Dir = w.dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		w.t.Errorf("%s %s: %v", prog, strings.Join(args, " "), err)
		return outcome{code: -1, stderr: err.Error()}
	}
	return outcome{cmd.ProcessState.ExitCode(), out.String(), errb.String()}
}
