package hostdrv_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/hostdrv"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// serialShape is the pseudo-terminal test's design: iris-sized.
var serialShape = randmodel.Shape{Arch: model.IntRVFL, K: 4, N: 40, L: 3, Kappa: 3, Bits: 5}

// serialModel is a trained model of serialShape with named features and
// label (hdlgen-run matches a CSV file's columns by name).
func serialModel(seed uint64) (*model.Model, model.Data) {
	m, data := randmodel.Trained(serialShape, fmt.Sprintf("uart %d", seed), seed)
	m.FeatureNames = []string{"sepal_length", "sepal_width", "petal_length", "petal_width"}
	m.Training.LabelName = "species"
	return m, data
}

// emitSerial emits m for the iCEBreaker into dir with a few test vectors and
// builds its driver with make targets, returning the driver directory.
func emitSerial(t *testing.T, m *model.Model, dir string, targets ...string) string {
	t.Helper()
	opts := rtl.Options{Options: plan.Options{Parallel: 1, ROMStyle: plan.ROMStyleBlock}, Vectors: 12, Board: board.NameIceBreaker}
	if _, err := rtl.Emit(context.Background(), m, opts, dir); err != nil {
		t.Fatal(err)
	}
	drv := filepath.Join(dir, hostdrv.Dir)
	run(t, drv, "nice", append([]string{"-n", "10", "make", "-s"}, targets...)...)
	return drv
}

// TestSerialDriverPTY is issue 38's item 5: the iCEBreaker's host tool
// (hdlgen-run with the serial backend, and hdlgen.py on the same library)
// against the Verilator model of the UART top behind a pseudo-terminal, the
// UART's bits on the top's pins (make sim: sim_uart.cpp). The self-test
// passes every check (identity, the design's vectors, malformed frames, a
// resync); classify -s of a CSV file gives, row for row, the classes and
// scores hdlgen predict --scores gives (its reading: dataset.LoadFeaturesCSV
// by feature names; the model's integer prediction and scores); another
// design's driver is refused at open, naming the fields that differ; the
// simulated line saw no framing error.
func TestSerialDriverPTY(t *testing.T) {
	hwtest.Require(t, hwtest.Verilator, hwtest.CC)
	m, data := serialModel(1)
	root := t.TempDir()
	drv := emitSerial(t, m, filepath.Join(root, "design"), "native", "sim")

	sim := exec.Command(filepath.Join(drv, "build/sim/hdlgen-uart-sim"))
	stdin, err := sim.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := sim.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var simErr strings.Builder
	sim.Stderr = &simErr
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	ended := false
	end := func() {
		if ended {
			return
		}
		ended = true
		stdin.Close() // the simulator ends with its standard input
		done := make(chan error, 1)
		go func() { _, _ = io.Copy(io.Discard, stdout); done <- sim.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("hdlgen-uart-sim: %v\n%s", err, simErr.String())
			}
		case <-time.After(30 * time.Second):
			_ = sim.Process.Kill()
			t.Errorf("hdlgen-uart-sim did not end with its standard input")
		}
	}
	defer end()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	pty, ok := strings.CutPrefix(strings.TrimSpace(line), "pty ")
	if err != nil || !ok {
		t.Fatalf("hdlgen-uart-sim printed %q (%v), want \"pty PATH\"", line, err)
	}
	spec := "serial:dev=" + pty + ",timeout=20000"
	runner := filepath.Join(drv, "build/native/hdlgen-run")

	// The self-test.
	out, stderr, err := output(exec.Command(runner, "-d", spec, "selftest"))
	if err != nil {
		t.Fatalf("selftest: %v\n%s%s", err, out, stderr)
	}
	t.Logf("selftest over %s:\n%s", pty, out)
	for _, check := range []string{"identity: ok", "vectors: ok, 12 test vectors", "malformed: ok", "resync: ok", "PASS selftest"} {
		if !strings.Contains(out, check) {
			t.Errorf("the self-test's report lacks %q:\n%s", check, out)
		}
	}

	// classify -s against predict's reading of the same file.
	rows := finiteRows(simRows(m, data, 40, 38))
	header := slices.Clone(m.FeatureNames)
	csvPath := filepath.Join(root, "rows.csv")
	writeCSV(t, csvPath, header, rows)
	d, err := dataset.LoadFeaturesCSV(csvPath, dataset.FeatureOptions{Features: m.K(), LabelName: m.Training.LabelName, Names: m.FeatureNames})
	if err != nil {
		t.Fatal(err)
	}
	var want, wantClass []string
	for r := range d.M() {
		row := d.Row(r)
		fields := []string{m.ClassNames[m.Predict(row)]}
		for _, s := range m.IntScores(row) {
			fields = append(fields, strconv.FormatInt(s, 10))
		}
		want = append(want, strings.Join(fields, ","))
		wantClass = append(wantClass, fields[0])
	}
	out, stderr, err = output(exec.Command(runner, "-d", spec, "classify", "-s", csvPath))
	if err != nil {
		t.Fatalf("classify: %v\n%s", err, stderr)
	}
	if diff := cmp.Diff(want, strings.Split(strings.TrimSuffix(out, "\n"), "\n")); diff != "" {
		t.Errorf("hdlgen-run classify -s over the UART (-predict +hdlgen-run):\n%s", diff)
	}
	if hwtest.Missing(hwtest.Python) == "" {
		cmd := exec.Command("python3", "hdlgen.py", "-d", spec, "--lib", "build/native/libhdlgen.so", "classify", csvPath)
		cmd.Dir = drv
		out, stderr, err := output(cmd)
		if err != nil {
			t.Fatalf("hdlgen.py classify: %v\n%s", err, stderr)
		}
		if diff := cmp.Diff(wantClass, strings.Split(strings.TrimSuffix(out, "\n"), "\n")); diff != "" {
			t.Errorf("hdlgen.py classify over the UART (-predict +hdlgen.py):\n%s", diff)
		}
	} else {
		t.Log("no python3: the Python wrapper is not checked")
	}

	// Another design's driver (another model of the same shape) is refused.
	other, _ := serialModel(2)
	otherRunner := filepath.Join(emitSerial(t, other, filepath.Join(root, "other"), "native"), "build/native/hdlgen-run")
	out, stderr, err = output(exec.Command(otherRunner, "-d", spec, "info"))
	if err == nil || out != "" || !strings.Contains(stderr, "is not design") || !strings.Contains(stderr, "model hash reads") {
		t.Errorf("another design's driver: %v, stdout %q, stderr %q; want exit status 1 naming the model hash", err, out, stderr)
	}

	end()
	if !strings.Contains(simErr.String(), " 0 framing errors") {
		t.Errorf("hdlgen-uart-sim: %s", simErr.String())
	}
	t.Log(strings.TrimSpace(simErr.String()))
}

