package testbench_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/testbench/refdut"
)

// The simulation tests share one build of the reference design: the two
// Verilator models and the two Icarus programs. Each case then runs the built
// simulators in its own working directory (mem/ref_mode.mem selects the
// fault) with its own vectors (+vectors=...), so cases run in parallel.

const fixtureVectors = 64

var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixtureErr  error
	fixtureVS   refdut.Vectors
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
	os.Exit(code)
}

// fixture builds the reference design once (make verilator icarus, which also
// runs both testbenches on the correct vectors) and returns its directory.
func fixture(t *testing.T) (string, refdut.Vectors) {
	t.Helper()
	hwtest.Require(t, hwtest.Verilator, hwtest.Icarus)
	fixtureOnce.Do(func() {
		fixtureVS = refdut.Generate(fixtureVectors, 1)
		fixtureDir, fixtureErr = os.MkdirTemp("", "hdlgen-testbench-")
		if fixtureErr != nil {
			return
		}
		if fixtureErr = refdut.Write(fixtureDir, fixtureVS, refdut.ModeOK); fixtureErr != nil {
			return
		}
		cmd := exec.Command("make", "--no-print-directory", "verilator", "icarus")
		cmd.Dir = fixtureDir
		cmd.Env = append(os.Environ(), "MAKEFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			fixtureErr = fmt.Errorf("make verilator icarus: %v\n%s", err, out)
		}
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixtureDir, fixtureVS
}

type simulator struct {
	name string
	argv func(fix, target string) []string
}

var simulators = []simulator{
	{"verilator", func(fix, target string) []string {
		return []string{filepath.Join(fix, "build", "verilator", target, "Vdut")}
	}},
	{"icarus", func(fix, target string) []string {
		return []string{"vvp", "-n", filepath.Join(fix, "build", "icarus", "tb_"+target+".vvp")}
	}},
}

// runCase lays out a run directory with vs's vectors and mode, runs one
// simulator on one target there and returns its report lines (the testbench
// lines only: vvp's own $fatal lines are dropped) and whether it exited 0.
func runCase(t *testing.T, fix string, sim simulator, target string, files map[string][]byte) ([]string, bool) {
	t.Helper()
	run := t.TempDir()
	if err := refdut.WriteFiles(run, files); err != nil {
		t.Fatal(err)
	}
	argv := append(sim.argv(fix, target), "+vectors="+filepath.Join(run, "vectors"))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = run
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("%s: %v", strings.Join(argv, " "), err)
	}
	var lines, rates []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.HasPrefix(l, "FATAL: ") || strings.HasPrefix(strings.TrimSpace(l), "Time: ") {
			continue
		}
		if strings.HasPrefix(l, "SIMRATE ") {
			rates = append(rates, l)
			continue
		}
		lines = append(lines, l)
	}
	checkSimRate(t, sim.name, lines, rates)
	return lines, err == nil
}

var (
	simRateRE = regexp.MustCompile(`^SIMRATE cycles=(\d+) wall_ns=(\d+)$`)
	verdictRE = regexp.MustCompile(`^(?:PASS|FAIL) vectors=\d+ cycles=(\d+) `)
)

// checkSimRate checks the SIMRATE line (tb_common.h): the Verilator
// testbenches print exactly one, with the cycle count of the PASS or FAIL line
// and a positive host time, whenever they print a verdict; Icarus prints none.
// runCase drops it from the lines it returns, so that the two simulators'
// reports compare equal.
func checkSimRate(t *testing.T, sim string, lines, rates []string) {
	t.Helper()
	var verdict []string
	if len(lines) > 0 {
		verdict = verdictRE.FindStringSubmatch(lines[len(lines)-1])
	}
	switch {
	case sim != "verilator" || verdict == nil:
		if len(rates) != 0 {
			t.Errorf("%s: unexpected %q", sim, rates)
		}
	case len(rates) != 1:
		t.Errorf("%s: %d SIMRATE lines, want 1: %q", sim, len(rates), rates)
	default:
		m := simRateRE.FindStringSubmatch(rates[0])
		if m == nil || m[1] != verdict[1] || m[2] == "0" {
			t.Errorf("%s: %q, want SIMRATE cycles=%s wall_ns=<positive>", sim, rates[0], verdict[1])
		}
	}
}

