package vivado_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/vivado"
)

// blockDesign is the recorder's dump (testdata/recorder.tcl).
type blockDesign struct {
	cells    map[string]string            // name → VLNV
	config   map[string]map[string]string // cell → key → value
	pins     map[string][2]string         // cell/pin → {dir, type}
	intfs    map[string][3]string         // cell/intf → {mode, type, clock pin}
	ports    map[string]string            // external interface port → mode
	nets     [][]string                   // objects /cell/pin
	intfNets [][2]string
	addrs    []address
	files    []string
	board    string // the project's board part
	cmds     [][]string
	err      string
}

type address struct {
	space, seg    string
	offset, rng   uint64
	size          uint64 // the segment's own size
	offText, text string
}

func parseDump(t *testing.T, path string) *blockDesign {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bd := &blockDesign{cells: map[string]string{}, config: map[string]map[string]string{}, pins: map[string][2]string{},
		intfs: map[string][3]string{}, ports: map[string]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		r := strings.Split(sc.Text(), "\t")
		switch r[0] {
		case "cell":
			bd.cells[r[1]] = r[3]
			bd.config[r[1]] = map[string]string{}
		case "config":
			bd.config[r[1]][r[2]] = r[3]
		case "pin":
			bd.pins[r[1]] = [2]string{r[2], r[3]}
		case "intf":
			for len(r) < 5 {
				r = append(r, "")
			}
			bd.intfs[r[1]] = [3]string{r[2], r[3], r[4]}
		case "port":
			bd.ports[r[1]] = r[3]
		case "net":
			bd.nets = append(bd.nets, r[2:])
		case "intfnet":
			bd.intfNets = append(bd.intfNets, [2]string{r[1], r[2]})
		case "addr":
			a := address{space: r[1], seg: r[2], offText: r[3], text: r[4]}
			a.offset, _ = strconv.ParseUint(strings.TrimPrefix(r[3], "0x"), 16, 64)
			a.rng = parseRange(t, r[4])
			a.size, _ = strconv.ParseUint(strings.TrimPrefix(r[5], "0x"), 16, 64)
			bd.addrs = append(bd.addrs, a)
		case "file":
			bd.files = append(bd.files, r[1])
		case "board":
			bd.board = r[1]
		case "cmd":
			bd.cmds = append(bd.cmds, r[1:])
		case "error":
			bd.err = r[1]
		default:
			t.Fatalf("dump: unknown record %q", r[0])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return bd
}

func parseRange(t *testing.T, s string) uint64 {
	mult := map[byte]uint64{'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}
	if m, ok := mult[s[len(s)-1]]; ok {
		n, err := strconv.ParseUint(s[:len(s)-1], 10, 64)
		if err != nil {
			t.Fatalf("range %q", s)
		}
		return n * m
	}
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		t.Fatalf("range %q", s)
	}
	return n
}

// netOf returns the net holding obj, or nil.
func (bd *blockDesign) netOf(obj string) []string {
	for _, n := range bd.nets {
		if slices.Contains(n, obj) {
			return n
		}
	}
	return nil
}

// fixture is a design directory with a stand-in system top and ROM files.
type fixture struct {
	dir    string
	design vivado.Design
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"rtl", "mem"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stub, err := os.ReadFile("testdata/stub_system.v")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("rtl/stub_system.v", string(stub))
	write("mem/stub_rom.mem", "00000001\n00000002\n")
	write("mem/stub_wout.mem", "0\n")
	d := vivado.Design{Prefix: "stub", Top: "stub_system", Board: board.ZedBoard.Name, Part: board.Part,
		ClockHz: board.ClockHz, AddrW: 12, RTLFiles: []string{"rtl/stub_system.v"},
		MemFiles: []string{"mem/stub_rom.mem", "mem/stub_wout.mem"}}
	files, err := vivado.Files(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "vivado"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(vivado.TclPath, string(files[vivado.TclPath]))
	return fixture{dir: dir, design: d}
}

// record runs the fixture's system.tcl under the recorder.
func record(t *testing.T, fx fixture, env ...string) (*blockDesign, string, error) {
	t.Helper()
	hwtest.Require(t, hwtest.Tclsh)
	rec, err := filepath.Abs("testdata/recorder.tcl")
	if err != nil {
		t.Fatal(err)
	}
	// An unset knob must not come from the environment of the test run.
	env = append([]string{"HDLGEN_REC_VERSION=2023.2"}, env...)
	dump := filepath.Join(t.TempDir(), "dump.txt")
	cmd := exec.Command("tclsh", rec, filepath.Join(fx.dir, vivado.TclPath), dump)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return parseDump(t, dump), string(out), err
}

// TestBlockDesign runs system.tcl with recorders and checks what it builds.
func TestBlockDesign(t *testing.T) {
	fx := newFixture(t)
	bd, out, err := record(t, fx)
	if err != nil || bd.err != "" {
		t.Fatalf("system.tcl failed under the recorder: %v\n%s", err, out)
	}
	for _, p := range checkBlockDesign(fx, bd) {
		t.Error(p)
	}
}

// checkBlockDesign returns every way bd differs from the block design
// docs/zedboard.md describes.
func checkBlockDesign(fx fixture, bd *blockDesign) []string {
	var probs []string
	errorf := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }
	wrapper := vivado.Wrapper(fx.design.Prefix)
	// The cells.
	wantCells := map[string]string{"ps7": "xilinx.com:ip:processing_system7:", "rst": "xilinx.com:ip:proc_sys_reset:",
		"core": "module:" + wrapper, "dma": "xilinx.com:ip:axi_dma:", "ctl_ic": "xilinx.com:ip:smartconnect:",
		"mem_ic": "xilinx.com:ip:smartconnect:", "irq": "xilinx.com:ip:xlconcat:"}
	for c, v := range wantCells {
		if !strings.HasPrefix(bd.cells[c], v) {
			errorf("cell %s is %q, want %s…", c, bd.cells[c], v)
		}
	}
	if len(bd.cells) != len(wantCells) {
		errorf("%d cells, want %d: %v", len(bd.cells), len(wantCells), bd.cells)
	}

	// Every interface connected exactly once.
	seen := map[string]int{}
	for _, n := range bd.intfNets {
		for _, o := range n {
			seen[strings.TrimPrefix(o, "/")]++
		}
	}
	for name := range bd.intfs {
		if seen[name] != 1 {
			errorf("interface %s connected %d times, want 1", name, seen[name])
		}
	}
	for p := range bd.ports {
		if seen[p] != 1 {
			errorf("external interface %s connected %d times, want 1", p, seen[p])
		}
	}
	for _, want := range [][2]string{{"dma/M_AXIS_MM2S", "core/s_axis"}, {"core/m_axis", "dma/S_AXIS_S2MM"},
		{"ctl_ic/M00_AXI", "core/s_axil"}, {"ps7/M_AXI_GP0", "ctl_ic/S00_AXI"}, {"mem_ic/M00_AXI", "ps7/S_AXI_HP0"}} {
		if !slices.Contains(bd.intfNets, [2]string{"/" + want[0], "/" + want[1]}) {
			errorf("no interface connection %s -> %s", want[0], want[1])
		}
	}

	// One clock domain: every clock input on FCLK_CLK0's net, nothing else drives a clock.
	clk := bd.netOf("/ps7/FCLK_CLK0")
	for p, v := range bd.pins {
		if v[1] != "clk" {
			continue
		}
		switch {
		case v[0] == "I" && !slices.Contains(clk, "/"+p):
			errorf("clock input %s is not on FCLK_CLK0", p)
		case v[0] == "O" && p != "ps7/FCLK_CLK0" && bd.netOf("/"+p) != nil:
			errorf("a second clock source %s is connected", p)
		}
	}
	for i, v := range bd.intfs {
		if v[1] == "ddr" || v[1] == "fixedio" {
			continue
		}
		cell := strings.SplitN(i, "/", 2)[0]
		if v[2] == "" || !slices.Contains(clk, "/"+cell+"/"+v[2]) {
			errorf("interface %s has clock %q, not on FCLK_CLK0", i, v[2])
		}
	}

	// One reset domain: every reset input driven by rst (rst itself from FCLK_RESET0_N).
	if n := bd.netOf("/rst/ext_reset_in"); !slices.Contains(n, "/ps7/FCLK_RESET0_N") {
		errorf("rst/ext_reset_in is not driven by FCLK_RESET0_N: %v", n)
	}
	for p, v := range bd.pins {
		if v[1] != "rst" || v[0] != "I" || strings.HasPrefix(p, "rst/") {
			continue
		}
		n := bd.netOf("/" + p)
		if !slices.Contains(n, "/rst/peripheral_aresetn") && !slices.Contains(n, "/rst/interconnect_aresetn") {
			errorf("reset input %s is not driven by rst: %v", p, n)
		}
	}
	if slices.Contains(bd.netOf("/rst/peripheral_aresetn"), "/ps7/FCLK_RESET0_N") {
		errorf("FCLK_RESET0_N drives the peripherals directly")
	}

	// Interrupts: the system, MM2S, S2MM on IRQ_F2P[0..2].
	for i, src := range []string{"core/irq_o", "dma/mm2s_introut", "dma/s2mm_introut"} {
		if n := bd.netOf("/" + src); !slices.Contains(n, fmt.Sprintf("/irq/In%d", i)) {
			errorf("%s is not on irq/In%d: %v", src, i, n)
		}
	}
	if n := bd.netOf("/irq/dout"); !slices.Contains(n, "/ps7/IRQ_F2P") {
		errorf("irq/dout does not reach IRQ_F2P: %v", n)
	}
	for p, v := range bd.pins {
		if v[1] == "intr" && bd.netOf("/"+p) == nil {
			errorf("interrupt pin %s unconnected", p)
		}
	}

	// Address map: the control registers and the DMA on GP0, the DDR for the DMA.
	checkAddress(errorf, bd, "/ps7/Data", "/core/s_axil/reg0", vivado.SystemBase, 1<<fx.design.AddrW)
	checkAddress(errorf, bd, "/ps7/Data", "/dma/S_AXI_LITE/Reg", vivado.DMABase, vivado.DMARange)
	checkAddress(errorf, bd, "/dma/Data_MM2S", "/ps7/S_AXI_HP0/HP0_DDR_LOWOCM", vivado.DDRBase, vivado.DDRRange)
	checkAddress(errorf, bd, "/dma/Data_S2MM", "/ps7/S_AXI_HP0/HP0_DDR_LOWOCM", vivado.DDRBase, vivado.DDRRange)
	for i, a := range bd.addrs {
		for _, b := range bd.addrs[i+1:] {
			if a.space == b.space && a.offset < b.offset+b.rng && b.offset < a.offset+a.rng {
				errorf("%s: %s and %s overlap", a.space, a.seg, b.seg)
			}
		}
	}
	// Every slave segment of a master's reach is assigned.
	for i, v := range bd.intfs {
		if v[0] == "Slave" && v[1] == "aximm" && !strings.HasPrefix(i, "ctl_ic/") && !strings.HasPrefix(i, "mem_ic/") {
			found := false
			for _, a := range bd.addrs {
				found = found || strings.HasPrefix(a.seg, "/"+i+"/")
			}
			if !found {
				errorf("slave %s has no address", i)
			}
		}
	}

	// Configuration: the board's preset on ps7 (through the board part),
	// then this design's settings; 64-bit DMA memory side and HP0 (the AFI's
	// reset width), 32-bit streams.
	mem := strconv.Itoa(vivado.DMAMemWidth)
	for _, c := range []struct{ cell, key, want string }{
		{"ps7", "preset", "ZedBoard"},
		{"ps7", "PCW_FPGA0_PERIPHERAL_FREQMHZ", strconv.Itoa(int(fx.design.ClockHz / 1e6))},
		{"ps7", "PCW_S_AXI_HP0_DATA_WIDTH", mem},
		{"dma", "c_include_sg", "0"},
		{"dma", "c_sg_length_width", strconv.Itoa(vivado.DMALengthBits)},
		{"dma", "c_m_axi_mm2s_data_width", mem},
		{"dma", "c_m_axi_s2mm_data_width", mem},
		{"dma", "c_m_axis_mm2s_tdata_width", "32"},
		{"dma", "c_s_axis_s2mm_tdata_width", "32"},
	} {
		if got := bd.config[c.cell][c.key]; got != c.want {
			errorf("%s CONFIG.%s = %q, want %q", c.cell, c.key, got, c.want)
		}
	}
	if _, set := bd.config["ps7"]["PCW_IMPORT_BOARD_PRESET"]; set {
		errorf("ps7 CONFIG.PCW_IMPORT_BOARD_PRESET is set: it takes a preset file, the board part's preset is applied instead")
	}
	if !strings.Contains(bd.board, ":zed") {
		errorf("project board part %q, want the ZedBoard's", bd.board)
	}
	// The preset comes first, this design's PCW_* settings after it.
	auto, override := -1, -1
	for i, c := range bd.cmds {
		line := strings.Join(c, " ")
		if c[0] == "apply_bd_automation" && strings.Contains(line, "processing_system7") && auto < 0 {
			auto = i
		}
		if c[0] == "set_property" && strings.Contains(line, "CONFIG.PCW_") && strings.HasSuffix(line, "/ps7") {
			override = max(override, i)
		}
	}
	if auto < 0 || override < auto {
		errorf("the ps7 settings (command %d) are not after the board preset's automation (command %d)", override, auto)
	}

	// Files: absolute and existing; the wrapper reads the ROMs from an
	// absolute MemDir that holds every .mem file.
	for _, f := range bd.files {
		if !filepath.IsAbs(f) {
			errorf("add_files %s: not absolute", f)
		}
		if _, err := os.Stat(f); err != nil {
			errorf("add_files %s: %v", f, err)
		}
	}
	project := filepath.Join(fx.dir, "build/vivado/system")
	w := filepath.Join(project, wrapper+".v")
	text, err := os.ReadFile(w)
	if err != nil {
		return append(probs, fmt.Sprintf("the wrapper was not written: %v", err))
	}
	// The ROM files are read by a path relative to the synthesis runs'
	// directories (system.runs/<run>), from the project's own copy: no path
	// of the machine that ran the script is compiled in, and the project
	// folder can move.
	m := regexp.MustCompile(`\.MemDir\("([^"]*)"\)`).FindSubmatch(text)
	if m == nil {
		return append(probs, fmt.Sprintf("%s: no MemDir", w))
	}
	memDir := string(m[1])
	if filepath.IsAbs(memDir) || !strings.HasSuffix(memDir, "/") || strings.Contains(string(text), fx.dir) {
		errorf("MemDir %q is not a relative directory path, or the wrapper holds the build machine's path %s", memDir, fx.dir)
	}
	runs, _ := filepath.Glob(filepath.Join(project, "system.runs", "*"))
	if len(runs) == 0 {
		errorf("no synthesis run directory under %s/system.runs", project)
	}
	for _, run := range runs {
		for _, f := range fx.design.MemFiles {
			p := filepath.Join(run, memDir, filepath.Base(f))
			if !strings.HasPrefix(filepath.Clean(p), project+"/") {
				errorf("MemDir %s from %s leaves the project: %s", memDir, run, p)
			}
			if _, err := os.Stat(p); err != nil {
				errorf("MemDir %s from run %s lacks %s: %v", memDir, filepath.Base(run), f, err)
			}
		}
	}
	if strings.Contains(string(text), "FREQ_HZ") {
		errorf("the wrapper fixes FREQ_HZ: the clock's frequency must come from FCLK_CLK0 through the block design")
	}

	// The flow: the missing-$readmem message is an error before synthesis;
	// synthesis, implementation to the bitstream, the XSA with the bitstream.
	order := []string{}
	for _, c := range bd.cmds {
		order = append(order, strings.Join(c, " "))
	}
	idx := func(prefix string) int {
		return slices.IndexFunc(order, func(s string) bool { return strings.HasPrefix(s, prefix) })
	}
	steps := []string{"create_project -force system " + filepath.Join(fx.dir, "build/vivado/system") + " -part " + fx.design.Part,
		"set_property board_part ", "set_msg_config -id Synth 8-4445 -new_severity ERROR", "apply_bd_automation",
		"validate_bd_design", "launch_runs synth_1", "launch_runs impl_1 -to_step write_bitstream",
		"report_timing_summary", "write_hw_platform -fixed -include_bit"}
	last := -1
	for _, s := range steps {
		i := idx(s)
		if i < 0 || i < last {
			errorf("step %q missing or out of order", s)
		}
		last = max(last, i)
	}
	for _, f := range []string{".bit", ".xsa", ".hwh"} {
		p := filepath.Join(fx.dir, "build/vivado/system", fx.design.Top+f)
		if _, err := os.Stat(p); err != nil {
			errorf("product %s: %v", p, err)
		}
	}
	return probs
}

func checkAddress(errorf func(string, ...any), bd *blockDesign, space, seg string, base, minRange uint64) {
	for _, a := range bd.addrs {
		if a.space == space && a.seg == seg {
			if a.offset != base {
				errorf("%s in %s at %s, want 0x%08X", seg, space, a.offText, base)
			}
			if a.rng < minRange || a.rng < a.size {
				errorf("%s in %s: range %s below %d bytes (segment %d)", seg, space, a.text, minRange, a.size)
			}
			return
		}
	}
	errorf("%s not assigned in %s", seg, space)
}

// TestBlockDesignGuards checks that the script stops, before building
// anything wrong, on a missing ROM file, a ROM synthesis did not read, and
// an old Vivado.
func TestBlockDesignGuards(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(fx fixture)
		env    []string
		want   string
		before string // a command that must not have run
	}{
		{"missing mem", func(fx fixture) { os.Remove(filepath.Join(fx.dir, "mem/stub_wout.mem")) }, nil,
			"mem/stub_wout.mem is missing or unreadable", "create_project"},
		{"missing rtl", func(fx fixture) { os.Remove(filepath.Join(fx.dir, "rtl/stub_system.v")) }, nil,
			"rtl/stub_system.v is missing or unreadable", "create_project"},
		{"rom not read", func(fixture) {}, []string{"HDLGEN_REC_SKIP_MEM=stub_rom.mem"},
			"did not report reading", "launch_runs impl_1"},
		{"old vivado", func(fixture) {}, []string{"HDLGEN_REC_VERSION=2019.1"},
			"needs Vivado 2020.2 or later", "create_project"},
		// Issue 30, items 1 and 7: no board files, a preset that did not
		// apply, and every timing check, not only setup.
		{"no board files", func(fixture) {}, []string{"HDLGEN_REC_BOARDS=xilinx.com:zc702:part0:1.4"},
			"the ZedBoard's board files are not installed", "create_project"},
		{"preset not applied", func(fixture) {}, []string{"HDLGEN_REC_PRESET=None"},
			"the ZedBoard preset was not applied", "launch_runs synth_1"},
		{"setup", func(fixture) {}, []string{"HDLGEN_REC_TIMING=setup"}, "worst setup slack (WNS)", "write_hw_platform"},
		{"hold", func(fixture) {}, []string{"HDLGEN_REC_TIMING=hold"}, "worst hold slack (WHS)", "write_hw_platform"},
		{"pulse width", func(fixture) {}, []string{"HDLGEN_REC_TIMING=pulse"}, "does not say that all timing constraints are met",
			"write_hw_platform"},
		{"no clock", func(fixture) {}, []string{"HDLGEN_REC_TIMING=no_clock"}, "check_timing: 4 no_clock", "write_hw_platform"},
		{"unconstrained", func(fixture) {}, []string{"HDLGEN_REC_TIMING=unconstrained"},
			"check_timing: 17 unconstrained_internal_endpoints", "write_hw_platform"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := newFixture(t)
			c.edit(fx)
			bd, out, err := record(t, fx, c.env...)
			if err == nil || !strings.Contains(bd.err, c.want) {
				t.Fatalf("want an error with %q, got %v, %q\n%s", c.want, err, bd.err, out)
			}
			for _, cmd := range bd.cmds {
				if cmd[0]+" "+strings.Join(cmd[1:], " ") == c.before || strings.HasPrefix(strings.Join(cmd, " "), c.before) {
					t.Errorf("%s ran before the guard stopped the script", c.before)
				}
			}
		})
	}
}

