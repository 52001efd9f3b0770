package hostdrv_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// slowShape is issue 30's design of the stale-batch report (--n 512
// --parallel 1 --no-scores): II = 512 cycles, far above 64 cycles per word of
// a vector's 2 input beats and 1-beat record.
var slowShape = randmodel.Shape{Arch: model.IntRVFL, K: 5, N: 512, L: 3, Kappa: 3, Bits: 5}

var slowOnce struct {
	m    *model.Model
	data model.Data
	drv  string
	err  error
	ran  bool
}

// buildSlowDesign emits slowShape at P = 1 without scores (no reloadable
// readout) and builds its simulation driver, once for the tests below.
func buildSlowDesign(t *testing.T) (*model.Model, model.Data, string) {
	t.Helper()
	hwtest.Require(t, hwtest.Verilator, hwtest.CC)
	if !slowOnce.ran {
		slowOnce.ran = true
		slowOnce.m, slowOnce.data = randmodel.Trained(slowShape, "slow", 2)
		root, err := os.MkdirTemp("", "hdlgen-slow-")
		if err != nil {
			slowOnce.err = err
		} else {
			slowOnce.drv, slowOnce.err = emitSimWith(slowOnce.m, rtl.Options{Options: plan.Options{Parallel: 1}, System: rtl.SystemZynq, SystemNoScores: true, Vectors: 20}, filepath.Join(root, "design"))
		}
	}
	if slowOnce.err != nil {
		t.Fatal(slowOnce.err)
	}
	return slowOnce.m, slowOnce.data, slowOnce.drv
}

// planResult is what sim_check wrote for a plan: per row its class (from
// "rec" lines), and the batches that failed ("fail FIRST COUNT STATUS").
type planResult struct {
	class map[int]int
	seq   map[int]int
	fails map[int]int // first row of the batch → status
}

