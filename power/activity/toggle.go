package activity

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/proc"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/testbench"
)

// Toggle counting (hdlgen power --activity): the stream top's Yosys netlist,
// rewritten with one wire per net bit named n<bit> (the bit numbers of
// netlist.json), simulated on Verilator with Yosys's Xilinx cell models and
// hdlgen's block-RAM models (the gate-level flow of `verify --gate-level`),
// driven by the design's own test vectors, with a VCD of the top module's
// wires only. Every value change of a wire in the measured window is one
// toggle (zero-delay simulation: functional toggles, no glitches).

// Activity modes: how the vectors are offered.
const (
	// ModeStream offers the next vector in every cycle and keeps out_ready_i
	// high: a saturated stream, one classification every II cycles.
	ModeStream = "stream"
	// ModeSingle offers a vector only after the previous one's output was
	// transferred: one classification at a time in an empty pipeline, each
	// taking the latency.
	ModeSingle = "single"
)

// DefaultVectors is the number of vectors each activity run
// simulates when MeasureOptions.Vectors is 0.
const DefaultVectors = 16

// MeasureOptions control Measure.
type MeasureOptions struct {
	// Vectors per run (0 means DefaultVectors), taken from
	// vectors/tv_in.mem after the corner-case vectors (rtl-interface.md §5:
	// 4 + min(K, 64) of them), cyclically when the file has fewer.
	Vectors int
	// Stride takes every Stride-th vector from there (0 means 1): 2 keeps
	// the vectors drawn from data rows of a design emitted with rows, which
	// rtl/vectors.go puts at the even indices after the corner cases.
	Stride int
	// Modes to run (nil means ModeStream and ModeSingle).
	Modes []string
	Synth synth.Options
	Log   io.Writer // the tools' output; nil discards it
	// KeepBuild keeps DIR/build/activity (the Verilator model); the VCD files
	// are always removed.
	KeepBuild bool
}

// ToggleRun is the toggle count of one simulation run.
type ToggleRun struct {
	Mode    string `json:"mode"`
	Vectors int    `json:"vectors"`
	First   int    `json:"first_vector"` // index of the first vector of tv_in.mem used
	Stride  int    `json:"stride"`       // and every Stride-th after it
	// Cycles is the length of the measured window: from the cycle the first
	// vector is accepted to the cycle the last output is transferred.
	Cycles int `json:"cycles"`
	// Toggles counts the value changes of each net bit in the window.
	Toggles map[synth.Bit]int64 `json:"-"`
	// High is the fraction of the window each net bit spent at 1.
	High     map[synth.Bit]float64 `json:"-"`
	Nets     int                   `json:"nets"` // net bits traced
	Duration time.Duration         `json:"-"`
}

// Rate returns the toggle rate of bit b: toggles per cycle.
func (r *ToggleRun) Rate(b synth.Bit) float64 {
	if r.Cycles <= 0 {
		return 0
	}
	return float64(r.Toggles[b]) / float64(r.Cycles)
}

// Activity is the outcome of Measure.
type Activity struct {
	Dir     string
	Report  *synth.Report
	Netlist *synth.Netlist
	Runs    []ToggleRun
}

// Run returns the run of mode, or nil.
func (a *Activity) Run(mode string) *ToggleRun {
	for i := range a.Runs {
		if a.Runs[i].Mode == mode {
			return &a.Runs[i]
		}
	}
	return nil
}

// ActivityDir is where Measure builds, DIR-relative.
const ActivityDir = testbench.BuildDir + "/activity"