// caseFiles are the run-directory files of a case: the vectors and the mode.
func caseFiles(vs refdut.Vectors, mode refdut.Mode) map[string][]byte {
	files := vs.Files()
	files[refdut.ModeFile] = []byte(fmt.Sprintf("%x\n", int(mode)))
	return files
}

// copyVS returns a deep copy of vs, so a case can change it.
func copyVS(vs refdut.Vectors) refdut.Vectors {
	c := vs
	c.Exp = append([]refdut.Result(nil), vs.Exp...)
	c.Cycles = append([]refdut.Cycles(nil), vs.Cycles...)
	c.AxisCycles = append([]refdut.Cycles(nil), vs.AxisCycles...)
	return c
}

func cycles(vs refdut.Vectors, target string) []refdut.Cycles {
	if target == "axis" {
		return vs.AxisCycles
	}
	return vs.Cycles
}

func lastCycle(vs refdut.Vectors, target string) int {
	if target == "axis" {
		return vs.AxisRun
	}
	return vs.StreamRun
}

// firstNegative returns a vector and class whose expected score is negative.
func firstNegative(t *testing.T, vs refdut.Vectors) (int, int) {
	for v, r := range vs.Exp {
		for l, s := range r.Scores {
			if s < 0 {
				return v, l
			}
		}
	}
	t.Fatal("no negative score in the vectors")
	return 0, 0
}

