package refdut

import (
	"bytes"
	_ "embed"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hdlgen/hdlgen/testbench"
)

// Geometry of the reference DUT: the parameter defaults of rtl/ref_top.v.
const (
	K           = 24          // features
	LW          = 3           // bits per level
	MaxLevel    = 1<<LW - 1   // levels are 0..MaxLevel
	L           = 5           // classes
	AW          = 12          // score width
	CW          = 3           // class index width
	IW          = K * LW      // input vector width (72: a VlWide port in Verilator)
	EW          = L*AW + CW   // expected word width (63: a QData port)
	Latency     = 3           // stream top: accept to first out_valid_o
	AxisLatency = Latency + 2 // wrapper: last input beat to first output beat
)

// Mode selects a fault of the reference DUT (mem/ref_mode.mem), read by the
// RTL at start-up, so one build serves every test.
type Mode int

const (
	ModeOK       Mode = 0 // correct
	ModeProtocol Mode = 1 // output changes while valid && !ready
	ModeLatency  Mode = 2 // one cycle more latency than declared
	ModeStuck    Mode = 3 // the output never becomes valid (timeout)
	ModeTlast    Mode = 4 // AXIS: TLAST on the wrong output beat
)

//go:embed rtl/ref_top.v
var refTopV []byte

//go:embed rtl/ref_axis.v
var refAxisV []byte

// ModeFile is the DIR-relative path of the fault-mode file.
const ModeFile = "mem/ref_mode.mem"

// Design is the testbench.Design of the reference DUT.
func Design() testbench.Design {
	return testbench.Design{
		Prefix:        "ref",
		StreamTop:     "ref_top",
		AxisTop:       "ref_axis",
		RTLFiles:      []string{"rtl/ref_axis.v", "rtl/ref_top.v"},
		MemFiles:      []string{ModeFile},
		Part:          testbench.DefaultPart,
		ClockPeriodNS: testbench.DefaultClockPeriodNS,
	}
}

// Result is the output of the DUT for one vector.
type Result struct {
	Class  int
	Scores [L]int
}

// Weight is the reference DUT's weight of feature i for class l, in [-3, 3].
func Weight(l, i int) int { return (3*i+5*l)%7 - 3 }

// Compute returns the DUT's result for one vector of levels.
func Compute(levels []int) Result {
	var r Result
	for l := 0; l < L; l++ {
		s := 0
		for i, v := range levels {
			s += Weight(l, i) * v
		}
		r.Scores[l] = s
		if l == 0 || s > r.Scores[r.Class] {
			r.Class = l
		}
	}
	return r
}

// Cycles are the {accept, first_valid, transfer} cycle numbers of one vector.
type Cycles [3]int

// Vectors is a complete test-vector set for the reference DUT.
type Vectors struct {
	In         [][]int // V vectors of K levels
	Gap        []int   // idle cycles before each vector is offered
	Ready      []int   // out_ready pattern, 0 or 1
	Exp        []Result
	Cycles     []Cycles // stream top
	AxisCycles []Cycles // AXI4-Stream wrapper
	StreamRun  int      // cycles a stream testbench runs: last transfer + 1
	AxisRun    int      // the same for the wrapper (last output beat + 1)
	MaxCycles  int
}

// Generate returns n vectors (corner cases first, then random levels) with
// their expected results and cycle numbers from the Go model.
func Generate(n int, seed uint64) Vectors {
	if n < 1 {
		panic("refdut: need at least one vector")
	}
	rng := rand.New(rand.NewPCG(seed, 0x726566647574))
	var in [][]int
	fill := func(f func(i int) int) {
		v := make([]int, K)
		for i := range v {
			v[i] = f(i)
		}
		in = append(in, v)
	}
	fill(func(int) int { return 0 })
	fill(func(int) int { return MaxLevel })
	fill(func(i int) int { return MaxLevel * (i % 2) })
	fill(func(i int) int { return MaxLevel * (1 - i%2) })
	for j := 0; j < K; j++ {
		fill(func(i int) int {
			if i == j {
				return MaxLevel
			}
			return 0
		})
	}
	for len(in) < n {
		fill(func(int) int { return rng.IntN(MaxLevel + 1) })
	}
	in = in[:n]
	gap := make([]int, n)
	gap[0] = 2
	for v := 1; v < n; v++ {
		if rng.IntN(2) == 0 {
			gap[v] = 1 + rng.IntN(6)
		}
	}
	vs := Vectors{
		In:    in,
		Gap:   gap,
		Ready: []int{1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1},
	}
	for _, v := range in {
		vs.Exp = append(vs.Exp, Compute(v))
	}
	vs.Cycles, vs.StreamRun = streamModel(vs)
	vs.AxisCycles, vs.AxisRun = axisModel(vs)
	vs.MaxCycles = 2*max(vs.StreamRun, vs.AxisRun) + 100
	return vs
}

