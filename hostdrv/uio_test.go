package hostdrv_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
)

// fakeBoard lays out what the uio backend finds on a board, under root: the
// two UIO devices and the u-dma-buf device as plain files, and their sysfs
// attributes (map sizes, the buffer's physical address and size).
type fakeBoard struct {
	sysfs, regs, dma, buf string
	phys                  uint64
}

// bufBytes is the fake u-dma-buf's size, the overlay's default.
const bufBytes = 4 << 20

func newFakeBoard(t *testing.T, root string) fakeBoard {
	t.Helper()
	b := fakeBoard{
		sysfs: filepath.Join(root, "sys"),
		regs:  filepath.Join(root, "dev", "uio0"),
		dma:   filepath.Join(root, "dev", "uio1"),
		buf:   filepath.Join(root, "dev", "udmabuf-hdlgen"),
		phys:  0x1f000000,
	}
	files := map[string]string{
		"class/uio/uio0/name":                      "hdlgen-system",
		"class/uio/uio0/maps/map0/size":            "0x1000",
		"class/uio/uio1/name":                      "hdlgen-dma",
		"class/uio/uio1/maps/map0/size":            "0x10000",
		"class/u-dma-buf/udmabuf-hdlgen/phys_addr": fmt.Sprintf("%#x", b.phys),
		"class/u-dma-buf/udmabuf-hdlgen/size":      strconv.Itoa(bufBytes),
	}
	for name, v := range files {
		p := filepath.Join(b.sysfs, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for path, size := range map[string]int64{b.regs: 0x1000, b.dma: 0x10000, b.buf: bufBytes} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// uioSources are the driver's C files linked with the uio backend.
var uioSources = []string{"hdlgen.c", "hdlgen_encode.c", "hdlgen_design.c", "hdlgen_crc32.c", "hdlgen_selftest.c",
	"hdlgen_selftest_data.c", "backend_uio.c"}

// sanitizers are the flags of the driver's one sanitized build (issue 36.13):
// AddressSanitizer and UndefinedBehaviorSanitizer, any finding fatal.
var sanitizers = []string{"-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"}

// buildUIOCheck compiles testdata/uio_check.c with the driver in dir, its
// uio backend built against the fake (HDLGEN_UIO_FAKE) and the fake sysfs,
// with the sanitizers when sanitize is set.
func buildUIOCheck(t *testing.T, dir string, b fakeBoard, exe string, sanitize bool) {
	t.Helper()
	args := append([]string{}, cflags...)
	if sanitize {
		args = append(args, sanitizers...)
	}
	args = append(args, "-DHDLGEN_WITH_UIO", "-DHDLGEN_UIO_FAKE", fmt.Sprintf("-DHDLGEN_SYSFS=%q", b.sysfs), "-o", exe)
	args = append(append(args, uioSources...), "uio_check.c", "-lm")
	run(t, dir, "cc", args...)
}

// runUIOCheck runs the check with the fake DataMover holding hold words and
// returns each case's verdict line by name.
func runUIOCheck(t *testing.T, exe, spec string, b fakeBoard, hold int) map[string]string {
	t.Helper()
	out, err := exec.Command(exe, spec, b.buf, fmt.Sprintf("%#x", b.phys), strconv.Itoa(hold)).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", exe, err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "case" {
			got[f[1]] = strings.Join(f[2:], " ")
		}
	}
	t.Logf("%s:\n%s", filepath.Base(exe), out)
	return got
}

// TestUIOBackendOnFakeDMA runs the board's backend, unchanged but for its
// register accesses, against a model of the AXI DMA in direct register mode
// and of the system (testdata/uio_check.c), through a fake sysfs (issue 30,
// items 2, 4 and 8): batches come back right; a stalled S2MM times out after
// the timeout_ms floor and the next batch is right; results of another batch
// arriving before a call's own give an error, never OK, and the next batch is
// right; a surplus record is an error; a marker record (a stray beat with
// TLAST) is an error, never class -1; S2MM is armed with the whole result
// half of the buffer; no length is programmed while a channel is halted
// (dma_reset waits for Halted to clear); for designs with and without scores.
// Issue 36: the fake DMA's S2MM holds 4 words while no transfer is armed, as
// the AXI DMA's DataMover does (item 12): after a flush, and after results
// left by a send, the next batch is right (items 12 and 15); a flood of
// records without TLAST fills S2MM's length and the driver copies no more than
// its buffer holds (item 13: this build runs under AddressSanitizer and
// UBSan, which abort on the overflow). Mutants without the Halted wait, the
// batch-tag check, the flags check, the flush's second DMA reset or the drain
// before a batch are caught. A batch whose interrupt never comes fails,
// naming it, instead of passing after the whole wait (item 14); one whose
// interrupt comes passes.
//
// What it does not show: the real DMA's or kernel's behaviour (the model
// follows PG021 and PG022 as read) and the kernel's interrupt delivery (the
// fake answers the backend's wait in place of poll(2) on the UIO device).
func TestUIOBackendOnFakeDMA(t *testing.T) {
	hwtest.Require(t, hwtest.CC)
	shape := randmodel.Shape{Arch: model.IntRVFL, K: 3, N: 7, L: 2, Kappa: 1, Bits: 3}
	b := newFakeBoard(t, t.TempDir())
	spec := fmt.Sprintf("uio:regs=%s,dma=%s,buf=%s,timeout_ms=50", b.regs, b.dma, b.buf)
	drivers := map[bool]string{}
	for _, scores := range []bool{true, false} {
		dir := writeDriver(t, designWith(t, shape, nil, 2, scores))
		copyFile(t, filepath.Join("testdata", "uio_check.c"), filepath.Join(dir, "uio_check.c"))
		drivers[scores] = dir
		exe := filepath.Join(dir, "uio_check")
		buildUIOCheck(t, dir, b, exe, true)
		got := runUIOCheck(t, exe, spec, b, 4)
		stall := regexp.MustCompile(`^ok (\d+) ms$`).FindStringSubmatch(got["stall"])
		if stall == nil {
			t.Errorf("scores %t: stall: %q, want ok with the time the call took", scores, got["stall"])
		} else if ms, _ := strconv.Atoi(stall[1]); ms < 50 || ms > 2000 {
			t.Errorf("scores %t: stall: the call took %d ms, want the 50 ms floor and little more", scores, ms)
		}
		want := map[string]string{"normal": "ok", "stale": "ok", "surplus": "ok", "marker": "ok", "halted": "ok",
			"flood": "ok", "flush": "ok", "leftover": "ok", "irq": "ok", "noirq": "ok",
			"armed": fmt.Sprintf("ok %d bytes", bufBytes/2), "stall": got["stall"]}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("scores %t: cases (-want +got):\n%s", scores, diff)
		}
	}

	// The mutants, on the design without scores (where a marker record is
	// as long as a classified one): dma_reset without its wait for Halted;
	// run_batch without its check of the batch tag, or of the flags. Each is
	// caught by its case.
	for _, m := range []struct {
		name, file, cse string
		re              *regexp.Regexp
		scores          bool
		with            string // the replacement (default: the first group, if any)
	}{
		{"no-halted-wait", "backend_uio.c", "halted",
			regexp.MustCompile(`(?s)  while \(\(dma_rd\(c, MM2S_DMASR\) \| dma_rd\(c, S2MM_DMASR\)\) & DMASR_HALTED\)\n    if[^;]*;\n`), false, ""},
		{"no-tag-check", "hdlgen.c", "stale", regexp.MustCompile(`x->tag != tag \|\| `), false, ""},
		{"no-flags-check", "hdlgen.c", "marker", regexp.MustCompile(` \|\| \(x->flags & ~HDLGEN_RESULT_BANK1\)`), false, ""},
		// hdlgen_flush without its reset after the FLUSH: the words the
		// DataMover took between the first reset and the FLUSH lead the next
		// batch (issue 36.12). With scores, 3 records outgrow its 4 words.
		{"no-reset-after-flush", "hdlgen.c", "flush",
			regexp.MustCompile(`(?s)(CTRL_FLUSH_MASK\)\) != HDLGEN_OK\) return rc;\n)  if \(\(rc = dev->be->reset_dma[^\n]*\n`), true, ""},
		// run_batch without its flush of what a send left (issue 36.15).
		{"no-drain", "hdlgen.c", "leftover", regexp.MustCompile(`  if \(rc == HDLGEN_OK && \(dev->dirty[^\n]*\n`), false, ""},
		// uio_transfer without its check of the interrupt (issue 36.14).
		{"no-irq-check", "backend_uio.c", "noirq", regexp.MustCompile(`if \(late\) \{`), false, "if (0 && late) {"},
	} {
		mdir := filepath.Join(t.TempDir(), "drv")
		run(t, ".", "cp", "-a", drivers[m.scores], mdir)
		src := filepath.Join(mdir, m.file)
		code, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if !m.re.Match(code) {
			t.Fatalf("%s: %s: nothing to remove", m.name, m.file)
		}
		with := m.with
		if with == "" {
			with = "$1"
		}
		if err := os.WriteFile(src, m.re.ReplaceAll(code, []byte(with)), 0o644); err != nil {
			t.Fatal(err)
		}
		exe := filepath.Join(mdir, "uio_check")
		buildUIOCheck(t, mdir, b, exe, false)
		if got := runUIOCheck(t, exe, spec, b, 4); !strings.HasPrefix(got[m.cse], "FAIL") {
			t.Errorf("mutant %s: the %s case says %q, want FAIL", m.name, m.cse, got[m.cse])
		}
	}
}