// TestSerialDriverFiles: the iCEBreaker's driver shares the encoder, the
// command-line tool (its CSV reading) and the Python wrapper with the
// ZedBoard's, byte for byte; it builds with warnings as errors; hdlgen-run
// refuses a malformed CSV file, naming its line, before it opens a device;
// a path that is not a serial port fails the self-test with the reason.
func TestSerialDriverFiles(t *testing.T) {
	hwtest.Require(t, hwtest.Make, hwtest.CC)
	m, _ := serialModel(1)
	files, _, err := rtl.Generate(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: 1}, Vectors: 4, Board: board.NameIceBreaker})
	if err != nil {
		t.Fatal(err)
	}
	zynq, _, err := rtl.Generate(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: 1}, Vectors: 4, System: rtl.SystemZynq})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"hdlgen.h", "hdlgen_encode.c", "hdlgen_run.c", "hdlgen.py"} {
		name := hostdrv.Dir + "/" + f
		if files[name] == nil || string(files[name]) != string(zynq[name]) {
			t.Errorf("%s: the iCEBreaker's (%d bytes) is not the ZedBoard's (%d bytes)", name, len(files[name]), len(zynq[name]))
		}
	}
	dir := t.TempDir()
	for name, b := range files {
		if !strings.HasPrefix(name, hostdrv.Dir+"/") {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	drv := filepath.Join(dir, hostdrv.Dir)
	run(t, drv, "make", "-s", "native")
	runner := filepath.Join(drv, "build/native/hdlgen-run")
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("sepal_length,sepal_width,petal_length,petal_width\n1,2,3,4\n1,2,x,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		out  string // stdout, "" for none
		err  string // in stderr
	}{
		{"malformed row", []string{"-d", "serial:/nonexistent/tty", "classify", bad}, "", bad + `:3: field 3 (column "petal_length") is not a finite number: "x"`},
		{"no such port", []string{"-d", "serial:/nonexistent/tty", "selftest"}, "FAIL selftest: open serial:/nonexistent/tty: serial: open /nonexistent/tty: No such file or directory", ""},
		{"not a serial port", []string{"-d", "serial:" + os.DevNull, "info"}, "", "is not a serial port"},
		{"bad option", []string{"-d", "serial:dev=/dev/null,baud=9600", "info"}, "", `unknown option "baud=9600"`},
	} {
		out, stderr, err := output(exec.Command(runner, c.args...))
		if err == nil || !strings.HasPrefix(out, c.out) || (c.out == "" && out != "") || !strings.Contains(stderr, c.err) {
			t.Errorf("%s: %v, stdout %q, stderr %q; want exit status 1, stdout %q, stderr with %q", c.name, err, out, stderr, c.out, c.err)
		}
	}
}