// TestSimulators checks that both testbenches pass a correct DUT, and fail,
// with the same first report line on both simulators, on every kind of
// mismatch: a wrong expected value, a wrong cycle number, a protocol
// violation, a wrong latency, a timeout, a wrong TLAST.
func TestSimulators(t *testing.T) {
	fix, base := fixture(t)
	negV, negL := firstNegative(t, base)
	// The first stream output held under back-pressure, for the protocol case.
	heldV := -1
	for v, c := range base.Cycles {
		if c[1] < c[2] {
			heldV = v
			break
		}
	}
	if heldV < 0 {
		t.Fatal("no output is held in the fixture vectors")
	}
	heldWord := new(big.Int).SetBit(refdut.ExpWord(base.Exp[heldV]), refdut.EW, 1)
	toggled := new(big.Int).Xor(heldWord, big.NewInt(1))

	type tc struct {
		name    string
		targets []string
		mode    refdut.Mode
		change  func(vs *refdut.Vectors, target string)
		pass    bool
		first   func(vs refdut.Vectors, target string) string // want first line; nil: see contains
		contain string                                        // a line that must appear
	}
	cases := []tc{
		{
			name: "correct", targets: []string{"stream", "axis"}, pass: true,
			first: func(vs refdut.Vectors, target string) string {
				lat := refdut.Latency
				if target == "axis" {
					lat = refdut.AxisLatency
				}
				return fmt.Sprintf("PASS vectors=%d cycles=%d latency=%d", fixtureVectors, lastCycle(vs, target), lat)
			},
		},
		{
			name: "class", targets: []string{"stream", "axis"},
			change: func(vs *refdut.Vectors, _ string) { vs.Exp[4].Class = (vs.Exp[4].Class + 1) % refdut.L },
			first: func(vs refdut.Vectors, _ string) string {
				return fmt.Sprintf("MISMATCH vector=4 field=class expected=%d got=%d", vs.Exp[4].Class, base.Exp[4].Class)
			},
		},
		{
			name: "score", targets: []string{"stream", "axis"},
			change: func(vs *refdut.Vectors, _ string) { vs.Exp[7].Scores[2]++ },
			first: func(vs refdut.Vectors, _ string) string {
				return fmt.Sprintf("MISMATCH vector=7 field=score[2] expected=%d got=%d", vs.Exp[7].Scores[2], base.Exp[7].Scores[2])
			},
		},
		{
			name: "negative_score", targets: []string{"stream", "axis"},
			change: func(vs *refdut.Vectors, _ string) { vs.Exp[negV].Scores[negL] = -vs.Exp[negV].Scores[negL] },
			first: func(vs refdut.Vectors, _ string) string {
				return fmt.Sprintf("MISMATCH vector=%d field=score[%d] expected=%d got=%d", negV, negL, -base.Exp[negV].Scores[negL], base.Exp[negV].Scores[negL])
			},
		},
		{
			name: "accept_cycle", targets: []string{"stream", "axis"},
			change: func(vs *refdut.Vectors, target string) { cycles(*vs, target)[9][0]++ },
			first: func(vs refdut.Vectors, target string) string {
				c := cycles(base, target)[9][0]
				return fmt.Sprintf("MISMATCH vector=9 field=accept_cycle expected=%d got=%d", c+1, c)
			},
		},
		{
			name: "first_valid_cycle", targets: []string{"stream", "axis"},
			change: func(vs *refdut.Vectors, target string) { cycles(*vs, target)[10][1]-- },
			first: func(vs refdut.Vectors, target string) string {
				c := cycles(base, target)[10][1]
				return fmt.Sprintf("MISMATCH vector=10 field=first_valid_cycle expected=%d got=%d", c-1, c)
			},
		},
		{
			name: "transfer_cycle_high_bit", targets: []string{"stream", "axis"},
			change: func(vs *refdut.Vectors, target string) { cycles(*vs, target)[63][2] |= 1 << 30 },
			first: func(vs refdut.Vectors, target string) string {
				c := cycles(base, target)[63][2]
				return fmt.Sprintf("MISMATCH vector=63 field=transfer_cycle expected=%d got=%d", c|1<<30, c)
			},
		},
		{
			name: "protocol_stream", targets: []string{"stream"}, mode: refdut.ModeProtocol,
			first: func(refdut.Vectors, string) string {
				return fmt.Sprintf("MISMATCH vector=%d field=protocol expected=0x%s got=0x%s", heldV, heldWord.Text(16), toggled.Text(16))
			},
		},
		{
			name: "protocol_axis", targets: []string{"axis"}, mode: refdut.ModeProtocol,
			contain: "field=protocol",
		},
		{
			name: "latency", targets: []string{"stream", "axis"}, mode: refdut.ModeLatency,
			first: func(vs refdut.Vectors, target string) string {
				c := cycles(base, target)[0][1]
				return fmt.Sprintf("MISMATCH vector=0 field=first_valid_cycle expected=%d got=%d", c, c+1)
			},
		},
		{
			name: "latency_declared", targets: []string{"stream"}, mode: refdut.ModeLatency,
			contain: fmt.Sprintf("MISMATCH vector=0 field=latency expected=%d got=%d", refdut.Latency, refdut.Latency+1),
		},
		{
			name: "timeout", targets: []string{"stream", "axis"}, mode: refdut.ModeStuck,
			first: func(vs refdut.Vectors, _ string) string {
				return fmt.Sprintf("TIMEOUT vector=0 cycles=%d", vs.MaxCycles)
			},
		},
		{
			name: "tlast", targets: []string{"axis"}, mode: refdut.ModeTlast,
			first: func(refdut.Vectors, string) string { return "MISMATCH vector=0 field=tlast expected=0 got=1" },
		},
	}
	for _, c := range cases {
		for _, target := range c.targets {
			t.Run(c.name+"/"+target, func(t *testing.T) {
				t.Parallel()
				vs := copyVS(base)
				if c.change != nil {
					c.change(&vs, target)
				}
				files := caseFiles(vs, c.mode)
				var outs [][]string
				for _, sim := range simulators {
					lines, ok := runCase(t, fix, sim, target, files)
					if ok != c.pass {
						t.Errorf("%s: exit ok = %v, want %v; output:\n%s", sim.name, ok, c.pass, strings.Join(lines, "\n"))
					}
					if len(lines) == 0 {
						t.Fatalf("%s: no output", sim.name)
					}
					if c.first != nil {
						if diff := cmp.Diff(c.first(vs, target), lines[0]); diff != "" {
							t.Errorf("%s: first line (-want +got):\n%s", sim.name, diff)
						}
					}
					if c.contain != "" && !containsLine(lines, c.contain) {
						t.Errorf("%s: no line contains %q; output:\n%s", sim.name, c.contain, strings.Join(lines, "\n"))
					}
					last := lines[len(lines)-1]
					if want := map[bool]string{true: "PASS ", false: "FAIL "}[c.pass]; !strings.HasPrefix(last, want) {
						t.Errorf("%s: last line %q, want prefix %q", sim.name, last, want)
					}
					outs = append(outs, lines)
				}
				if diff := cmp.Diff(outs[0], outs[1]); diff != "" {
					t.Errorf("verilator and icarus disagree (-verilator +icarus):\n%s", diff)
				}
			})
		}
	}
}

