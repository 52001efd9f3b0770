package sim

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
)

// sysCore builds a design and its system configuration (queue 2^3, drop count
// 8 bits, as rtl emits small designs).
func sysCore(t *testing.T, s testmodel.Shape, p int, reloadable, scores bool) (*model.Model, *Core, SystemConfig) {
	t.Helper()
	m := testmodel.Random(s, "sys", 7)
	pl, err := plan.New(m, plan.Options{Parallel: p, ReloadableReadout: reloadable})
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(m, pl)
	if err != nil {
		t.Fatal(err)
	}
	rec := 1
	if scores {
		rec = pl.L + 1
	}
	fpb, b, _ := regmap.Framing(pl.K, pl.LW)
	ii := max(pl.II, b, rec+1)
	id, err := regmap.NewIdentity(pl, []byte("{}"), pl.Latency, ii, reloadable, scores)
	if err != nil {
		t.Fatal(err)
	}
	if id.PerBeat != fpb {
		t.Fatal("framing")
	}
	return m, c, SystemConfig{ID: id, QueueW: 3, DropW: 8}
}

// frame builds input beats for the tests: vector beats with SOV/EOV as asked.
type frame struct {
	id    regmap.Identity
	beats []SysBeat
}

// vector appends the B beats of in; last sets TLAST on the final one.
func (f *frame) vector(in []int, last bool) {
	for b := 0; b < f.id.Beats; b++ {
		var d uint32
		for j := 0; j < f.id.PerBeat; j++ {
			if i := b*f.id.PerBeat + j; i < len(in) {
				d |= uint32(in[i]) << (j * f.id.LW)
			}
		}
		if b == 0 {
			d |= regmap.BeatSOV
		}
		if b == f.id.Beats-1 {
			d |= regmap.BeatEOV
		}
		f.beats = append(f.beats, SysBeat{Data: d, Last: last && b == f.id.Beats-1})
	}
}

// raw appends beats given as "S" (SOV), "E" (EOV), "SE", "-" (neither), with
// "L" for TLAST.
func (f *frame) raw(marks ...string) {
	for _, m := range marks {
		var d uint32 = 5
		last := false
		for _, ch := range m {
			switch ch {
			case 'S':
				d |= regmap.BeatSOV
			case 'E':
				d |= regmap.BeatEOV
			case 'L':
				last = true
			}
		}
		f.beats = append(f.beats, SysBeat{Data: d, Last: last})
	}
}

// script sends the beats, waits for outs output beats and reads the counters.
func (f *frame) script(outs int, ready []bool) SysScript {
	ops := []SysOp{{Kind: OpSend, N: len(f.beats)}, {Kind: OpWaitSent}, {Kind: OpWaitOut, N: outs}}
	for _, r := range []string{"COUNT_CLASSIFIED", "COUNT_DROPPED", "COUNT_STRAY", "COUNT_BATCHES", "STATUS"} {
		ops = append(ops, SysOp{Kind: OpRead, Addr: regmap.Offset(r)})
	}
	ops = append(ops, SysOp{Kind: OpEnd})
	return SysScript{Beats: f.beats, Ops: ops, Ready: ready}
}

// records turns output beats into "C", "D", "M" (classified, dropped, marker)
// with "/L" for TLAST and the seq in parentheses.
func records(t *testing.T, run *SysRun, l int, scores bool) []string {
	t.Helper()
	var out []string
	for i := 0; i < len(run.Out); {
		head := run.Out[i].Data
		flags := head >> regmap.RecordFlagsShift & 0xf
		n, k := 1, "C"
		switch {
		case flags&regmap.FlagDropped != 0:
			k = "D"
		case flags&regmap.FlagMarker != 0:
			k = "M"
		case scores:
			n = l + 1
		}
		if i+n > len(run.Out) {
			t.Fatalf("record at beat %d cut short", i)
		}
		s := fmt.Sprintf("%s(%d)", k, head>>regmap.RecordSeqShift&(1<<regmap.RecordSeqBits-1))
		if run.Out[i+n-1].Last {
			s += "/L"
		}
		out = append(out, s)
		i += n
	}
	return out
}

