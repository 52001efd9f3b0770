package power

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TestGeneratorReplacesWinROM checks the analytic model of a design with the
// on-chip W_in generator: the W_in ROM's LUTs, read-register FFs and block
// RAM are gone from the "rom" block, and the front gains the window
// register (M = max(31, K+P−1) FFs) and one LUT per window bit.
func TestGeneratorReplacesWinROM(t *testing.T) {
	for _, tc := range []struct{ k, n, p int }{{16, 512, 1}, {16, 512, 8}, {3, 50, 40}, {1, 7, 1}} {
		t.Run(fmt.Sprintf("K%d_N%d_P%d", tc.k, tc.n, tc.p), func(t *testing.T) {
			stored := Design{Shape: Shape{Arch: model.IntRVFL, K: tc.k, L: 4, Kappa: 3, Bits: 5}, N: tc.n, Options: plan.Options{Parallel: tc.p}}
			gen := stored
			gen.Win = model.WinPRBS31
			st := newStructure(stored)
			cs, hs := componentsOf(stored, st)
			cg, hg := componentsOf(gen, st)
			winROM := mapROM(st.G, st.WinW, false)
			if diff := cmp.Diff(hs.rom[0], winROM); diff != "" {
				t.Fatalf("stored design's W_in ROM mapping (-want +got):\n%s", diff)
			}
			if hg.rom[0] != (romMapping{}) {
				t.Errorf("generator design has a W_in ROM: %+v", hg.rom[0])
			}
			if got, want := cg[cROM].RawLUT, cs[cROM].RawLUT-winROM.LUTs; got != want {
				t.Errorf("rom block LUTs %v, want %v (stored %v minus the W_in ROM's %v)", got, want, cs[cROM].RawLUT, winROM.LUTs)
			}
			if got, want := cg[cROM].RawFF, cs[cROM].RawFF-winROM.Columns; got != want {
				t.Errorf("rom block FFs %v, want %v", got, want)
			}
			m := float64(max(31, tc.k+tc.p-1))
			if got, want := cg[cFront].RawFF-cs[cFront].RawFF, m; got != want {
				t.Errorf("front FFs grow by %v, want the window's %v", got, want)
			}
			if got, want := cg[cFront].RawLUT-cs[cFront].RawLUT, m; got != want {
				t.Errorf("front LUTs grow by %v, want %v", got, want)
			}
			rs, err := Analytic(stored)
			if err != nil {
				t.Fatal(err)
			}
			rg, err := Analytic(gen)
			if err != nil {
				t.Fatal(err)
			}
			if want := rs.BRAM36 - float64(winROM.RAMB36) - 0.5*float64(winROM.RAMB18); rg.BRAM36 != want {
				t.Errorf("BRAM36 %v, want %v", rg.BRAM36, want)
			}
		})
	}
	if err := (Design{Shape: Shape{Arch: model.RVFL8, K: 4, L: 2, Win: model.WinPRBS31}, N: 8, Options: plan.Options{Parallel: 1}}).Check(); err == nil {
		t.Errorf("rvfl8 with a generated W_in passes Check")
	}
}