// TestRecorderCatchesMistakes is the recorder's control: scripts with a
// wiring mistake each must fail in the recorder or in the checks.
func TestRecorderCatchesMistakes(t *testing.T) {
	cases := []struct{ name, from, to string }{
		{"HP0 not enabled", "CONFIG.PCW_USE_S_AXI_HP0 {1}", "CONFIG.PCW_USE_S_AXI_HP0 {0}"},
		{"scatter-gather left on", "CONFIG.c_include_sg {0}", "CONFIG.c_include_sg {1}"},
		{"stream reversed", "[get_bd_intf_pins dma/M_AXIS_MM2S] [get_bd_intf_pins core/s_axis]",
			"[get_bd_intf_pins dma/M_AXIS_MM2S] [get_bd_intf_pins core/m_axis]"},
		{"DMA clock missing", " [get_bd_pins dma/m_axi_s2mm_aclk]", ""},
		{"second reset source", "[get_bd_pins rst/peripheral_aresetn] [get_bd_pins core/aresetn]",
			"[get_bd_pins ps7/FCLK_RESET0_N] [get_bd_pins core/aresetn]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := newFixture(t)
			p := filepath.Join(fx.dir, vivado.TclPath)
			b, _ := os.ReadFile(p)
			if !strings.Contains(string(b), c.from) {
				t.Fatalf("system.tcl no longer contains %q", c.from)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), c.from, c.to, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			bd, _, err := record(t, fx)
			if err != nil {
				t.Logf("the recorder refused it, as Vivado would: %s", bd.err)
				return
			}
			probs := checkBlockDesign(fx, bd)
			if len(probs) == 0 {
				t.Error("the mistake passed the recorder and the checks")
			}
			t.Logf("the checks found: %s", strings.Join(probs, "; "))
		})
	}
}

