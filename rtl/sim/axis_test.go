package sim

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TestAxisResync is the regression test of the wrapper's framing: a frame of the
// wrong length (TLAST early, late, or on a one-beat frame when K > 1) is dropped
// and counted, and every later vector is still classified correctly and with
// the wrapper's latency. Before the fix one short frame shifted every later
// result by a beat.
func TestAxisResync(t *testing.T) {
	i, r := model.IntRVFL, model.RVFL8
	tests := []struct {
		name  string
		shape testmodel.Shape
		p     int
		junk  map[int]int // vector → junk frame length before it
	}{
		{"short", testmodel.Shape{Arch: i, K: 16, N: 64, L: 4, Kappa: 3, Bits: 5}, 8, map[int]int{1: 5}},
		{"one beat", testmodel.Shape{Arch: i, K: 3, N: 7, L: 3, Kappa: 15, Bits: 8}, 3, map[int]int{2: 1}},
		{"long", testmodel.Shape{Arch: i, K: 3, N: 7, L: 3, Kappa: 15, Bits: 8}, 1, map[int]int{1: 4, 3: 6}},
		{"K=1 long", testmodel.Shape{Arch: i, K: 1, N: 7, L: 2, Kappa: 1, Bits: 2}, 7, map[int]int{1: 2, 2: 3}},
		{"back to back", testmodel.Shape{Arch: r, K: 3, N: 7, L: 3}, 3, map[int]int{1: 2, 2: 5, 3: 1, 4: 4}},
	}
	for ti, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := testmodel.Random(tc.shape, "t", uint64(ti+1))
			for _, hold := range []bool{false, true} {
				c := newCoreWith(t, m, plan.Options{Parallel: tc.p, HoldInput: hold})
				resync(t, c, m, hold, tc.junk, uint64(ti))
			}
		})
	}
}

// resync runs TestAxisResync's stimulus with junk frames on one design.
func resync(t *testing.T, c *Core, m *model.Model, hold bool, junk map[int]int, seed uint64) {
	t.Helper()
	for _, mode := range []struct {
		name   string
		readyP float64
		maxGap int
	}{{"free", 1, 0}, {"both", 0.5, 4}} {
		mode.name += fmt.Sprintf(" hold=%v", hold)
		st := stimulus(c, 8, mode.readyP, mode.maxGap, seed)
		st.AxisJunk = make([]int, len(st.Inputs))
		for v, n := range junk {
			st.AxisJunk[v] = n
		}
		run, err := c.RunAxis(context.Background(), st)
		if err != nil {
			t.Fatalf("%s: %v", mode.name, err)
		}
		for v, o := range run.Outputs {
			want := reference(m, st.Inputs[v])
			if !cmp.Equal(want, o.Scores) || o.Class != model.ArgmaxInt(want) {
				t.Fatalf("%s vector %d: got %d %v, want %d %v", mode.name, v, o.Class, o.Scores, model.ArgmaxInt(want), want)
			}
			if o.Latency() < c.Plan().AxisLatency {
				t.Errorf("%s vector %d: latency %d < %d", mode.name, v, o.Latency(), c.Plan().AxisLatency)
			}
		}
		if run.Dropped != len(junk) {
			t.Errorf("%s: dropped %d frames, want %d", mode.name, run.Dropped, len(junk))
		}
	}
}
