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
// left in the system give an error, never OK, and the next batch is right; a
// surplus record is an error; a marker record (a stray beat with TLAST) is an
// error, never class -1; S2MM is armed with the whole result half of the
// buffer; no length is programmed while a channel is halted (dma_reset waits
// for Halted to clear); for designs with and without scores. Mutants without
// that wait, without the batch-tag check or without the flags check are
// caught.
//
// What it does not show: the real DMA's or kernel's behaviour (the model
// follows PG021 as read) and the interrupt (poll(2) on a plain file returns
// at once, so the wait degrades to polling).
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
		got := runUIOCheck(t, exe, spec, b, 0)
		stall := regexp.MustCompile(`^ok (\d+) ms$`).FindStringSubmatch(got["stall"])
		if stall == nil {
			t.Errorf("scores %t: stall: %q, want ok with the time the call took", scores, got["stall"])
		} else if ms, _ := strconv.Atoi(stall[1]); ms < 50 || ms > 2000 {
			t.Errorf("scores %t: stall: the call took %d ms, want the 50 ms floor and little more", scores, ms)
		}
		want := map[string]string{"normal": "ok", "stale": "ok", "surplus": "ok", "marker": "ok", "halted": "ok",
			"flood": "ok", "flush": "ok",
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
	}{
		{"no-halted-wait", "backend_uio.c", "halted",
			regexp.MustCompile(`(?s)  while \(\(dma_rd\(c, MM2S_DMASR\) \| dma_rd\(c, S2MM_DMASR\)\) & DMASR_HALTED\)\n    if[^;]*;\n`)},
		{"no-tag-check", "hdlgen.c", "stale", regexp.MustCompile(`x->tag != tag \|\| `)},
		{"no-flags-check", "hdlgen.c", "marker", regexp.MustCompile(` \|\| \(x->flags & ~HDLGEN_RESULT_BANK1\)`)},
	} {
		mdir := filepath.Join(t.TempDir(), "drv")
		run(t, ".", "cp", "-a", drivers[false], mdir)
		src := filepath.Join(mdir, m.file)
		code, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if !m.re.Match(code) {
			t.Fatalf("%s: %s: nothing to remove", m.name, m.file)
		}
		if err := os.WriteFile(src, m.re.ReplaceAll(code, nil), 0o644); err != nil {
			t.Fatal(err)
		}
		exe := filepath.Join(mdir, "uio_check")
		buildUIOCheck(t, mdir, b, exe, false)
		if got := runUIOCheck(t, exe, spec, b, 0); !strings.HasPrefix(got[m.cse], "FAIL") {
			t.Errorf("mutant %s: the %s case says %q, want FAIL", m.name, m.cse, got[m.cse])
		}
	}
}