func TestSystemFraming(t *testing.T) {
	// K = 11 levels of LW = 6 bits: 5 per beat, B = 3 beats per vector.
	shape := testmodel.Shape{Arch: model.IntRVFL, K: 11, N: 40, L: 3, Kappa: 3, Bits: 5}
	v1 := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 40}
	v2 := []int{40, 0, 40, 0, 40, 0, 40, 0, 40, 0, 40}
	many := make([]string, 300)
	for i := range many {
		many[i] = "SE"
	}
	tests := []struct {
		name   string
		build  func(f *frame)
		want   []string
		counts [4]uint32 // classified, dropped, stray, batches
	}{
		{"two vectors", func(f *frame) { f.vector(v1, false); f.vector(v2, true) }, []string{"C(0)", "C(1)/L"}, [4]uint32{2, 0, 0, 1}},
		{"short", func(f *frame) { f.raw("S", "E"); f.vector(v1, true) }, []string{"D(0)", "C(1)/L"}, [4]uint32{1, 1, 0, 1}},
		{"long", func(f *frame) { f.raw("S", "-", "-", "-", "E"); f.vector(v1, true) }, []string{"D(0)", "C(1)/L"}, [4]uint32{1, 1, 0, 1}},
		{"cut", func(f *frame) { f.raw("S", "-"); f.vector(v1, true) }, []string{"D(0)", "C(1)/L"}, [4]uint32{1, 1, 0, 1}},
		{"cut by a short one", func(f *frame) { f.raw("S", "SE"); f.vector(v2, true) }, []string{"D(0)", "D(1)", "C(2)/L"}, [4]uint32{1, 2, 0, 1}},
		{"stray", func(f *frame) { f.vector(v1, false); f.raw("-", "E"); f.vector(v2, true) }, []string{"C(0)", "C(1)/L"}, [4]uint32{2, 0, 2, 1}},
		{"early TLAST", func(f *frame) { f.vector(v1, false); f.raw("S", "-L"); f.vector(v2, true) },
			[]string{"C(0)", "D(1)/L", "C(0)/L"}, [4]uint32{2, 1, 0, 2}},
		{"stray TLAST", func(f *frame) { f.vector(v1, false); f.raw("-L"); f.vector(v2, true) },
			[]string{"C(0)", "M(1)/L", "C(0)/L"}, [4]uint32{2, 0, 1, 2}},
		{"TLAST on EOV of a short one", func(f *frame) { f.raw("S", "EL"); f.vector(v1, true) },
			[]string{"D(0)/L", "C(0)/L"}, [4]uint32{1, 1, 0, 2}},
		{"300 drops", func(f *frame) { f.raw(many...); f.vector(v1, true) }, append(dropped(300), "C(44)/L"), [4]uint32{1, 300, 0, 1}},
	}
	m, c, cfg := sysCore(t, shape, 8, false, true)
	if cfg.ID.Beats != 3 || cfg.ID.PerBeat != 5 {
		t.Fatalf("framing %d×%d, want 3×5", cfg.ID.Beats, cfg.ID.PerBeat)
	}
	for _, tc := range tests {
		for _, ready := range [][]bool{{true}, {true, false, false}} {
			t.Run(fmt.Sprintf("%s/ready%d", tc.name, len(ready)), func(t *testing.T) {
				f := &frame{id: cfg.ID}
				tc.build(f)
				outs := 0
				for _, w := range tc.want {
					outs++
					if w[0] == 'C' {
						outs += shape.L
					}
				}
				run, err := c.RunSystem(context.Background(), cfg, f.script(outs, ready))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, records(t, run, shape.L, true)); diff != "" {
					t.Errorf("records (-want +got):\n%s", diff)
				}
				var got [4]uint32
				for i := range got {
					got[i] = run.Reads[i].Data
				}
				if run.Reads[4].Write {
					t.Fatal("the script's fifth access is not a read")
				}
				if got != tc.counts {
					t.Errorf("counters classified, dropped, stray, batches = %v, want %v", got, tc.counts)
				}
				errBit := run.Reads[4].Data&regmap.Bit("STATUS", "FRAMING_ERROR") != 0
				if errBit != (tc.counts[1]+tc.counts[2] > 0) {
					t.Errorf("STATUS %#x: framing error %v", run.Reads[4].Data, errBit)
				}
				for _, r := range run.Classified {
					want := reference(m, r.In)
					if !cmp.Equal(want, r.Scores) || r.Class != model.ArgmaxInt(want) {
						t.Errorf("vector %v: class %d scores %v, want %d %v", r.In, r.Class, r.Scores, model.ArgmaxInt(want), want)
					}
				}
			})
		}
	}
}

func dropped(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("D(%d)", i%(1<<regmap.RecordSeqBits)) // seq counts mod 2^8
	}
	return out
}

