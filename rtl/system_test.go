package rtl

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hdlgen/hdlgen/hostdrv"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
)

func TestSystemOptionErrors(t *testing.T) {
	m := testmodel.Random(intShape(3, 7, 3, 3, 5), "e", 1)
	// P = N = 513 with 10 classes of 9-bit weights: a 46,170-bit readout word.
	wideWord := testmodel.Random(intShape(2, 513, 10, 3, 8), "w", 1)
	wideScore := testmodel.Random(intShape(2, 9000, 2, 15, 16), "wide", 1)
	tests := []struct {
		name string
		m    *model.Model
		o    Options
		want string
	}{
		{"reloadable alone", m, Options{Options: plan.Options{ReloadableReadout: true}}, "needs the system top"},
		{"no scores alone", m, Options{SystemNoScores: true}, "need the system top"},
		{"unknown system", m, Options{System: "versal"}, `unknown system top "versal"`},
		{"word too wide", wideWord, Options{Options: plan.Options{ReloadableReadout: true, Parallel: 513}, System: SystemZynq}, "at most 1024 bits"},
		{"score too wide", wideScore, Options{Options: plan.Options{Parallel: 9000}, System: SystemZynq}, "AW="},
	}
	for _, tc := range tests {
		_, _, err := Generate(context.Background(), tc.m, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// TestSystemFiles: a system emit writes the system top, its primitives,
// testbenches and vectors, the identification of the design, and nothing of it
// without --system; it is deterministic.
func TestSystemFiles(t *testing.T) {
	m := testmodel.Random(intShape(5, 13, 3, 3, 5), "sysf", 4)
	o := Options{Options: plan.Options{Parallel: 4, ReloadableReadout: true}, Vectors: 40, Seed: 2, System: SystemZynq}
	files, rep, err := Generate(context.Background(), m, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"rtl/sysf_system.v", "rtl/hdlgen_axis_frames.v", "rtl/hdlgen_axis_fifo.v", "rtl/hdlgen_axis_records.v",
		"rtl/hdlgen_axil.v", "rtl/hdlgen_ro_ram.v", "tb/tb_system.v", "tb/tb_system.cpp", "tb/system_harness.h",
		"vectors/sys_in.mem", "vectors/sys_ops.mem", "vectors/sys_out.mem", "vectors/sys_rd.mem"} {
		if _, ok := files[f]; !ok {
			t.Errorf("no %s", f)
		}
	}
	if rep.SystemTop != "sysf_system" || rep.SystemCycles == 0 {
		t.Errorf("report: system top %q, %d cycles", rep.SystemTop, rep.SystemCycles)
	}
	id, err := SystemIdentity(m, rep.Plan, o)
	if err != nil {
		t.Fatal(err)
	}
	vals, _ := id.Values()
	top := string(files["rtl/sysf_system.v"])
	for _, v := range vals {
		if want := fmt.Sprintf("VAL_%s", v.Name); !strings.Contains(top, want) || !strings.Contains(top, fmt.Sprintf("32'h%08x", v.Value)) {
			t.Errorf("the system top lacks %s = %#x", want, v.Value)
		}
	}
	if id.ModelHash != regmap.HashModel(files["model.json"]) {
		t.Error("the identity's model hash is not that of the emitted model.json")
	}
	again, _, err := Generate(context.Background(), m, o)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files, again); diff != "" {
		t.Errorf("two system emits differ:\n%s", diff)
	}
	plain, _, err := Generate(context.Background(), m, Options{Options: plan.Options{Parallel: 4}, Vectors: 40, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for f := range plain {
		if strings.Contains(f, "system") || strings.HasPrefix(f, "vectors/sys_") {
			t.Errorf("%s without --system", f)
		}
	}
	// Every non-constant register of the map is decoded by the template.
	for _, r := range regmap.Registers {
		if !r.Const && r.Access != regmap.W && !strings.Contains(top, "REG_"+r.Name+"[AddrW-1:2]") {
			t.Errorf("the register file does not decode %s", r.Name)
		}
	}
}

// TestReadoutImageMatchesMem: the RO_DATA image of the model's readout is the
// readout .mem file's words (both banks of a reloadable design).
func TestReadoutImageMatchesMem(t *testing.T) {
	for _, tc := range []struct {
		shape testmodel.Shape
		p     int
	}{{intShape(3, 7, 3, 15, 5), 3}, {intShape(16, 64, 4, 3, 5), 8}, {r8Shape(3, 13, 10), 4}, {intShape(2, 40, 2, 1, 2), 1}} {
		m := testmodel.Random(tc.shape, "img", 3)
		files, rep, err := Generate(context.Background(), m, Options{Options: plan.Options{Parallel: tc.p, ReloadableReadout: true}, Vectors: 10, System: SystemZynq})
		if err != nil {
			t.Fatal(err)
		}
		pl := rep.Plan
		rows := hexRows(t, string(files[pl.ROM(plan.ROMWout).File]))
		if len(rows) != 2<<pl.GroupW {
			t.Fatalf("%s: %d words in the readout RAM file, want %d", tc.shape, len(rows), 2<<pl.GroupW)
		}
		img := regmap.ReadoutImage(pl, m.Readout.Q)
		c := regmap.Chunks(pl)
		for bank := 0; bank < 2; bank++ {
			for g := 0; g < pl.Groups; g++ {
				word := rows[bank<<pl.GroupW+g]
				for k := 0; k < c; k++ {
					var chunk uint32
					for b := 0; b < 32; b++ {
						chunk |= uint32(word.Bit(32*k+b)) << b
					}
					if chunk != img[g*c+k] {
						t.Fatalf("%s: bank %d word %d chunk %d: .mem %#x, image %#x", tc.shape, bank, g, k, chunk, img[g*c+k])
					}
				}
			}
		}
	}
}

// TestSystemThroughput: the median networks' system tops run at ≥ 95 % of
// their core's rate (one vector every II cycles) at P = 8 and P = 1, measured by
// the simulation of the free-running batch (no back-pressure, beats back to
// back). `go test ./rtl -run TestSystemThroughput -v` prints the numbers.
func TestSystemThroughput(t *testing.T) {
	for _, tc := range []struct {
		shape testmodel.Shape
		p     int
	}{{intShape(16, 512, 4, 3, 5), 8}, {intShape(16, 512, 4, 3, 5), 1}, {r8Shape(16, 512, 4), 8}, {r8Shape(16, 512, 4), 1}} {
		p := tc.p
		m := testmodel.Random(tc.shape, "median", 1)
		_, rep, err := Generate(context.Background(), m, Options{Options: plan.Options{Parallel: p, ReloadableReadout: true}, Vectors: 200, System: SystemZynq})
		if err != nil {
			t.Fatal(err)
		}
		cpv := rep.SystemCyclesPerVector
		rate := float64(rep.Plan.II) / cpv
		t.Logf("median %s P=%d: %.2f cycles per vector, core II %d: %.1f %% of the core's rate, %.0f classifications/s at 100 MHz",
			m.Arch(), p, cpv, rep.Plan.II, 100*rate, 100e6/cpv)
		if cpv == 0 || rate < 0.95 {
			t.Errorf("P=%d: %.2f cycles per vector, %.1f %% of the core's rate (want ≥ 95 %%)", p, cpv, 100*rate)
		}
	}
}

// TestSystemLint lints the system tops of a few shapes with both linters.
func TestSystemLint(t *testing.T) {
	hwtest.Require(t, hwtest.VerilatorLint, hwtest.Icarus)
	for _, tc := range []struct {
		shape testmodel.Shape
		o     Options
	}{
		{intShape(1, 1, 2, 1, 2), Options{System: SystemZynq}},
		{intShape(31, 7, 2, 15, 5), Options{Options: plan.Options{Parallel: 7, ReloadableReadout: true}, System: SystemZynq}},
		{r8Shape(3, 13, 10), Options{Options: plan.Options{Parallel: 4, ReloadableReadout: true}, System: SystemZynq, SystemNoScores: true, Axis: true}},
	} {
		tc.o.Vectors = 5
		m := testmodel.Random(tc.shape, "lint", 5)
		dir, rep := emitted(t, m, tc.o)
		lint(t, dir, rep)
	}
}

// TestSelfTestRepeatsFewVectors: a system design emitted with fewer test
// vectors than the driver's self-test needs (its malformed-vector and flush
// checks use hostdrv.MinSelfTestVectors) repeats them, rather than failing
// the emit (the campaign draws designs with 1 or 2 vectors).
func TestSelfTestRepeatsFewVectors(t *testing.T) {
	m := testmodel.Random(intShape(3, 8, 2, 1, 4), "few", 5)
	for _, vectors := range []int{1, 2, 3} {
		files, rep, err := Generate(context.Background(), m, Options{Options: plan.Options{Parallel: 2}, Vectors: vectors, Seed: 1, System: SystemZynq})
		if err != nil {
			t.Fatalf("%d vectors: %v", vectors, err)
		}
		st, err := selfTestData(files, rep.Plan)
		if err != nil {
			t.Fatalf("%d vectors: %v", vectors, err)
		}
		if len(st.Inputs) != hostdrv.MinSelfTestVectors {
			t.Fatalf("%d vectors: %d self-test vectors, want %d", vectors, len(st.Inputs), hostdrv.MinSelfTestVectors)
		}
		for v := range st.Inputs {
			src := v % vectors
			if diff := cmp.Diff(st.Inputs[src], st.Inputs[v]); diff != "" || st.Classes[v] != st.Classes[src] || !slices.Equal(st.Scores[v], st.Scores[src]) {
				t.Errorf("%d vectors: self-test vector %d is not test vector %d (-want +got):\n%s", vectors, v, src, diff)
			}
		}
	}
}