func containsLine(lines []string, s string) bool {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// TestMismatchLimit checks that a run stops after exactly 10 mismatch lines.
func TestMismatchLimit(t *testing.T) {
	fix, base := fixture(t)
	vs := copyVS(base)
	for v := range vs.Exp {
		vs.Exp[v].Class = (vs.Exp[v].Class + 1) % refdut.L
	}
	for _, target := range []string{"stream", "axis"} {
		for _, sim := range simulators {
			lines, ok := runCase(t, fix, sim, target, caseFiles(vs, refdut.ModeOK))
			n := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "MISMATCH ") {
					n++
				}
			}
			// The 10th mismatch is at the transfer of output 9: the stream top has
			// transferred 10 outputs, the wrapper only beat 0 of the 10th.
			done := map[string]int{"stream": 10, "axis": 9}[target]
			want := fmt.Sprintf("FAIL vectors=%d cycles=%d mismatches=10", done, cycles(base, target)[9][2]+1)
			if ok || n != 10 || lines[len(lines)-1] != want {
				t.Errorf("%s/%s: ok=%v, %d mismatch lines, last %q; want failure after 10", sim.name, target, ok, n, lines[len(lines)-1])
			}
		}
	}
}

// TestEveryOutputBit flips each bit of one expected word in turn: every flip
// must fail and name the field that holds the bit, on Verilator for every bit
// and on Icarus (slower) for the lowest, a middle and the highest bit of each
// field.
func TestEveryOutputBit(t *testing.T) {
	fix, base := fixture(t)
	const v = 5
	for _, target := range []string{"stream", "axis"} {
		t.Run(target, func(t *testing.T) {
			t.Parallel()
			for bit := 0; bit < refdut.EW; bit++ {
				files := caseFiles(base, refdut.ModeOK)
				lines := strings.Split(strings.TrimSuffix(string(files["vectors/tv_exp.mem"]), "\n"), "\n")
				w, _ := new(big.Int).SetString(lines[v], 16)
				w.SetBit(w, bit, w.Bit(bit)^1)
				lines[v] = fmt.Sprintf("%0*s", len(lines[v]), w.Text(16))
				files["vectors/tv_exp.mem"] = []byte(strings.Join(lines, "\n") + "\n")
				field := "class"
				if bit >= refdut.CW {
					field = fmt.Sprintf("score[%d]", (bit-refdut.CW)/refdut.AW)
				}
				want := fmt.Sprintf("MISMATCH vector=%d field=%s ", v, field)
				pos := bit
				if bit >= refdut.CW {
					pos = (bit - refdut.CW) % refdut.AW
				}
				width := map[bool]int{true: refdut.CW, false: refdut.AW}[bit < refdut.CW]
				edge := pos == 0 || pos == width/2 || pos == width-1
				for _, sim := range simulators {
					if sim.name == "icarus" && !edge {
						continue
					}
					out, ok := runCase(t, fix, sim, target, files)
					if ok || !strings.HasPrefix(out[0], want) {
						t.Errorf("bit %d, %s: ok=%v, first line %q, want prefix %q", bit, sim.name, ok, out[0], want)
					}
				}
			}
		})
	}
}