// TestSystemOneBeat: B = 1 (a vector fits one beat), so a SOV beat without EOV
// is malformed at once.
func TestSystemOneBeat(t *testing.T) {
	shape := testmodel.Shape{Arch: model.IntRVFL, K: 4, N: 7, L: 2, Kappa: 1, Bits: 3}
	_, c, cfg := sysCore(t, shape, 7, false, false)
	if cfg.ID.Beats != 1 {
		t.Fatalf("B = %d, want 1", cfg.ID.Beats)
	}
	f := &frame{id: cfg.ID}
	f.raw("S", "-", "SE", "S", "SEL")
	run, err := c.RunSystem(context.Background(), cfg, f.script(4, []bool{true}))
	if err != nil {
		t.Fatal(err)
	}
	// "S" then "-" (discarded) is cut by "SE" (good), "S" is cut by "SEL" (good, end).
	want := []string{"D(0)", "C(1)", "D(2)", "C(3)/L"}
	if diff := cmp.Diff(want, records(t, run, shape.L, false)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestSystemRegisters checks the AXI4-Lite side: AW and W in either order,
// undefined and read-only addresses, identification, W1C, CLEAR, the interrupt.
func TestSystemRegisters(t *testing.T) {
	shape := testmodel.Shape{Arch: model.RVFL8, K: 3, N: 7, L: 2}
	_, c, cfg := sysCore(t, shape, 3, false, true)
	f := &frame{id: cfg.ID}
	f.vector([]int{1, 2, 3}, true)
	rd := func(reg string) SysOp {
		return SysOp{Kind: OpRead, Addr: regmap.Offset(reg), AddrDelay: 1, RespDelay: 2}
	}
	wr := func(reg string, v uint32, a, d int) SysOp {
		return SysOp{Kind: OpWrite, Addr: regmap.Offset(reg), Data: v, AddrDelay: a, DataDelay: d, RespDelay: 3}
	}
	irq, done := regmap.Bit("CTRL", "IRQ_EN"), regmap.Bit("STATUS", "BATCH_DONE")
	partial := wr("CTRL", irq, 0, 0)
	partial.Strobe = 0x3
	ops := []SysOp{
		rd("ID"), rd("SHAPE0"), {Kind: OpRead, Addr: 0x100}, {Kind: OpRead, Addr: 0xffc}, rd("RO_ADDR"),
		wr("SHAPE0", 7, 0, 3), rd("SHAPE0"), // read only: SLVERR, ignored
		wr("RO_DATA", 7, 0, 0), // no reloadable readout: SLVERR
		partial, rd("CTRL"),    // WSTRB not all ones: SLVERR, ignored
		wr("CTRL", irq, 3, 0), rd("CTRL"), // W before AW
		wr("BATCH", 0x1a5, 0, 0), rd("BATCH"), // TAG is 8 bits
		{Kind: OpSend, N: len(f.beats)}, {Kind: OpWaitOut, N: 1 + shape.L}, {Kind: OpIdle, N: 3},
		rd("STATUS"), rd("COUNT_BATCHES"),
		wr("STATUS", done, 0, 0), rd("STATUS"),
		wr("CTRL", regmap.Bit("CTRL", "CLEAR"), 1, 1), rd("COUNT_CLASSIFIED"), rd("CTRL"),
		{Kind: OpEnd},
	}
	run, err := c.RunSystem(context.Background(), cfg, SysScript{Beats: f.beats, Ops: ops, Ready: []bool{true}})
	if err != nil {
		t.Fatal(err)
	}
	vals, _ := cfg.ID.Values()
	shape0 := vals[4].Value
	type acc struct {
		Write bool
		Data  uint32
		Resp  uint32
	}
	ok, slv := uint32(RespOkay), uint32(RespSlvErr)
	// A CTRL write sets IRQ_EN to its bit: the CLEAR without it turns the interrupt off.
	want := []acc{{false, regmap.IDValue, ok}, {false, shape0, ok}, {false, 0, slv}, {false, 0, slv}, {false, 0, slv},
		{true, 0, slv}, {false, shape0, ok}, {true, 0, slv}, {true, 0, slv}, {false, 0, ok},
		{true, 0, ok}, {false, irq, ok}, {true, 0, ok}, {false, 0xa5, ok},
		{false, done, ok}, {false, 1, ok}, {true, 0, ok}, {false, 0, ok}, {true, 0, ok}, {false, 0, ok}, {false, 0, ok}}
	var got []acc
	for _, r := range run.Reads {
		got = append(got, acc{r.Write, r.Data, r.Resp})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("accesses (-want +got):\n%s", diff)
	}
	if head := run.Out[0].Data; head>>regmap.RecordTagShift != 0xa5 {
		t.Errorf("record %#x: tag %#x, want the BATCH.TAG written, 0xa5", head, head>>regmap.RecordTagShift)
	}
	if run.IRQCycles == 0 {
		t.Error("irq_o never rose after the batch with IRQ_EN")
	}
}

// TestSystemReload loads a new readout into bank 1, swaps, and checks that the
// vectors after the swap use it, that RO_DATA is ignored while the old bank
// drains, and that the padding lanes of the last word stay zero.
func TestSystemReload(t *testing.T) {
	shape := testmodel.Shape{Arch: model.IntRVFL, K: 5, N: 13, L: 3, Kappa: 3, Bits: 4}
	m, c, cfg := sysCore(t, shape, 4, true, true)
	pl := c.Plan()
	q := make([]int32, len(m.Readout.Q))
	for i, v := range m.Readout.Q {
		q[i] = -v
	}
	img := regmap.ReadoutImage(pl, q)
	img[len(img)-1] |= 0xffffffff << uint((pl.N-(pl.Groups-1)*pl.P)*pl.QW%32) // garbage in the padding lanes
	vecs := [][]int{{0, 13, 2, 7, 9}, {13, 13, 0, 1, 2}, {5, 5, 5, 5, 5}, {1, 0, 13, 0, 1}}
	f := &frame{id: cfg.ID}
	f.vector(vecs[0], true)
	f.vector(vecs[1], true)
	for _, v := range vecs[2:] {
		f.vector(v, false)
	}
	f.raw("-L")
	wr := func(reg string, v uint32) SysOp { return SysOp{Kind: OpWrite, Addr: regmap.Offset(reg), Data: v} }
	ops := []SysOp{{Kind: OpSend, N: cfg.ID.Beats}, {Kind: OpWaitOut, N: 1 + shape.L}, wr("RO_ADDR", 0)}
	for _, w := range img {
		ops = append(ops, wr("RO_DATA", w))
	}
	ops = append(ops, SysOp{Kind: OpRead, Addr: regmap.Offset("RO_ADDR")},
		wr("CTRL", regmap.Bit("CTRL", "SWAP")),
		// The swap is immediate; the second vector (its own batch) uses bank 1.
		SysOp{Kind: OpSend, N: len(f.beats) - cfg.ID.Beats},
		SysOp{Kind: OpWaitSent},
		wr("CTRL", regmap.Bit("CTRL", "SWAP")), // back to bank 0 while vectors of bank 1 may be in flight
		wr("RO_DATA", 0xffffffff),
		SysOp{Kind: OpRead, Addr: regmap.Offset("STATUS")},
		SysOp{Kind: OpWaitOut, N: 4*(1+shape.L) + 1},
		SysOp{Kind: OpEnd})
	run, err := c.RunSystem(context.Background(), cfg, SysScript{Beats: f.beats, Ops: ops, Ready: []bool{true, false}})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Classified) != 4 {
		t.Fatalf("%d classified records, want 4", len(run.Classified))
	}
	h := make([]int, pl.N)
	net, _ := m.Integer()
	for i, r := range run.Classified {
		readout := m.Readout.Q
		if r.Bank == 1 {
			readout = q
		}
		net.HiddenIntsTo(h, r.In)
		want := (&model.IntReadout{Q: readout}).Scores(h, pl.L)
		if !cmp.Equal(want, r.Scores) {
			t.Errorf("record %d (bank %d): scores %v, want %v", i, r.Bank, r.Scores, want)
		}
	}
	if run.Classified[0].Bank != 0 || run.Classified[1].Bank != 1 {
		t.Errorf("banks %d, %d; want 0 before the swap and 1 after", run.Classified[0].Bank, run.Classified[1].Bank)
	}
	reads := readsOf(run)
	if got := reads[0].Data; got != uint32(pl.Groups)%(1<<pl.GroupW) {
		t.Errorf("RO_ADDR after the image reads %d, want %d", got, pl.Groups)
	}
	st := reads[1].Data
	if st&regmap.Bit("STATUS", "SWAP_PENDING") != 0 && st&regmap.Bit("STATUS", "RO_IGNORED") == 0 {
		t.Errorf("STATUS %#x: an RO_DATA write while the swap was pending was not flagged", st)
	}
}

// readsOf returns the reads among a run's accesses.
func readsOf(run *SysRun) []SysRead {
	var out []SysRead
	for _, r := range run.Reads {
		if !r.Write {
			out = append(out, r)
		}
	}
	return out
}

// TestSystemFlush: with the output stopped, vectors fill the classifier and the
// record queue and one more is half received; a DMA reset discards the rest
// and CTRL.FLUSH drops everything in flight: STATUS is no longer busy, the
// records on offer are withdrawn, none of those vectors ever gets a record, the
// counters keep their counts, and the next batch starts at seq 0 with its tag
// and is classified correctly.
func TestSystemFlush(t *testing.T) {
	shape := testmodel.Shape{Arch: model.IntRVFL, K: 11, N: 40, L: 3, Kappa: 3, Bits: 5}
	m, c, cfg := sysCore(t, shape, 8, true, true)
	v1 := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 40}
	v2 := []int{40, 0, 40, 0, 40, 0, 40, 0, 40, 0, 40}
	f := &frame{id: cfg.ID}
	f.vector(v1, false) // comes out before the output stops
	for i := 0; i < 20; i++ {
		f.vector(v2, false) // stuck: more than the queue (8) and the classifier hold
	}
	f.raw("S") // half a vector
	stuck := len(f.beats) - cfg.ID.Beats
	f.vector(v2, false)
	f.vector(v1, true) // the batch after the flush
	rd := func(reg string) SysOp { return SysOp{Kind: OpRead, Addr: regmap.Offset(reg)} }
	wr := func(reg string, v uint32) SysOp { return SysOp{Kind: OpWrite, Addr: regmap.Offset(reg), Data: v} }
	busy := regmap.Bit("STATUS", "BUSY")
	ops := []SysOp{
		wr("BATCH", 7), {Kind: OpSend, N: cfg.ID.Beats}, {Kind: OpWaitOut, N: 1 + shape.L},
		{Kind: OpReady, N: ReadyNever}, {Kind: OpSend, N: stuck}, {Kind: OpIdle, N: 200},
		rd("STATUS"), rd("COUNT_CLASSIFIED"), {Kind: OpDrop},
		wr("CTRL", regmap.Bit("CTRL", "FLUSH")), rd("STATUS"), {Kind: OpReady, N: ReadyPattern},
		wr("BATCH", 8), {Kind: OpSend, N: 2 * cfg.ID.Beats}, {Kind: OpWaitOut, N: 3 * (1 + shape.L)},
		rd("COUNT_CLASSIFIED"), rd("COUNT_BATCHES"), rd("STATUS"), {Kind: OpEnd},
	}
	run, err := c.RunSystem(context.Background(), cfg, SysScript{Beats: f.beats, Ops: ops, Ready: []bool{true, false, true}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"C(0)", "C(0)", "C(1)/L"}, records(t, run, shape.L, true)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	tags := []uint32{7, 8, 8}
	for i, r := 0, 0; i < len(run.Out); i, r = i+1+shape.L, r+1 {
		if got := run.Out[i].Data >> regmap.RecordTagShift; got != tags[r] {
			t.Errorf("record %d: tag %d, want %d", r, got, tags[r])
		}
	}
	reads := readsOf(run)
	if reads[0].Data&busy == 0 || reads[1].Data != 1 {
		t.Errorf("before the flush: STATUS %#x (want BUSY), COUNT_CLASSIFIED %d (want 1)", reads[0].Data, reads[1].Data)
	}
	if reads[2].Data&(busy|regmap.Bit("STATUS", "SWAP_PENDING")) != 0 {
		t.Errorf("after the flush: STATUS %#x, want neither BUSY nor SWAP_PENDING", reads[2].Data)
	}
	if reads[3].Data != 3 || reads[4].Data != 1 || reads[5].Data&busy != 0 {
		t.Errorf("at the end: COUNT_CLASSIFIED %d (want 3), COUNT_BATCHES %d (want 1), STATUS %#x", reads[3].Data,
			reads[4].Data, reads[5].Data)
	}
	want := [][]int{v1, v2, v1}
	for i, r := range run.Classified {
		if !cmp.Equal(r.In, want[i]) || !cmp.Equal(r.Scores, reference(m, r.In)) {
			t.Errorf("classified record %d: input %v scores %v, want %v %v", i, r.In, r.Scores, want[i], reference(m, want[i]))
		}
	}
}