// TestWrapperLints lints the wrapper the script writes, with the stand-in
// system top: the port map matches the contract's port list.
func TestWrapperLints(t *testing.T) {
	hwtest.Require(t, hwtest.Tclsh, hwtest.VerilatorLint)
	fx := newFixture(t)
	if _, out, err := record(t, fx); err != nil {
		t.Fatalf("recorder: %v\n%s", err, out)
	}
	w := filepath.Join(fx.dir, "build/vivado/system", vivado.Wrapper("stub")+".v")
	cmd := exec.Command("verilator", "--lint-only", "-Wall", "--language", "1364-2005", "--top-module", vivado.Wrapper("stub"),
		w, filepath.Join(fx.dir, "rtl/stub_system.v"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("verilator: %v\n%s", err, out)
	}
}

func TestFilesDeterministicAndValidated(t *testing.T) {
	d := vivado.Design{Prefix: "x", Top: "x_system", Board: "ZedBoard", Part: board.Part, ClockHz: board.ClockHz, AddrW: 12,
		RTLFiles: []string{"rtl/x_system.v"}, MemFiles: []string{"mem/x_win.mem"}}
	a, err := vivado.Files(d)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := vivado.Files(d)
	if string(a[vivado.TclPath]) != string(b[vivado.TclPath]) {
		t.Error("two renders differ")
	}
	for name, edit := range map[string]func(*vivado.Design){
		"top":   func(d *vivado.Design) { d.Top = "x system" },
		"path":  func(d *vivado.Design) { d.MemFiles = []string{"../mem/x.mem"} },
		"space": func(d *vivado.Design) { d.RTLFiles = []string{"rtl/a b.v"} },
		"clock": func(d *vivado.Design) { d.ClockHz = 99.5e6 },
		"addrw": func(d *vivado.Design) { d.AddrW = 17 },
	} {
		bad := d
		edit(&bad)
		if _, err := vivado.Files(bad); err == nil {
			t.Errorf("%s: accepted %+v", name, bad)
		}
	}
}
