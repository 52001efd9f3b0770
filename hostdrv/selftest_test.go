package hostdrv_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/hostdrv"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/vivado"
)

// verdict returns the self-test report's last line.
func verdict(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}

// TestSelfTestOnVerilator (issue 30, item 10): `hdlgen-run selftest` — the
// identity against the model hash, the design's own test vectors against
// vectors/tv_exp.mem, a malformed vector, a flush, a readout swap, the rate —
// passes on the Verilator model of the system, with back-pressure, for the CI
// design (reloadable, scores) and the slow design (no scores, ROM readout);
// the Python wrapper's `hdlgen.py selftest` too. It fails, with a FAIL line,
// when the expected outputs are wrong or the device is another design's.
func TestSelfTestOnVerilator(t *testing.T) {
	sd := buildSimDesign(t)
	_, _, slow := buildSlowDesign(t)
	pass := regexp.MustCompile(`^PASS selftest: identity, \d+ test vectors, malformed vector, flush(, readout swap)?, \d+ classifications/s`)
	for _, c := range []struct{ name, drv, spec string }{
		{"ci", sd.driver, "sim:seed=5,valid=0.6,ready=0.5"},
		{"slow", slow, "sim"},
	} {
		out, err := exec.Command(filepath.Join(c.drv, "build/sim/hdlgen-run-sim"), "-d", c.spec, "selftest").CombinedOutput()
		if err != nil || !pass.MatchString(verdict(string(out))) {
			t.Errorf("%s: selftest: %v\n%s", c.name, err, out)
		}
		t.Logf("%s:\n%s", c.name, out)
	}
	if !strings.Contains(verdictOf(t, sd.driver), "readout swap") {
		t.Error("the reloadable design's self-test skipped the readout swap")
	}

	t.Run("python", func(t *testing.T) {
		hwtest.Require(t, hwtest.Python)
		lib := filepath.Join(sd.driver, "build/sim/libhdlgen_sim.so")
		cmd := exec.Command("python3", "hdlgen.py", "-d", "sim:seed=6,valid=0.8,ready=0.7", "--lib", lib, "selftest")
		cmd.Dir = sd.driver
		out, err := cmd.CombinedOutput()
		if err != nil || !pass.MatchString(verdict(string(out))) {
			t.Errorf("python3 hdlgen.py selftest: %v\n%s", err, out)
		}
	})

	// The self-test's control: a wrong expected class, and a driver built
	// for another design, each give a FAIL line and exit status 1.
	t.Run("fails", func(t *testing.T) {
		// A copy beside the driver: its Makefile finds the RTL at ../rtl.
		other := sd.driver + "_selftest"
		os.RemoveAll(other)
		t.Cleanup(func() { os.RemoveAll(other) })
		run(t, sd.dir, "cp", "-a", sd.driver, other)
		data := filepath.Join(other, "hdlgen_selftest_data.c")
		b, err := os.ReadFile(data)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`(const uint16_t hdlgen_st_classes\[HDLGEN_ST_VECTORS\] = \{\n    )(\d+)`)
		m := re.FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s: no class table", data)
		}
		wrong := "1"
		if string(m[2]) == "1" {
			wrong = "0"
		}
		if err := os.WriteFile(data, re.ReplaceAll(b, []byte("${1}"+wrong)), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, other, "make", "-s", "sim")
		out, err := exec.Command(filepath.Join(other, "build/sim/hdlgen-run-sim"), "selftest").CombinedOutput()
		if err == nil || !strings.HasPrefix(verdict(string(out)), "FAIL selftest: vectors") {
			t.Errorf("a wrong expected class: %v\n%s", err, out)
		}
		dc := filepath.Join(other, "hdlgen_design.c")
		b, err = os.ReadFile(dc)
		if err != nil {
			t.Fatal(err)
		}
		hash := regexp.MustCompile(`\{"MODEL_HASH_LO", HDLGEN_REG_MODEL_HASH_LO, 0x[0-9A-F]{8}u`)
		if err := os.WriteFile(dc, hash.ReplaceAll(b, []byte(`{"MODEL_HASH_LO", HDLGEN_REG_MODEL_HASH_LO, 0x12345678u`)), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, other, "make", "-s", "sim")
		out, err = exec.Command(filepath.Join(other, "build/sim/hdlgen-run-sim"), "selftest").CombinedOutput()
		if err == nil || !strings.HasPrefix(verdict(string(out)), "FAIL selftest: open") ||
			!strings.Contains(string(out), "MODEL_HASH_LO") {
			t.Errorf("another design's driver: %v\n%s", err, out)
		}
	})
}

