package hostdrv_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/hostdrv"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
)

// design returns a driver Design for a random model of shape s with the
// normaliser norm (nil: [0, 1] per feature), at parallelism p.
func design(t testing.TB, s randmodel.Shape, norm *model.Normalizer, p int) hostdrv.Design {
	t.Helper()
	return designWith(t, s, norm, p, true)
}

// designWith is design with or without score beats in the records.
func designWith(t testing.TB, s randmodel.Shape, norm *model.Normalizer, p int, scores bool) hostdrv.Design {
	t.Helper()
	m := randmodel.Random(s, "enc test", 3)
	if norm != nil {
		m.Norm = *norm
	}
	js, err := model.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := plan.New(m, plan.Options{Parallel: p})
	if err != nil {
		t.Fatal(err)
	}
	id, err := regmap.NewIdentity(pl, js, pl.Latency, max(pl.Groups, 2), true, scores)
	if err != nil {
		t.Fatal(err)
	}
	return hostdrv.Design{Model: m, Plan: pl, Identity: id, Top: pl.Prefix + "_system",
		RTLFiles: []string{"rtl/" + pl.Prefix + "_system.v"}, ClockHz: 100e6, SelfTest: selfTest(t, m, pl, 8)}
}

// selfTest returns n self-test vectors of m: inputs drawn from [0, max] and
// the model's class and scores for them.
func selfTest(t testing.TB, m *model.Model, pl *plan.Plan, n int) hostdrv.SelfTest {
	t.Helper()
	net, err := m.Integer()
	if err != nil {
		t.Fatal(err)
	}
	maxIn := pl.N
	if pl.Arch == model.RVFL8 {
		maxIn = 255
	}
	var st hostdrv.SelfTest
	h := make([]int, pl.N)
	for v := 0; v < n; v++ {
		in := make([]int, pl.K)
		for i := range in {
			in[i] = (v*7 + i*13) % (maxIn + 1)
		}
		net.HiddenIntsTo(h, in)
		scores := m.Readout.Scores(h, pl.L)
		st.Inputs = append(st.Inputs, in)
		st.Scores = append(st.Scores, scores)
		st.Classes = append(st.Classes, model.ArgmaxInt(scores))
	}
	return st
}

// writeDriver writes the driver files of d under a new temporary directory
// and returns the driver directory.
func writeDriver(t testing.TB, d hostdrv.Design) string {
	t.Helper()
	files, err := hostdrv.Files(d)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for name, b := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(root, hostdrv.Dir)
}

// quick reports whether the quick tier runs (go test -short): the encoder
// comparisons then use fewer values.
func quick() bool { return hwtest.Missing(hwtest.Slow("the full encoder comparison")) != "" }

// run runs a command in dir and fails the test with its output on error.
func run(t testing.TB, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// cflags are the driver Makefile's C flags (the encoder's contract).
var cflags = []string{"-std=c11", "-ffp-contract=off", "-fno-fast-math", "-Wall", "-Wextra", "-Werror", "-O2"}
