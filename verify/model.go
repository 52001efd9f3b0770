package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/designdir"
	"github.com/hdlgen/hdlgen/internal/memfile"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/sim"
)

// maxModelMismatches bounds the MISMATCH lines of the model step, as the
// testbenches bound theirs (docs/rtl-interface.md §7).
const maxModelMismatches = 10

// emitted reports whether dir was written by hdlgen emit (it holds the
// marker file), so that it must hold the model it was emitted from.
func emitted(dir string) bool { return exists(filepath.Join(dir, designdir.MarkerFile)) }

// checkModel is the model step: designdir.Open's checks (DIR/model.json is
// the model DIR/design.json was derived from, the emit's files are present),
// the ROM files of DIR/mem hold what the model gives, and
// DIR/vectors/tv_params.vh and the expected outputs of DIR/vectors/tv_exp.mem
// were derived from the model: the Go simulator of the plan must give, for
// every input of tv_in.mem, the class and scores of tv_exp.mem. A mismatch
// line reads
//
//	MISMATCH vector=<v> field=<class|score[l]> expected=<from model.json> got=<from tv_exp.mem>
func checkModel(ctx context.Context, dir string) Result {
	start := time.Now()
	res := Result{Name: string(StepModel), Step: StepModel}
	fail := func(format string, args ...any) Result {
		res.Diagnostics = append(res.Diagnostics, "ERROR "+fmt.Sprintf(format, args...))
		res.Duration = time.Since(start)
		return res
	}
	d, err := designdir.Open(dir)
	if err != nil {
		return fail("%v", err)
	}
	if err := d.CheckROMs(); err != nil {
		return fail("%v", err)
	}
	m, pl := d.Model, d.Plan
	if msg := checkParams(filepath.Join(dir, "vectors", "tv_params.vh"), pl); msg != "" {
		return fail("%s", msg)
	}
	in, err := memfile.Read(filepath.Join(dir, "vectors", "tv_in.mem"), pl.IW)
	if err != nil {
		return fail("%v", err)
	}
	exp, err := memfile.Read(filepath.Join(dir, "vectors", "tv_exp.mem"), pl.OW)
	if err != nil {
		return fail("%v", err)
	}
	if len(in) != len(exp) {
		return fail("vectors: tv_in.mem has %d lines, tv_exp.mem %d", len(in), len(exp))
	}
	st := sim.Stimulus{Inputs: make([][]int, len(in)), Gaps: make([]int, len(in)), Ready: []bool{true}}
	for v, line := range in {
		st.Inputs[v] = make([]int, pl.K)
		for i := range st.Inputs[v] {
			st.Inputs[v][i] = int(memfile.Field(line, i*pl.LW, pl.LW))
		}
	}
	core, err := sim.New(m, pl)
	if err != nil {
		return fail("%v", err)
	}
	run, err := core.RunStream(ctx, st)
	if err != nil {
		return fail("vectors: tv_in.mem is not an input set of model.json: %v", err)
	}
	n := 0
	mismatch := func(v int, name string, want, got int64) {
		n++
		if n <= maxModelMismatches {
			res.Mismatches = append(res.Mismatches, fmt.Sprintf("MISMATCH vector=%d field=%s expected=%d got=%d", v, name, want, got))
		}
	}
	for v, line := range exp {
		o := run.Outputs[v]
		if c := int64(memfile.Field(line, 0, pl.CW)); c != int64(o.Class) {
			mismatch(v, "class", int64(o.Class), c)
		}
		for l, s := range o.Scores {
			if got := memfile.Signed(memfile.Field(line, pl.CW+l*pl.AW, pl.AW), pl.AW); got != s {
				mismatch(v, fmt.Sprintf("score[%d]", l), s, got)
			}
		}
	}
	res.Vectors = len(in)
	res.Passed = n == 0
	if n > 0 {
		res.Diagnostics = append(res.Diagnostics, fmt.Sprintf("ERROR tv_exp.mem differs from model.json's outputs in %d fields: the vectors were not emitted from this model", n))
	}
	res.Duration = time.Since(start)
	return res
}

// checkParams compares the numeric `define lines of tv_params.vh that the
// plan determines; "" when they agree.
func checkParams(path string, pl *plan.Plan) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	have := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "`define" {
			have[f[1]] = f[2]
		}
	}
	for _, p := range []struct {
		name  string
		value int
	}{
		{"TV_IN_W", pl.IW}, {"TV_LW", pl.LW}, {"TV_K", pl.K}, {"TV_L", pl.L}, {"TV_AW", pl.AW}, {"TV_CW", pl.CW},
		{"TV_EXP_W", pl.OW}, {"TV_LATENCY", pl.AcceptLatency()}, {"TV_AXIS_LATENCY", pl.AxisLatency},
	} {
		if got := have[p.name]; got != strconv.Itoa(p.value) {
			return fmt.Sprintf("%s: %s is %q, model.json gives %d", path, p.name, got, p.value)
		}
	}
	return ""
}