func verdictOf(t *testing.T, drv string) string {
	t.Helper()
	out, _ := exec.Command(filepath.Join(drv, "build/sim/hdlgen-run-sim"), "selftest").CombinedOutput()
	return verdict(string(out))
}

// TestOverlay (issue 30, items 3 and 8): the device-tree overlay gives the PL
// its clock — an xlnx,fclk consumer of clkc's fclk0 (output 15 of the Zynq
// clock controller) with the design's rate assigned, so Linux neither gates it
// nor leaves it at another rate — maps exactly the system's 4 KiB register
// window, and binds S2MM's interrupt to the DMA's UIO device (the one the
// driver waits on); the driver's DMA memory width is the block design's.
func TestOverlay(t *testing.T) {
	d := design(t, randmodel.Shape{Arch: model.IntRVFL, K: 3, N: 7, L: 2, Kappa: 1, Bits: 3}, nil, 2)
	files, err := hostdrv.Files(d)
	if err != nil {
		t.Fatal(err)
	}
	dts := string(files[hostdrv.Dir+"/hdlgen-overlay.dts"])
	node := func(name string) string {
		i := strings.Index(dts, name)
		if i < 0 {
			t.Fatalf("overlay has no node %s:\n%s", name, dts)
		}
		j := strings.Index(dts[i:], "};")
		return dts[i : i+j]
	}
	fclk := node("hdlgen-fclk0 {")
	for _, want := range []string{`compatible = "xlnx,fclk";`, "clocks = <&clkc 15>;", "assigned-clocks = <&clkc 15>;",
		"assigned-clock-rates = <100000000>;"} {
		if !strings.Contains(fclk, want) {
			t.Errorf("the fclk node lacks %q:\n%s", want, fclk)
		}
	}
	sys := node("hdlgen_system@43c00000 {")
	if !strings.Contains(sys, "reg = <0x43c00000 0x1000>;") || !strings.Contains(sys, "clocks = <&clkc 15>;") {
		t.Errorf("the system's node does not map the 4 KiB register window with its clock:\n%s", sys)
	}
	if vivado.SystemRange != 1<<12 {
		t.Errorf("the block design's register window is %#x, the system's address space 4 KiB", vivado.SystemRange)
	}
	dma := node("hdlgen_dma@40400000 {")
	if !strings.Contains(dma, "interrupts = <0 31 4>;") || strings.Contains(dma, "<0 30 4>") {
		t.Errorf("the DMA's node does not carry S2MM's interrupt (SPI 31) alone:\n%s", dma)
	}
	h := string(files[hostdrv.Dir+"/hdlgen_design.h"])
	if !strings.Contains(h, "#define HDLGEN_DMA_MEM_BYTES 8u") || !strings.Contains(h, "#define HDLGEN_CLOCK_HZ 100000000.0") {
		t.Errorf("hdlgen_design.h: the DMA memory width or the clock differ from the block design's")
	}
}

// TestDriverAnalyzer compiles every C file of the driver with GCC's static
// analyzer (-fanalyzer) and -Werror: no leak, no use after free, no NULL
// dereference on any path (issue 30, item 8: hdlgen-run's encode leaked on
// an error path).
func TestDriverAnalyzer(t *testing.T) {
	hwtest.Require(t, hwtest.CC)
	if out, err := exec.Command("cc", "-fanalyzer", "-x", "c", "-c", "-o", os.DevNull, "/dev/null").CombinedOutput(); err != nil {
		t.Fatalf("cc -fanalyzer: %v\n%s (the test needs GCC 10 or later)", err, out)
	}
	dir := writeDriver(t, design(t, randmodel.Shape{Arch: model.IntRVFL, K: 11, N: 64, L: 4, Kappa: 3, Bits: 5}, nil, 6))
	for _, f := range []string{"hdlgen.c", "hdlgen_encode.c", "hdlgen_design.c", "hdlgen_crc32.c", "hdlgen_selftest.c",
		"hdlgen_selftest_data.c", "backend_uio.c", "hdlgen_run.c"} {
		c := exec.Command("cc", append(append([]string{}, cflags...), "-fanalyzer", "-DHDLGEN_WITH_UIO", "-c", f, "-o", os.DevNull)...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", f, err, out)
		}
	}
}
