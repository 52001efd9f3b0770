package synth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/designdir"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth/script"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseStat(t *testing.T) {
	tests := []struct {
		file string
		want Report
	}{
		{"stat_rvfl8_k16_n512_l4_p1.json", Report{
			LUTBySize: [6]int{1, 47, 138, 12, 62, 195}, LUTs: 455, EstimatedLCs: 407, FFs: 287, CARRY4: 22,
			MUXF7: 39, MUXF8: 14, DSP48E1: 20, RAMB18E1: 1, RAMB36E1: 2, SRL: 11, Inverter: 11}},
		{"stat_intrvfl_k4_n32_l2_p1.json", Report{}},
	}
	for _, tc := range tests {
		r, err := ParseStat(readFixture(t, tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		total := 0
		for _, n := range r.Cells {
			total += n
		}
		if total == 0 || r.LUTs == 0 || r.FFs == 0 {
			t.Errorf("%s: empty report %+v", tc.file, r)
		}
		if est := EstimateLCs(r.LUTBySize); r.EstimatedLCs != est {
			t.Errorf("%s: estimated_num_lc %d, formula gives %d", tc.file, r.EstimatedLCs, est)
		}
		if tc.want.LUTs == 0 {
			continue
		}
		got := *r
		got.Cells = nil
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
		if r.BRAM36() != 2.5 {
			t.Errorf("BRAM36 %v, want 2.5", r.BRAM36())
		}
	}
}

func TestParseStatErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"hierarchical", string(readFixture(t, "stat_hierarchical_invalid.json")), "invalid JSON for hierarchical"},
		{"no design", `{"modules": {"t": {}}}`, `no "design" section`},
		{"two modules", `{"modules": {"a": {}, "b": {}}, "design": {"num_cells_by_type": {}}}`, "2 modules (a, b)"},
		{"unmapped", `{"modules": {"a": {}}, "design": {"num_cells_by_type": {"$add": 3}}}`, "unmapped cell type $add"},
	}
	for _, tc := range tests {
		_, err := ParseStat([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

func TestParseNetlist(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "netlist_small.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	nl, err := ParseNetlist(f, "t_top")
	if err != nil {
		t.Fatal(err)
	}
	// FF → INV (0) → LUT2 → CARRY4 → CARRY4 (carry chain) → LUT6 → FF: 4 levels;
	// the DSP48E1 with PREG is a path end point, LUT1 behind it one level.
	if nl.Depth != 4 || nl.Note != "" {
		t.Errorf("depth %d (%s), want 4", nl.Depth, nl.Note)
	}
	if d := cmp.Diff(map[string]int{"": 1, plan.ROMWout: 1}, nl.BRAMCells); d != "" {
		t.Errorf("BRAM cells (-want +got):\n%s", d)
	}
	// The cell graph: sorted cells with sorted pins, constants decoded.
	var ff *Cell
	for i := range nl.Cells {
		if i > 0 && nl.Cells[i-1].Name >= nl.Cells[i].Name {
			t.Errorf("cells not sorted: %s before %s", nl.Cells[i-1].Name, nl.Cells[i].Name)
		}
		if nl.Cells[i].Name == "ff_a" {
			ff = &nl.Cells[i]
		}
	}
	if ff == nil {
		t.Fatal("no cell ff_a")
	}
	wantPins := []Pin{{"C", "input", []Bit{2}}, {"CE", "input", []Bit{Bit1}}, {"D", "input", []Bit{20}},
		{"Q", "output", []Bit{10}}, {"R", "input", []Bit{Bit0}}}
	if d := cmp.Diff(wantPins, ff.Pins); d != "" || ff.Type != "FDRE" || ff.Pin("Q") == nil || ff.Pin("nope") != nil {
		t.Errorf("ff_a %s pins (-want +got):\n%s", ff.Type, d)
	}
	if _, err := ParseNetlist(strings.NewReader(`{"modules": {}}`), "t_top"); err == nil || !strings.Contains(err.Error(), "no module t_top") {
		t.Errorf("missing top: %v", err)
	}
	loop := `{"modules": {"t": {"cells": {
		"a": {"type": "LUT1", "port_directions": {"I0": "input", "O": "output"}, "connections": {"I0": [3], "O": [2]}},
		"b": {"type": "LUT1", "port_directions": {"I0": "input", "O": "output"}, "connections": {"I0": [2], "O": [3]}}}}}}`
	nl, err = ParseNetlist(strings.NewReader(loop), "t")
	if err != nil || !strings.Contains(nl.Note, "loop") {
		t.Errorf("loop: %+v, %v", nl, err)
	}
}

func TestParseMemoryLog(t *testing.T) {
	got := ParseMemoryLog(readFixture(t, "memory_libmap.log"), nil)
	want := []ROMMapping{
		{Memory: "cal_rvfl8_k16_n512_l4_p1_top.u_core.u_hidden.lut", Role: plan.ROMLUT, Target: "logic"},
		{Memory: "cal_rvfl8_k16_n512_l4_p1_top.u_core.u_win_rom.mem", Role: plan.ROMWin, Target: "bram", Via: "BLOCKRAM_SDP_"},
		{Memory: "cal_rvfl8_k16_n512_l4_p1_top.u_core.u_wout_rom.mem", Role: plan.ROMWout, Target: "bram", Via: "BLOCKRAM_SDP_"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// fakeYosys answers `yosys -V` and "synthesises" by writing the fixtures.
type fakeYosys struct {
	mu     sync.Mutex
	synths int
	calls  [][]string
}

func (f *fakeYosys) Run(_ context.Context, dir string, argv []string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, argv)
	if len(argv) == 2 && argv[1] == "-V" {
		return []byte("Yosys 0.23 (fake)\n"), nil
	}
	f.synths++
	for dst, src := range map[string]string{statFile: "stat_rvfl8_k16_n512_l4_p1.json", netFile: "netlist_small.json",
		logFile: "memory_libmap.log", NetlistSimFile: "netlist_small.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", src))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(dst)), b, 0o644); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// fakeDesign is a design directory with a real model.json and design.json
// (an rvfl8 named "t", so its top is t_top) but stand-in RTL and ROM files,
// installed as emit installs a design (designdir.Install).
func fakeDesign(t *testing.T) string {
	t.Helper()
	return fakeDesignWith(t, true)
}

// fakeDesignWith is fakeDesign, with the stand-in AXI4-Stream wrapper
// rtl/t_axis.v (which the stream top does not use) or without it.
func fakeDesignWith(t *testing.T, axis bool) string {
	t.Helper()
	m := randmodel.Random(randmodel.Shape{Arch: model.RVFL8, K: 2, N: 2, L: 2}, "t", 1)
	pl, err := plan.New(m, plan.Options{Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	planJSON, err := pl.JSON()
	if err != nil {
		t.Fatal(err)
	}
	modelJSON, err := model.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		designdir.MarkerFile: []byte("test\n"),
		designdir.ModelFile:  modelJSON,
		designdir.PlanFile:   planJSON,
		"rtl/t_top.v":        []byte("module t_top(); lib u_lib(); endmodule\n"),
		"rtl/lib.v":          []byte("module lib(); endmodule\n"),
		"rtl/t_axis.v":       []byte("module t_axis(); t_top u_top(); endmodule\n"),
		"mem/t_w.mem":        []byte("00\n01\n"),
		"vectors/x.vh":       []byte("ignored\n"),
	}
	if !axis {
		delete(files, "rtl/t_axis.v")
	}
	dir := filepath.Join(t.TempDir(), "t")
	if _, err := designdir.Install(dir, files, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRunCachesReports(t *testing.T) {
	versions.Delete("fake-yosys")
	dir := fakeDesign(t)
	cache := t.TempDir()
	fy := &fakeYosys{}
	o := Options{Yosys: "fake-yosys", Runner: fy, CacheDir: cache}
	ctx := context.Background()

	r1, err := Run(ctx, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Cached || fy.synths != 1 || r1.EstimatedLCs != 407 || r1.LogicDepth != 4 || len(r1.ROMs) != 3 {
		t.Fatalf("first run: cached %v, %d synthesis runs, report %+v", r1.Cached, fy.synths, r1)
	}
	if r1.ROMs[2].BRAMCells != 1 || !strings.Contains(r1.Command, "synth_xilinx -family xc7 -noiopad -noclkbuf -flatten -top t_top") ||
		strings.Contains(r1.Command, "abc9") || !strings.Contains(r1.Command, "rtl/lib.v rtl/t_top.v") {
		t.Errorf("report: ROMs %+v, command %q", r1.ROMs, r1.Command)
	}
	// The netlist files stay in DIR (timing, gate-level simulation), the JSON
	// compacted to the top module.
	if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(NetlistFile))); err != nil || strings.Contains(string(b), "blackbox") {
		t.Errorf("netlist JSON not kept or not compacted: %v\n%.200s", err, b)
	}
	if !netlistCurrent(dir, r1.Key) {
		t.Error("netlist files not marked current")
	}

	// Second call: served from DIR/build/synth/report.json, Yosys not run again.
	r2, err := Run(ctx, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if !r2.Cached || fy.synths != 1 {
		t.Errorf("second run: cached %v, %d synthesis runs; want a cache hit", r2.Cached, fy.synths)
	}
	r2.Cached = false
	if d := cmp.Diff(r1, r2); d != "" {
		t.Errorf("cached report differs (-first +second):\n%s", d)
	}
	if c, err := Cached(ctx, dir, o); err != nil || c == nil {
		t.Errorf("Cached: %v, %v", c, err)
	}

	// The user cache survives deleting DIR/build.
	if err := os.RemoveAll(filepath.Join(dir, "build")); err != nil {
		t.Fatal(err)
	}
	if r3, err := Run(ctx, dir, o); err != nil || !r3.Cached || fy.synths != 1 {
		t.Errorf("after removing build/: cached %v, %d runs, %v", r3 != nil && r3.Cached, fy.synths, err)
	}
	if !netlistCurrent(dir, r1.Key) {
		t.Error("the netlist files were not restored from the user cache")
	}
	// Without the netlist files (and no user cache), the report alone is not
	// enough: Yosys runs again.
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(NetlistSimFile))); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, dir, Options{Yosys: "fake-yosys", Runner: fy}); err != nil || fy.synths != 2 {
		t.Errorf("missing simulation netlist: %d runs, %v", fy.synths, err)
	}
	fy.synths = 1

	// Changing a ROM file changes the key: Yosys runs again; so does --force.
	if err := os.WriteFile(filepath.Join(dir, "mem", "t_w.mem"), []byte("00\n02\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := Cached(ctx, dir, Options{Yosys: "fake-yosys", Runner: fy}); err != nil || c != nil {
		t.Errorf("stale report reported as current: %v, %v", c, err)
	}
	if _, err := Run(ctx, dir, o); err != nil || fy.synths != 2 {
		t.Errorf("after changing a .mem file: %d runs, %v", fy.synths, err)
	}
	o.Force = true
	if r, err := Run(ctx, dir, o); err != nil || fy.synths != 3 || r.Cached {
		t.Errorf("--force: %d runs, %v", fy.synths, err)
	}
	// Every synthesis ran in DIR (so $readmemh paths resolve).
	for _, c := range fy.calls {
		if len(c) > 2 && c[0] != "fake-yosys" {
			t.Errorf("ran %q", c)
		}
	}
}

func TestKeyCoversInputs(t *testing.T) {
	dir := fakeDesign(t)
	d, err := LoadDesign(dir)
	if err != nil {
		t.Fatal(err)
	}
	argv := Command("yosys", d.Top, d.RTLFiles)
	k1, _ := Key(d, "Yosys 0.23", argv)
	k2, _ := Key(d, "Yosys 0.24", argv)
	k3, _ := Key(d, "Yosys 0.23", Command("yosys", "other_top", d.RTLFiles))
	if k1 == k2 || k1 == k3 || len(k1) != 64 {
		t.Errorf("keys %s %s %s", k1, k2, k3)
	}
	if err := os.WriteFile(filepath.Join(dir, "rtl", "lib.v"), []byte("module lib(); endmodule // x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if k4, _ := Key(d, "Yosys 0.23", argv); k4 == k1 {
		t.Error("changing a Verilog file kept the key")
	}
}

func TestMissingYosys(t *testing.T) {
	dir := fakeDesign(t)
	_, err := Run(context.Background(), dir, Options{Yosys: "/nonexistent/yosys-missing"})
	if !errors.Is(err, ErrNoYosys) || !strings.Contains(err.Error(), "apt-get install yosys") {
		t.Errorf("error %v; want ErrNoYosys naming the Debian package", err)
	}
}

func TestLoadDesignErrors(t *testing.T) {
	if _, err := LoadDesign(t.TempDir()); err == nil || !strings.Contains(err.Error(), "hdlgen emit") {
		t.Errorf("empty dir: %v", err)
	}
}

func TestWriteText(t *testing.T) {
	r, err := ParseStat(readFixture(t, "stat_rvfl8_k16_n512_l4_p1.json"))
	if err != nil {
		t.Fatal(err)
	}
	r.ROMs = ParseMemoryLog(readFixture(t, "memory_libmap.log"), nil)
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"407", "DSP48E1", "RAMB36E1 2, RAMB18E1 1", "ROM lut   → LUTs", "ROM win   → block RAM", "fits xc7z020clg484-1"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestDeviceFits(t *testing.T) {
	if ok, _ := XC7Z020.Fits(53200, 106400, 220, 140); !ok {
		t.Error("full device does not fit")
	}
	ok, why := XC7Z020.Fits(100, 100, 221, 0)
	if ok || why != fmt.Sprintf("DSP48E1 221 > %d", XC7Z020.DSPs) {
		t.Errorf("221 DSPs: %v %q", ok, why)
	}
}

// TestRunYosys synthesises a tiny emitted design with the real Yosys.
func TestRunYosys(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys)
	dir := emitTiny(t)
	r, err := Run(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.EstimatedLCs < 20 || r.FFs < 50 || r.LogicDepth < 2 || len(r.ROMs) != 2 || !strings.HasPrefix(r.Yosys, "Yosys ") {
		t.Errorf("implausible report %+v", r)
	}
	r2, err := Run(context.Background(), dir, Options{})
	if err != nil || !r2.Cached {
		t.Errorf("second run not cached: %v", err)
	}

	// make synth in the emitted directory runs the same script (synth/script)
	// and must give the same numbers (issue 14: they once differed, 838 vs
	// 406 LC for the median rvfl8 at P = 1).
	hwtest.Require(t, hwtest.Make)
	if err := os.RemoveAll(filepath.Join(dir, "build")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "--no-print-directory", "synth")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MAKEFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make synth: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(script.StatFile)))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseStat(b)
	if err != nil {
		t.Fatal(err)
	}
	counts := func(r *Report) []any {
		return []any{r.Cells, r.LUTBySize, r.LUTs, r.EstimatedLCs, r.FFs, r.CARRY4, r.DSP48E1, r.RAMB18E1, r.RAMB36E1, r.LUTRAM, r.SRL}
	}
	if d := cmp.Diff(counts(r), counts(m)); d != "" {
		t.Errorf("make synth and hdlgen synth disagree (-hdlgen +make):\n%s", d)
	}
	for _, f := range []string{script.NetlistJSON, script.NetlistSim} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Errorf("make synth did not write %s: %v", f, err)
		}
	}
}