func runPlan(t *testing.T, drv, spec string, rows [][]float64, plan string) planResult {
	t.Helper()
	work := t.TempDir()
	rowsPath, planPath, outPath := filepath.Join(work, "rows.bin"), filepath.Join(work, "plan.txt"), filepath.Join(work, "out.txt")
	writeRows(t, rowsPath, rows)
	if err := os.WriteFile(planPath, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := filepath.Abs("testdata/sim_check.c")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "sim_check")
	lib := filepath.Join(drv, "build", "sim")
	run(t, drv, "cc", append(cflags, "-I.", "-o", bin, src, "-L"+lib, "-lhdlgen_sim", "-Wl,-rpath,"+lib)...)
	cmd := exec.Command(bin, spec, rowsPath, planPath, "/dev/null", outPath)
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sim_check %s: %v\n%s", spec, err, out)
	} else {
		t.Logf("sim_check %s:\n%s", spec, out)
	}
	f, err := os.Open(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res := planResult{class: map[int]int{}, seq: map[int]int{}, fails: map[int]int{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		nums := make([]int, len(fields)-1)
		for i, s := range fields[1:] {
			if nums[i], err = strconv.Atoi(s); err != nil {
				t.Fatalf("out.txt: %q", sc.Text())
			}
		}
		switch fields[0] {
		case "rec":
			res.class[nums[0]], res.seq[nums[0]] = nums[3], nums[1]
		case "fail":
			res.fails[nums[0]] = nums[2]
		}
	}
	return res
}

// TestStaleBatch is issue 30's stale-batch scenario and its recovery, on the
// design of the report (II = 512): every call returns an error or exactly the
// results of its own vectors, never OK with another batch's.
//
//   - the report's run: a 100-vector batch (with the fixed 64-cycles-per-word
//     wait it timed out, and the later calls returned the results of the batch
//     two before); with the wait derived from II it succeeds, and so do the
//     next batches;
//   - a transfer whose S2MM stalls (fault injection: stall=2) times out; the
//     driver resets the DMA and flushes the system, and the next batches are
//     correct;
//   - results left by a send without receiving (a batch of the same size,
//     seq 0…2 like the next one's; the DMA's DataMover takes all 3 one-word
//     records, the rest waits in the system) are flushed before the next
//     call, which is correct (issue 36.15; before, it failed on their batch
//     tag, and with the four beats modelled the call after it failed too).
func TestStaleBatch(t *testing.T) {
	m, data, drv := buildSlowDesign(t)
	rows := simRows(m, data, 400, 41)
	check := func(res planResult, batches [][2]int, wantFail map[int]bool) {
		t.Helper()
		for _, b := range batches {
			first, n := b[0], b[1]
			status, failed := res.fails[first]
			if failed != wantFail[first] {
				t.Errorf("batch at row %d: failed %v (status %d), want failed %v", first, failed, status, wantFail[first])
			}
			if failed {
				for r := first; r < first+n; r++ {
					if _, ok := res.class[r]; ok {
						t.Errorf("row %d of a failed batch has a result", r)
					}
				}
				continue
			}
			wrong := 0
			for r := first; r < first+n; r++ {
				if c, ok := res.class[r]; !ok || c != m.Predict(rows[r]) {
					wrong++
				}
			}
			if wrong > 0 {
				t.Errorf("batch at row %d returned OK with %d of %d results wrong or missing", first, wrong, n)
			}
		}
	}
	t.Run("report", func(t *testing.T) {
		batches := [][2]int{{0, 100}, {100, 10}, {110, 10}, {120, 10}, {130, 10}, {140, 10}}
		var plan strings.Builder
		for _, b := range batches {
			fmt.Fprintf(&plan, "try %d %d\n", b[0], b[1])
		}
		check(runPlan(t, drv, "sim:seed=2", rows, plan.String()), batches, nil)
	})
	t.Run("stall", func(t *testing.T) {
		batches := [][2]int{{0, 20}, {20, 100}, {120, 10}, {130, 30}}
		var plan strings.Builder
		for _, b := range batches {
			fmt.Fprintf(&plan, "try %d %d\n", b[0], b[1])
		}
		check(runPlan(t, drv, "sim:seed=3,valid=0.7,ready=0.6,stall=2", rows, plan.String()), batches,
			map[int]bool{20: true})
	})
	t.Run("stale results", func(t *testing.T) {
		// Three vectors: the system holds them (their results) without an S2MM
		// transfer; the next batch is as long, so the count alone cannot tell.
		plan := "try 0 3\nsend 200 3\ntry 10 3\ntry 20 3\n"
		check(runPlan(t, drv, "sim:seed=4", rows, plan), [][2]int{{0, 3}, {10, 3}, {20, 3}}, nil)
	})
}

// TestBatchCapByTime: a batch holds at most 0.1 s of the PL's time (II ×
// vectors), so its wait stays short: the slow design (II 512) takes at most
// 19,531 vectors per batch at 100 MHz.
func TestBatchCapByTime(t *testing.T) {
	_, _, drv := buildSlowDesign(t)
	info := run(t, drv, filepath.Join(drv, "build/sim/hdlgen-run-sim"), "info")
	if !strings.Contains(info, "II 512 cycles at 100 MHz") || !strings.Contains(info, "batch 19531 vectors") {
		t.Errorf("info: want II 512 at 100 MHz and a batch of 100e6/10/512 = 19531 vectors:\n%s", info)
	}
}

// TestSpecErrors: device specs with a bad or unknown option are refused at
// open with a message naming it (the uio backend's timeout_ms was parsed
// unchecked), before any device is touched.
func TestSpecErrors(t *testing.T) {
	_, _, drv := buildSlowDesign(t)
	runSim := filepath.Join(drv, "build/sim/hdlgen-run-sim")
	for _, c := range []struct{ spec, want string }{
		{"uio:timeout_ms=abc", "timeout_ms=abc: want a whole number of milliseconds"},
		{"uio:timeout_ms=0", "timeout_ms=0"},
		{"uio:timeout_ms=5s", "timeout_ms=5s"},
		{"uio:irq=2", "irq=2: want 0 (poll) or 1"},
		{"uio:timeout=5", `unknown option "timeout=5"`},
		{"sim:stall=x", "stall=x"},
		{"sim:valid=0", "valid=0 ready=1: probabilities must lie in (0, 1]"},
		{"sim:seed=-1", "seed=-1"},
		{"sim:speed=2", `unknown option "speed=2"`},
	} {
		out, err := exec.Command(runSim, "-d", c.spec, "info").CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: %v\n%s", c.spec, err, out)
		}
	}
}