// Measure synthesises dir (cached), simulates its netlist on
// Verilator in each mode and counts the toggles of every net bit.
func Measure(ctx context.Context, dir string, o MeasureOptions) (*Activity, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("activity: %w", err)
	}
	if strings.ContainsAny(abs, " \t\n\"'$\\#%*?[]") {
		return nil, fmt.Errorf("activity: directory %q: make cannot work in a path with spaces or shell/make special characters", abs)
	}
	for _, tool := range []string{"make", "yosys", "awk", "verilator", "g++"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("activity: %s not found in PATH (make deps, or apt-get install make yosys gawk verilator g++)", tool)
		}
	}
	if o.Vectors == 0 {
		o.Vectors = DefaultVectors
	}
	if o.Vectors < 1 {
		return nil, fmt.Errorf("activity: %d vectors, want ≥ 1", o.Vectors)
	}
	if o.Stride == 0 {
		o.Stride = 1
	}
	if o.Stride < 1 {
		return nil, fmt.Errorf("activity: stride %d, want ≥ 1", o.Stride)
	}
	modes := o.Modes
	if modes == nil {
		modes = []string{ModeStream, ModeSingle}
	}
	for _, m := range modes {
		if m != ModeStream && m != ModeSingle {
			return nil, fmt.Errorf("activity: unknown mode %q (want %s or %s)", m, ModeStream, ModeSingle)
		}
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	so := o.Synth
	if so.Log == nil {
		so.Log = log
	}
	rep, err := synth.Run(ctx, abs, so)
	if err != nil {
		return nil, fmt.Errorf("activity: the toggle count needs the synthesised netlist: %w", err)
	}
	f, err := os.Open(filepath.Join(abs, filepath.FromSlash(synth.NetlistFile)))
	if err != nil {
		return nil, fmt.Errorf("activity: %w", err)
	}
	nl, err := synth.ParseNetlist(f, rep.Top)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("activity: %w", err)
	}
	d, err := synth.LoadDesign(abs)
	if err != nil {
		return nil, fmt.Errorf("activity: %w", err)
	}
	build := filepath.Join(abs, filepath.FromSlash(ActivityDir))
	if !o.KeepBuild {
		defer os.RemoveAll(build)
	}
	if err := os.MkdirAll(build, 0o755); err != nil {
		return nil, fmt.Errorf("activity: %w", err)
	}
	var v bytes.Buffer
	if err := WriteNetVerilog(&v, nl); err != nil {
		return nil, err
	}
	if err := writeIfChanged(filepath.Join(build, "act_netlist.v"), v.Bytes()); err != nil {
		return nil, err
	}
	if err := writeIfChanged(filepath.Join(build, "tb_activity.cpp"), []byte(activityTB)); err != nil {
		return nil, err
	}
	exe, err := buildActivityModel(ctx, abs, build, rep.Top, log)
	if err != nil {
		return nil, err
	}
	first := 4 + min(d.Plan.K, 64)
	act := &Activity{Dir: abs, Report: rep, Netlist: nl}
	// The harness gives up after maxCycles: 4 latencies (from the offer) per
	// vector and a margin.
	maxCycles := 1000 + 4*o.Vectors*(d.Plan.Latency+2)
	for _, mode := range modes {
		r, err := runActivity(ctx, abs, exe, build, mode, first, o.Stride, o.Vectors, maxCycles, rep.Top, log)
		if err != nil {
			return nil, err
		}
		act.Runs = append(act.Runs, r)
	}
	return act, nil
}

func writeIfChanged(path string, b []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return nil
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("activity: %w", err)
	}
	return nil
}

// buildActivityModel builds the Verilator model of the rewritten netlist
// (once; a second call reuses it when its sources did not change).
func buildActivityModel(ctx context.Context, dir, build, top string, log io.Writer) (string, error) {
	// Yosys's cell models without their empty RAMB18E1/RAMB36E1: the
	// Makefile's rule of the gate-level flow.
	if err := runLogged(ctx, dir, log, "make", "-C", dir, "--no-print-directory", "build/gate/cells_sim.v"); err != nil {
		return "", fmt.Errorf("activity: Yosys's cell models: %w", err)
	}
	obj := filepath.Join(build, "obj")
	exe := filepath.Join(obj, "Vdut")
	srcs := []string{filepath.Join(build, "act_netlist.v"), filepath.Join(dir, "build", "gate", "cells_sim.v"),
		filepath.Join(dir, "tb", "gate", "RAMB18E1.v"), filepath.Join(dir, "tb", "gate", "RAMB36E1.v"),
		filepath.Join(build, "tb_activity.cpp"), filepath.Join(dir, "vectors", "tv_params.h"), filepath.Join(dir, "tb", "tb_common.h")}
	if fresh(exe, srcs) {
		return exe, nil
	}
	args := []string{"--cc", "--exe", "--build", "-j", "0", "-Wno-fatal", "--language", "1800-2017",
		"-Wno-lint", "-Wno-style", "-Wno-MULTIDRIVEN", "-Wno-UNOPTFLAT",
		// The top module's wires only: TOP (the ports) and the netlist module.
		"--trace", "--trace-depth", "2",
		"--prefix", "Vdut", "-o", "Vdut", "-CFLAGS", "-I" + filepath.Join(dir, "vectors"), "-CFLAGS", "-I" + filepath.Join(dir, "tb"),
		"--top-module", top, "-Mdir", obj}
	opt, err := testbench.CXXOptFromEnv()
	if err != nil {
		return "", fmt.Errorf("activity: %w", err)
	}
	if vars := testbench.CXXOptVars(opt); len(vars) > 0 {
		args = append(args, "-MAKEFLAGS", strings.Join(vars, " "))
	}
	args = append(args, srcs[:5]...)
	if err := runLogged(ctx, dir, log, "verilator", args...); err != nil {
		return "", fmt.Errorf("activity: building the gate-level model: %w", err)
	}
	if h, err := sourcesHash(srcs); err == nil {
		if err := os.WriteFile(exe+".stamp", []byte(h+"\n"), 0o644); err != nil {
			return "", fmt.Errorf("activity: %w", err)
		}
	}
	return exe, nil
}