// streamModel runs the contract's driver (§6) against a register-level model
// of ref_top and returns the cycle numbers and the number of cycles run.
func streamModel(vs Vectors) ([]Cycles, int) {
	n := len(vs.In)
	acc, fv := filled(n), filled(n)
	out := make([]Cycles, n)
	var busy, valid bool
	cnt := 0
	v, o, c := 0, 0, 0
	offer := vs.Gap[0]
	for ; o < n; c++ {
		offering := v < n && c >= offer
		ready := vs.Ready[c%len(vs.Ready)] == 1
		accepted := offering && !busy
		if accepted {
			acc[v] = c
		}
		if valid && fv[o] < 0 {
			fv[o] = c
		}
		xfer := valid && ready
		if xfer {
			out[o] = Cycles{acc[o], fv[o], c}
			o++
		}
		// Registers, as in ref_top.v.
		switch {
		case accepted:
			busy, cnt, valid = true, Latency-1, false
		case busy && !valid:
			valid = cnt == 1
			cnt--
		case xfer:
			busy, valid = false, false
		}
		if accepted {
			v++
			if v < n {
				offer = c + 1 + vs.Gap[v]
			}
		}
	}
	return out, c
}

// axisModel does the same for ref_axis (beats as in §4 and §6).
func axisModel(vs Vectors) ([]Cycles, int) {
	n := len(vs.In)
	acc, fv := filled(n), filled(n)
	out := make([]Cycles, n)
	// Wrapper and core registers.
	var have, busyOut, coreBusy, coreValid bool
	inCnt, beat, coreCnt := 0, 0, 0
	v, b, o, ob, c := 0, 0, 0, 0, 0
	offer := vs.Gap[0]
	for ; o < n; c++ {
		offering := v < n && c >= offer
		ready := vs.Ready[c%len(vs.Ready)] == 1
		beatXfer := offering && !have
		if beatXfer && b == K-1 {
			acc[v] = c
		}
		if busyOut && ob == 0 && fv[o] < 0 {
			fv[o] = c
		}
		outXfer := busyOut && ready
		if outXfer {
			if ob == 0 {
				out[o] = Cycles{acc[o], fv[o], c}
			}
			if ob++; ob == L+1 {
				ob, o = 0, o+1
			}
		}
		// Registers, as in ref_axis.v and ref_top.v.
		coreAccept := have && !coreBusy
		coreXfer := coreValid && !busyOut
		switch {
		case beatXfer:
			if inCnt == K-1 {
				inCnt, have = 0, true
			} else {
				inCnt++
			}
		case coreAccept:
			have = false
		}
		switch {
		case coreAccept:
			coreBusy, coreCnt, coreValid = true, Latency-1, false
		case coreBusy && !coreValid:
			coreValid = coreCnt == 1
			coreCnt--
		case coreXfer:
			coreBusy, coreValid = false, false
		}
		switch {
		case coreXfer:
			busyOut, beat = true, 0
		case outXfer:
			if beat == L {
				busyOut, beat = false, 0
			} else {
				beat++
			}
		}
		if beatXfer {
			if b++; b == K {
				b = 0
				v++
				if v < n {
					offer = c + 1 + vs.Gap[v]
				}
			}
		}
	}
	return out, c
}

