package verify

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/sim"
)

// maxModelMismatches bounds the MISMATCH lines of the model step, as the
// testbenches bound theirs (docs/rtl-interface.md §7).
const maxModelMismatches = 10

// emitted reports whether dir was written by hdlgen emit (it holds the
// marker file), so that it must hold the model it was emitted from.
func emitted(dir string) bool { return exists(filepath.Join(dir, rtl.MarkerFile)) }

// checkModel is the model step: DIR/model.json must be the model that
// DIR/design.json, DIR/vectors/tv_params.vh and the expected outputs of
// DIR/vectors/tv_exp.mem were derived from. The plan is derived again from
// the model (with the P and pipeline rules design.json records) and must
// give design.json byte for byte and the vector parameters; the Go simulator
// of that plan must give, for every input of tv_in.mem, the class and scores
// of tv_exp.mem. A mismatch line reads
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
	m, err := model.ReadFile(filepath.Join(dir, "model.json"))
	if err != nil {
		return fail("%v", err)
	}
	designPath := filepath.Join(dir, "design.json")
	design, err := os.ReadFile(designPath)
	if err != nil {
		return fail("%v", err)
	}
	opts, err := plan.RecordedOptions(design)
	if err != nil {
		return fail("%s: %v", designPath, err)
	}
	pl, err := plan.New(m, opts)
	if err != nil {
		return fail("model.json does not give the design of design.json: %v", err)
	}
	want, err := pl.JSON()
	if err != nil {
		return fail("%v", err)
	}
	if !bytes.Equal(want, design) {
		return fail("design.json was not emitted from model.json: %s", jsonDiff(want, design))
	}
	if msg := checkParams(filepath.Join(dir, "vectors", "tv_params.vh"), pl); msg != "" {
		return fail("%s", msg)
	}
	in, err := readMem(filepath.Join(dir, "vectors", "tv_in.mem"), pl.IW)
	if err != nil {
		return fail("%v", err)
	}
	exp, err := readMem(filepath.Join(dir, "vectors", "tv_exp.mem"), pl.OW)
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
			st.Inputs[v][i] = int(field(line, i*pl.LW, pl.LW))
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
		if c := int64(field(line, 0, pl.CW)); c != int64(o.Class) {
			mismatch(v, "class", int64(o.Class), c)
		}
		for l, s := range o.Scores {
			if got := signed(field(line, pl.CW+l*pl.AW, pl.AW), pl.AW); got != s {
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

// jsonDiff names the first top-level fields (at most three) in which two
// design.json texts differ.
func jsonDiff(want, got []byte) string {
	var a, b map[string]json.RawMessage
	if json.Unmarshal(want, &a) != nil || json.Unmarshal(got, &b) != nil {
		return "the files differ"
	}
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var diffs []string
	for _, k := range keys {
		if !bytes.Equal(compact(a[k]), compact(b[k])) {
			diffs = append(diffs, fmt.Sprintf("%s is %s in design.json, %s from model.json", k, orNone(compact(b[k])), orNone(compact(a[k]))))
		}
	}
	if len(diffs) == 0 {
		return "the files differ in layout"
	}
	return strings.Join(diffs[:min(3, len(diffs))], "; ")
}

func compact(b json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

func orNone(b []byte) string {
	if len(b) == 0 {
		return "absent"
	}
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
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

// readMem reads a $readmemh file of words of width bits: every line exactly
// ⌈width/4⌉ hexadecimal digits (docs/rtl-interface.md §5).
func readMem(path string, width int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	digits := (width + 3) / 4
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if len(line) != digits || strings.Trim(line, "0123456789abcdefABCDEF") != "" {
			return nil, fmt.Errorf("%s:%d: want %d hexadecimal digits (%d bits), got %q", path, n, digits, width, line)
		}
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return lines, nil
}

// field returns bits [lo, lo+w) of a hexadecimal word (w ≤ 64; bit 0 is the
// least significant bit of the last digit). The line was checked by readMem.
func field(line string, lo, w int) uint64 {
	var v uint64
	for b := 0; b < w; b++ {
		pos := lo + b
		d := len(line) - 1 - pos/4
		if d < 0 {
			break
		}
		x, _ := strconv.ParseUint(line[d:d+1], 16, 8)
		if x>>(pos%4)&1 == 1 {
			v |= 1 << b
		}
	}
	return v
}

// signed reads a w-bit two's complement value.
func signed(v uint64, w int) int64 {
	if w < 64 && v&(1<<(w-1)) != 0 {
		return int64(v) - 1<<w
	}
	return int64(v)
}