// fresh reports whether target exists and was built from sources with the
// contents they have now (a stamp file beside it holds their hash: an emit
// rewrites every file of DIR, so modification times say nothing).
func fresh(target string, srcs []string) bool {
	if _, err := os.Stat(target); err != nil {
		return false
	}
	h, err := sourcesHash(srcs)
	if err != nil {
		return false
	}
	b, err := os.ReadFile(target + ".stamp")
	return err == nil && strings.TrimSpace(string(b)) == h
}

func sourcesHash(srcs []string) (string, error) {
	h := sha256.New()
	for _, s := range srcs {
		b, err := os.ReadFile(s)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(s), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func runLogged(ctx context.Context, dir string, log io.Writer, name string, args ...string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = proc.MakeEnv()
	cmd.Stdout = io.MultiWriter(&out, log)
	cmd.Stderr = cmd.Stdout
	proc.Setup(cmd)
	fmt.Fprintf(log, "== activity: %s %s\n", name, strings.Join(args, " "))
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: %w\n%s", name, err, tail(out.String(), 2000))
	}
	return nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

var activityRE = regexp.MustCompile(`^ACTIVITY mode=(\w+) vectors=(\d+) first=(\d+) t0=(\d+) t1=(\d+) cycles=(\d+) mismatches=(\d+)$`)

func runActivity(ctx context.Context, dir, exe, build, mode string, first, stride, n, maxCycles int, top string, log io.Writer) (ToggleRun, error) {
	vcd := filepath.Join(build, mode+".vcd")
	defer os.Remove(vcd)
	t0 := time.Now()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, exe, "+mode="+mode, "+first="+strconv.Itoa(first), "+stride="+strconv.Itoa(stride), "+count="+strconv.Itoa(n),
		"+maxcycles="+strconv.Itoa(maxCycles), "+vectors="+filepath.Join(dir, "vectors"), "+trace="+vcd)
	cmd.Dir = dir // the RTL's ROMs are in the netlist; the block-RAM models need nothing else
	cmd.Stdout = io.MultiWriter(&out, log)
	cmd.Stderr = cmd.Stdout
	proc.Setup(cmd)
	err := cmd.Run()
	if ctx.Err() != nil {
		return ToggleRun{}, ctx.Err()
	}
	if err != nil {
		return ToggleRun{}, fmt.Errorf("activity: %s run of %s: %w\n%s", mode, dir, err, tail(out.String(), 2000))
	}
	var r ToggleRun
	var w0, w1 int64
	found := false
	for _, line := range strings.Split(out.String(), "\n") {
		m := activityRE.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		if m[7] != "0" {
			return r, fmt.Errorf("activity: %s run of %s: %s mismatches against vectors/tv_exp.mem (the gate-level netlist is not bit-exact)", mode, dir, m[7])
		}
		r = ToggleRun{Mode: m[1], Vectors: atoi(m[2]), First: atoi(m[3]), Cycles: atoi(m[6])}
		w0, w1 = int64(atoi(m[4])), int64(atoi(m[5]))
		found = true
	}
	if !found {
		return r, fmt.Errorf("activity: %s run of %s printed no ACTIVITY line:\n%s", mode, dir, tail(out.String(), 2000))
	}
	f, err := os.Open(vcd)
	if err != nil {
		return r, fmt.Errorf("activity: %w", err)
	}
	defer f.Close()
	c, err := CountVCD(f, top, w0, w1)
	if err != nil {
		return r, fmt.Errorf("activity: %s: %w", vcd, err)
	}
	r.Toggles, r.High, r.Nets, r.Stride = c.Toggles, c.High, len(c.Toggles), stride
	r.Duration = time.Since(t0)
	return r, nil
}

// VCDCount is what CountVCD measures.
type VCDCount struct {
	Toggles map[synth.Bit]int64
	High    map[synth.Bit]float64
}

// CountVCD reads a VCD and counts, for every 1-bit variable named n<bit> in
// the scope of module top, its value changes at times t with t0 < t ≤ t1 and
// the fraction of [t0, t1) it spent at 1. Changes at t0 are the window's
// initial state, not toggles.
func CountVCD(r io.Reader, top string, t0, t1 int64) (*VCDCount, error) {
	if t1 <= t0 {
		return nil, fmt.Errorf("empty window [%d, %d]", t0, t1)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	codes := map[string][]synth.Bit{}
	var scope []string
	type state struct {
		val   byte
		since int64 // time of the last change (or t0)
		high  int64
		tog   int64
	}
	st := map[string]*state{}
	now := int64(0)
	header := true
	change := func(code string, v byte) {
		s := st[code]
		if s == nil || s.val == v {
			return
		}
		if now > t0 && now <= t1 {
			s.tog++
		}
		// accumulate the time at 1 inside [t0, t1)
		if s.val == '1' {
			a, b := max(s.since, t0), min(now, t1)
			if b > a {
				s.high += b - a
			}
		}
		s.val, s.since = v, now
	}
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if header {
			fs := strings.Fields(line)
			switch fs[0] {
			case "$scope":
				if len(fs) >= 3 {
					scope = append(scope, fs[2])
				}
			case "$upscope":
				if len(scope) > 0 {
					scope = scope[:len(scope)-1]
				}
			case "$var":
				// $var wire 1 ! n123 $end
				if len(fs) >= 5 && fs[2] == "1" && len(scope) > 0 && scope[len(scope)-1] == top {
					if b, ok := netBit(fs[4]); ok {
						codes[fs[3]] = append(codes[fs[3]], b)
						st[fs[3]] = &state{val: 'x'}
					}
				}
			case "$enddefinitions":
				header = false
			}
			continue
		}
		switch line[0] {
		case '#':
			t, err := strconv.ParseInt(line[1:], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("bad time %q", line)
			}
			now = t
		case '0', '1', 'x', 'z', 'X', 'Z':
			v := line[0]
			if v == 'X' || v == 'Z' || v == 'z' {
				v = 'x'
			}
			change(line[1:], v)
		case 'b', 'B', 'r', 'R':
			// multi-bit and real values: not a net bit
		case '$':
			// $dumpvars, $end, …
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(codes) == 0 {
		return nil, fmt.Errorf("no net variables of module %s (n<bit>) in the trace", top)
	}
	out := &VCDCount{Toggles: map[synth.Bit]int64{}, High: map[synth.Bit]float64{}}
	for code, bits := range codes {
		s := st[code]
		if s.val == '1' {
			a, b := max(s.since, t0), t1
			if b > a {
				s.high += b - a
			}
		}
		for _, b := range bits {
			out.Toggles[b] = s.tog
			out.High[b] = float64(s.high) / float64(t1-t0)
		}
	}
	return out, nil
}

func netBit(name string) (synth.Bit, bool) {
	if len(name) < 2 || name[0] != 'n' {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || n < 0 {
		return 0, false
	}
	return synth.Bit(n), true
}

// WriteNetVerilog writes netlist nl as a flat Verilog module with one wire
// n<bit> per net bit, each cell an instance of its Xilinx primitive with its
// parameters (undefined parameter bits written as 0, as the gate-level
// netlist's setundef -zero -params does), and the ports assigned from and to
// the wires. It is the same netlist as netlist_sim.v, with names that map
// each simulated wire back to its net in netlist.json.
func WriteNetVerilog(w io.Writer, nl *synth.Netlist) error {
	var b bytes.Buffer
	ports := make([]string, 0, len(nl.Ports))
	for name := range nl.Ports {
		ports = append(ports, name)
	}
	slices.Sort(ports)
	nets := map[synth.Bit]bool{}
	for _, p := range nl.Ports {
		for _, bit := range p.Bits {
			if bit.IsNet() {
				nets[bit] = true
			}
		}
	}
	for _, c := range nl.Cells {
		for _, p := range c.Pins {
			for _, bit := range p.Bits {
				if bit.IsNet() {
					nets[bit] = true
				}
			}
		}
	}
	fmt.Fprintf(&b, "// Generated by hdlgen (activity.WriteNetVerilog) from %s: one wire per net bit.\n", synth.NetlistFile)
	fmt.Fprintf(&b, "module %s(%s);\n", nl.Top, strings.Join(ports, ", "))
	for _, name := range ports {
		p := nl.Ports[name]
		dir := p.Dir
		if dir != "input" && dir != "output" {
			return fmt.Errorf("activity: port %s: direction %q", name, dir)
		}
		if len(p.Bits) == 1 {
			fmt.Fprintf(&b, "  %s %s;\n", dir, name)
		} else {
			fmt.Fprintf(&b, "  %s [%d:0] %s;\n", dir, len(p.Bits)-1, name)
		}
	}
	bits := make([]synth.Bit, 0, len(nets))
	for bit := range nets {
		bits = append(bits, bit)
	}
	slices.Sort(bits)
	for _, bit := range bits {
		fmt.Fprintf(&b, "  wire n%d;\n", int(bit))
	}
	for _, name := range ports {
		p := nl.Ports[name]
		for i, bit := range p.Bits {
			ref := name
			if len(p.Bits) > 1 {
				ref = fmt.Sprintf("%s[%d]", name, i)
			}
			if p.Dir == "input" {
				if bit.IsNet() {
					fmt.Fprintf(&b, "  assign n%d = %s;\n", int(bit), ref)
				}
				continue
			}
			fmt.Fprintf(&b, "  assign %s = %s;\n", ref, bitRef(bit))
		}
	}
	for i, c := range nl.Cells {
		fmt.Fprintf(&b, "  %s", c.Type)
		names := make([]string, 0, len(c.Params))
		for k := range c.Params {
			names = append(names, k)
		}
		slices.Sort(names)
		if len(names) > 0 {
			b.WriteString(" #(")
			for j, k := range names {
				v, err := paramLiteral(c.Params[k])
				if err != nil {
					return fmt.Errorf("activity: cell %s parameter %s: %w", c.Name, k, err)
				}
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, ".%s(%s)", k, v)
			}
			b.WriteString(")")
		}
		fmt.Fprintf(&b, " c%d (", i)
		for j, p := range c.Pins {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, ".%s(", p.Port)
			if len(p.Bits) == 1 {
				b.WriteString(bitRef(p.Bits[0]))
			} else {
				b.WriteString("{")
				for k := len(p.Bits) - 1; k >= 0; k-- {
					b.WriteString(bitRef(p.Bits[k]))
					if k > 0 {
						b.WriteString(", ")
					}
				}
				b.WriteString("}")
			}
			b.WriteString(")")
		}
		fmt.Fprintf(&b, "); // %s\n", c.Name)
	}
	b.WriteString("endmodule\n")
	_, err := w.Write(b.Bytes())
	return err
}

func bitRef(b synth.Bit) string {
	switch b {
	case synth.Bit1:
		return "1'b1"
	case synth.Bit0, synth.BitX, synth.BitZ:
		return "1'b0" // undefined drivers: 0, as setundef -zero
	}
	return fmt.Sprintf("n%d", int(b))
}

// paramLiteral renders a Yosys write_json parameter value as a Verilog
// literal: a number stays a number, a string of 0/1/x/z is a binary constant
// of its width (x and z as 0), any other string (or one with the trailing
// space write_json adds to a string that looks binary) a string literal.
func paramLiteral(raw json.RawMessage) (string, error) {
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return strconv.FormatInt(n, 10), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("value %s is neither a number nor a string", raw)
	}
	if s != "" && strings.Trim(s, "01xz") == "" {
		bits := strings.Map(func(r rune) rune {
			if r == 'x' || r == 'z' {
				return '0'
			}
			return r
		}, s)
		return fmt.Sprintf("%d'b%s", len(bits), bits), nil
	}
	return strconv.Quote(strings.TrimSuffix(s, " ")), nil
}

// activityTB is the Verilator testbench of the toggle count: it drives the
// stream top like tb_stream.cpp (reset for 4 edges, 10 time units per cycle)
// with vectors first, first+stride, … of tv_in.mem (count of them, cyclically), out_ready_i
// always high, and checks each output's class and scores against tv_exp.mem.
// +mode=stream offers the next vector in every cycle; +mode=single only
// after the previous output's transfer. It prints the measured window
// [t0, t1] in trace time units: from the rising edge before the first
// vector's offer (its transfer too, unless the design has no input register:
// plan.Plan.HoldInput) to the rising edge of the last transfer. +maxcycles
// bounds the run.
//
//go:embed harness/tb_activity.cpp
var activityTB string

// atoi reads a number the activity line's regexp matched.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic("activity: regexp matched a non-number: " + s)
	}
	return n
}