func filled(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

// hexWord formats x (non-negative) as ceil(width/4) hexadecimal digits.
func hexWord(x *big.Int, width int) string {
	digits := (width + 3) / 4
	s := x.Text(16)
	if len(s) > digits {
		panic(fmt.Sprintf("refdut: %s wider than %d bits", s, width))
	}
	return strings.Repeat("0", digits-len(s)) + s
}

// setField ORs the two's-complement value v, w bits wide, into x at lsb.
func setField(x *big.Int, lsb, w, v int) {
	f := big.NewInt(int64(v))
	if v < 0 {
		f.Add(f, new(big.Int).Lsh(big.NewInt(1), uint(w)))
	}
	x.Or(x, f.Lsh(f, uint(lsb)))
}

// ExpWord is the packed expected word {scores, class} of r.
func ExpWord(r Result) *big.Int {
	x := new(big.Int)
	setField(x, 0, CW, r.Class)
	for l, s := range r.Scores {
		setField(x, CW+l*AW, AW, s)
	}
	return x
}

// Files returns the DIR-relative vector files of vs (docs/rtl-interface.md §5).
func (vs Vectors) Files() map[string][]byte {
	var in, gap, ready, exp, cyc, acyc, junk strings.Builder
	for v, levels := range vs.In {
		x := new(big.Int)
		for i, lv := range levels {
			setField(x, i*LW, LW, lv)
		}
		fmt.Fprintln(&in, hexWord(x, IW))
		fmt.Fprintf(&gap, "%04x\n", vs.Gap[v])
		fmt.Fprintln(&exp, hexWord(ExpWord(vs.Exp[v]), EW))
		fmt.Fprintf(&cyc, "%08x%08x%08x\n", vs.Cycles[v][0], vs.Cycles[v][1], vs.Cycles[v][2])
		fmt.Fprintf(&acyc, "%08x%08x%08x\n", vs.AxisCycles[v][0], vs.AxisCycles[v][1], vs.AxisCycles[v][2])
		junk.WriteString("0000\n") // ref_axis frames by count: it gets no malformed frames
	}
	for _, r := range vs.Ready {
		fmt.Fprintf(&ready, "%x\n", r)
	}
	params := []struct {
		name string
		val  int
	}{
		{"TV_VECTORS", len(vs.In)}, {"TV_READY_LEN", len(vs.Ready)}, {"TV_IN_W", IW},
		{"TV_LW", LW}, {"TV_K", K}, {"TV_L", L}, {"TV_AW", AW}, {"TV_CW", CW},
		{"TV_EXP_W", EW}, {"TV_LATENCY", Latency}, {"TV_AXIS_LATENCY", AxisLatency},
		{"TV_MAX_CYCLES", vs.MaxCycles}, {"TV_AXIS_DROPS", 0},
	}
	d := Design()
	var vh, h strings.Builder
	vh.WriteString("// Generated by refdut (hdlgen testbench tests); DO NOT EDIT.\n")
	h.WriteString("// Generated by refdut (hdlgen testbench tests); DO NOT EDIT.\n#pragma once\n")
	for _, p := range params {
		fmt.Fprintf(&vh, "`define %s %d\n", p.name, p.val)
		fmt.Fprintf(&h, "constexpr unsigned long long %s = %d;\n", p.name, p.val)
	}
	fmt.Fprintf(&vh, "`define TV_DUT %s\n`define TV_AXIS_DUT %s\n", d.StreamTop, d.AxisTop)
	fmt.Fprintf(&h, "constexpr const char* TV_DUT = %q;\nconstexpr const char* TV_AXIS_DUT = %q;\n", d.StreamTop, d.AxisTop)
	return map[string][]byte{
		"vectors/tv_in.mem":          []byte(in.String()),
		"vectors/tv_gap.mem":         []byte(gap.String()),
		"vectors/tv_ready.mem":       []byte(ready.String()),
		"vectors/tv_exp.mem":         []byte(exp.String()),
		"vectors/tv_cycles.mem":      []byte(cyc.String()),
		"vectors/tv_axis_cycles.mem": []byte(acyc.String()),
		"vectors/tv_axis_junk.mem":   []byte(junk.String()),
		"vectors/tv_params.vh":       []byte(vh.String()),
		"vectors/tv_params.h":        []byte(h.String()),
	}
}

// Write creates a complete design directory in dir: the reference RTL, the
// mode file, the vectors of vs and everything testbench.Files returns.
func Write(dir string, vs Vectors, mode Mode) error {
	files, err := testbench.Files(Design())
	if err != nil {
		return fmt.Errorf("refdut: %w", err)
	}
	files["rtl/ref_top.v"] = refTopV
	files["rtl/ref_axis.v"] = refAxisV
	files[ModeFile] = modeBytes(mode)
	for p, b := range vs.Files() {
		files[p] = b
	}
	return WriteFiles(dir, files)
}

// WriteMode rewrites the fault-mode file of a directory made by Write. The
// RTL reads it at start-up, so no rebuild is needed.
func WriteMode(dir string, mode Mode) error {
	return WriteFiles(dir, map[string][]byte{ModeFile: modeBytes(mode)})
}

func modeBytes(m Mode) []byte { return []byte(fmt.Sprintf("%x\n", int(m))) }

// WriteFiles writes DIR-relative files under dir, in sorted order. A file
// whose content is already on disk is left alone, so its modification time
// does not trigger a rebuild.
func WriteFiles(dir string, files map[string][]byte) error {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if old, err := os.ReadFile(full); err == nil && bytes.Equal(old, files[p]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fmt.Errorf("refdut: %w", err)
		}
		if err := os.WriteFile(full, files[p], 0o644); err != nil {
			return fmt.Errorf("refdut: %w", err)
		}
	}
	return nil
}