// TestBadVectors checks that unreadable vector files stop both testbenches
// with an ERROR line and a non-zero exit instead of passing.
func TestBadVectors(t *testing.T) {
	fix, base := fixture(t)
	cases := []struct {
		name    string
		path    string
		edit    func(b []byte) []byte
		cxxOnly bool // only the C++ reader is strict about digit counts and widths
	}{
		{"missing_line", "vectors/tv_exp.mem", func(b []byte) []byte {
			return b[:bytes.LastIndexByte(b[:len(b)-1], '\n')+1]
		}, false},
		{"bad_digit", "vectors/tv_gap.mem", func(b []byte) []byte {
			b = append([]byte(nil), b...)
			b[3] = 'g'
			return b
		}, false},
		{"ready_not_bit", "vectors/tv_ready.mem", func(b []byte) []byte { return append([]byte("2\n"), b[2:]...) }, false},
		{"extra_digit", "vectors/tv_in.mem", func(b []byte) []byte { return append([]byte("0"), b...) }, true},
		{"too_wide", "vectors/tv_exp.mem", func(b []byte) []byte {
			b = append([]byte(nil), b...)
			b[0] = '8' // 63-bit words: the top digit is at most 7
			return b
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := caseFiles(base, refdut.ModeOK)
			files[c.path] = c.edit(files[c.path])
			for _, target := range []string{"stream", "axis"} {
				for _, sim := range simulators {
					if c.cxxOnly && sim.name == "icarus" {
						continue
					}
					lines, ok := runCase(t, fix, sim, target, files)
					if ok || !containsLine(lines, "ERROR") {
						t.Errorf("%s/%s: ok=%v, want an ERROR line and failure; output:\n%s", sim.name, target, ok, strings.Join(lines, "\n"))
					}
				}
			}
		})
	}
}

// TestCompilerWarnings compiles the C++ testbenches with every warning on
// and the Verilog ones with iverilog -Wall: neither may print anything.
func TestCompilerWarnings(t *testing.T) {
	fix, _ := fixture(t)
	for _, target := range []string{"stream", "axis"} {
		mdir := filepath.Join(fix, "build", "verilator", target)
		cxx := exec.Command("g++", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Wshadow",
			"-Wconversion", "-Wsign-conversion", "-Werror",
			"-isystem", mdir, "-isystem", "/usr/share/verilator/include",
			"-isystem", "/usr/share/verilator/include/vltstd",
			"-I", filepath.Join(fix, "vectors"), "-I", filepath.Join(fix, "tb"),
			"-DVM_TRACE=0", filepath.Join(fix, "tb", "tb_"+target+".cpp"))
		if out, err := cxx.CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("g++ tb_%s.cpp: %v\n%s", target, err, out)
		}
		iv := exec.Command("iverilog", "-g2005", "-Wall", "-I", "vectors", "-s", "tb_"+target,
			"-o", filepath.Join(t.TempDir(), "x.vvp"), "tb/tb_"+target+".v", "rtl/ref_top.v", "rtl/ref_axis.v")
		iv.Dir = fix
		if out, err := iv.CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("iverilog tb_%s.v: %v\n%s", target, err, out)
		}
	}
}
