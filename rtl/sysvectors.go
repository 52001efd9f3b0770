package rtl

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/rtl/sim"
)

// sysStream is the PCG stream of the system script ("hdlgen" + 0003).
const sysStream = 0x68646c67656e0003

// recKind is what a record of the system's output is.
type recKind int

const (
	recClassified recKind = iota
	recDropped
	recMarker
)

// expRecord is a record the script's author expects, independently of the
// simulator: its kind, its batch tag, whether it ends its batch (by TLAST, or
// as the last record before a flush) and, for a classified one, the vector.
type expRecord struct {
	kind    recKind
	tag     int
	last    bool
	flushed bool // the last record sent before a flush: the next one has seq 0
	in      []int
}

// sysPlan is a system test script with what it should produce.
type sysPlan struct {
	script  sim.SysScript
	records []expRecord
	// Counts the final reads of COUNT_DROPPED and COUNT_STRAY must give
	// (before the final CLEAR).
	dropped, stray int
	// readouts[b] is the readout bank b holds once reloaded (nil: the model's).
	readouts [2][]int32
	// throughput: the classified records of the free-running batch (no
	// back-pressure, no gaps), as indices into the classified records.
	freeFirst, freeN int
	// resps is the response of every AXI4-Lite access, in order (run.Reads).
	resps []uint32
	// checks are reads whose value the author knows: index into the accesses,
	// the mask of the bits checked and their value.
	checks []readCheck
}

// readCheck is a read whose value the script's author knows.
type readCheck struct {
	access     int
	mask, want uint32
	what       string
}

// sysBuilder accumulates the script.
type sysBuilder struct {
	r       rng
	pl      *plan.Plan
	id      regmap.Identity
	maxGap  int
	sp      sysPlan
	batch   []expRecord // records of the batch being built
	pending int         // beats appended since the last OpSend
	beats   int         // output beats expected so far
	recBeat int         // beats of a classified record
	tag     int         // BATCH.TAG
	qW      int         // log2 of the record queue's depth
}

// op appends a command.
func (b *sysBuilder) op(o sim.SysOp) { b.sp.script.Ops = append(b.sp.script.Ops, o) }

// send releases the beats appended since the last send.
func (b *sysBuilder) send() {
	for b.pending > 0 {
		n := min(b.pending, 0xffff)
		b.op(sim.SysOp{Kind: sim.OpSend, N: n})
		b.pending -= n
	}
}

// delays draws AXI4-Lite channel delays (0…3 cycles each).
func (b *sysBuilder) delays() (int, int, int) { return b.r.intn(4), b.r.intn(4), b.r.intn(4) }

func (b *sysBuilder) write(reg string, v uint32) {
	b.writeAt(regmap.Offset(reg), v, 0, sim.RespOkay)
}

// writeAt writes v to byte address addr with WSTRB strobe (0: all) and
// expects response resp.
func (b *sysBuilder) writeAt(addr, v, strobe, resp uint32) {
	a, d, r := b.delays()
	b.op(sim.SysOp{Kind: sim.OpWrite, Addr: addr, Data: v, AddrDelay: a, DataDelay: d, RespDelay: r, Strobe: strobe})
	b.sp.resps = append(b.sp.resps, resp)
}

func (b *sysBuilder) read(reg string) {
	b.readAt(regmap.Offset(reg), sim.RespOkay)
}

// readAt reads byte address addr and expects response resp.
func (b *sysBuilder) readAt(addr, resp uint32) {
	a, _, r := b.delays()
	b.op(sim.SysOp{Kind: sim.OpRead, Addr: addr, AddrDelay: a, RespDelay: r})
	b.sp.resps = append(b.sp.resps, resp)
}

// check reads reg and expects the bits of mask to read want.
func (b *sysBuilder) check(reg string, mask, want uint32) {
	b.sp.checks = append(b.sp.checks, readCheck{access: len(b.sp.resps), mask: mask, want: want, what: reg})
	b.read(reg)
}

// setTag writes a new random batch tag (another than the last).
func (b *sysBuilder) setTag() {
	b.tag = (b.tag + 1 + b.r.intn(1<<regmap.RecordTagBits-1)) & (1<<regmap.RecordTagBits - 1)
	b.write("BATCH", uint32(b.tag))
}

// beat appends an input beat; gap < 0 draws one (half 0, half 1…maxGap).
func (b *sysBuilder) beat(data uint32, last bool, gap int) {
	if gap < 0 {
		gap = 0
		if b.maxGap > 0 && b.r.intn(2) == 1 {
			gap = 1 + b.r.intn(b.maxGap)
		}
	}
	b.sp.script.Beats = append(b.sp.script.Beats, sim.SysBeat{Data: data, Last: last, Gap: gap})
	b.pending++
}

// payload packs elements [first, first+FPB) of in (zeros beyond K) into a beat.
func (b *sysBuilder) payload(in []int, beat int) uint32 {
	var v uint32
	for j := 0; j < b.id.PerBeat; j++ {
		if i := beat*b.id.PerBeat + j; i < len(in) {
			v |= uint32(in[i]) << (j * b.id.LW)
		}
	}
	return v
}

// junk is a random payload (elements are not checked, so anything goes).
func (b *sysBuilder) junk() uint32 { return uint32(b.r.pcg.Uint64()) & (regmap.BeatEOV - 1) }

// vector appends a well-formed vector; last ends the batch with it.
func (b *sysBuilder) vector(in []int, last bool, gap int) {
	for k := 0; k < b.id.Beats; k++ {
		d := b.payload(in, k)
		if k == 0 {
			d |= regmap.BeatSOV
		}
		if k == b.id.Beats-1 {
			d |= regmap.BeatEOV
		}
		g := gap
		if k > 0 && gap >= 0 {
			g = 0
		}
		b.beat(d, last && k == b.id.Beats-1, g)
	}
	b.record(recClassified, last, in)
}

func (b *sysBuilder) record(k recKind, last bool, in []int) {
	b.batch = append(b.batch, expRecord{kind: k, tag: b.tag, last: last, in: in})
	if k == recClassified {
		b.beats += b.recBeat
	} else {
		b.beats++
	}
	if k == recDropped {
		b.sp.dropped++
	}
	if last {
		b.sp.records = append(b.sp.records, b.batch...)
		b.batch = nil
	}
}

// Malformed frames (docs/system-interface.md, "Input stream framing").
const (
	frameShort    = iota // SOV, EOV before beat B−1
	frameLong            // B beats without EOV, more, then EOV
	frameCut             // SOV, fewer than B beats, then the next vector's SOV
	frameStray           // beats without SOV outside a vector
	frameCutShort        // a vector cut by a one-beat vector that is itself short: two drops in one beat
	frameKinds
)

// junkFrame appends n junk beats starting with SOV, with EOV (eov) and TLAST
// (last) on the last one.
func (b *sysBuilder) junkFrame(n int, eov, last bool) {
	for i := 0; i < n; i++ {
		d := b.junk()
		if i == 0 {
			d |= regmap.BeatSOV
		}
		if eov && i == n-1 {
			d |= regmap.BeatEOV
		}
		b.beat(d, last && i == n-1, -1)
	}
}

// shorter draws a length of 1…B−1 beats (1 when B = 1).
func (b *sysBuilder) shorter() int {
	if b.id.Beats == 1 {
		return 1
	}
	return 1 + b.r.intn(b.id.Beats-1)
}

// malformed appends a malformed frame of kind k before a well-formed vector
// (which it must not disturb).
func (b *sysBuilder) malformed(k int) {
	nb := b.id.Beats
	switch {
	case k == frameShort && nb > 1:
		b.junkFrame(b.shorter(), true, false)
		b.record(recDropped, false, nil)
	case k == frameLong:
		b.junkFrame(nb+1+b.r.intn(3), true, false)
		b.record(recDropped, false, nil)
	case k == frameCut:
		// Fewer than B beats (for B = 1: one beat), no EOV: the next SOV cuts it.
		b.junkFrame(b.shorter(), false, false)
		b.record(recDropped, false, nil)
	case k == frameCutShort && nb > 1:
		b.beat(b.junk()|regmap.BeatSOV, false, -1)
		b.beat(b.junk()|regmap.BeatSOV|regmap.BeatEOV, false, -1)
		b.record(recDropped, false, nil)
		b.record(recDropped, false, nil)
	default: // frameStray, and the kinds B = 1 cannot have
		n := 1 + b.r.intn(3)
		for i := 0; i < n; i++ {
			b.beat(b.junk()|b.junkEOV(), false, -1)
		}
		b.sp.stray += n
	}
}

// junkEOV sometimes sets EOV on a stray beat (it stays stray).
func (b *sysBuilder) junkEOV() uint32 {
	if b.r.intn(2) == 0 {
		return regmap.BeatEOV
	}
	return 0
}

// batchOf appends a batch of vectors, a malformed frame before some of them
// (every one of frameKinds with probability 1/junkEvery), and ends the batch:
// with the last vector's TLAST, an early TLAST in a vector (end = 1), or a
// stray beat with TLAST (end = 2).
func (b *sysBuilder) batchOf(vectors [][]int, junkEvery, end int) {
	for v, in := range vectors {
		if v > 0 && junkEvery > 0 && b.r.intn(junkEvery) == 0 {
			b.malformed(b.r.intn(frameKinds))
		}
		b.vector(in, end == 0 && v == len(vectors)-1, -1)
	}
	switch end {
	case 1: // TLAST on a beat before B−1 without EOV, or on a vector's first beat without EOV
		b.junkFrame(b.shorter(), false, true)
		b.record(recDropped, true, nil)
	case 2:
		b.beat(b.junk(), true, -1)
		b.sp.stray++
		b.record(recMarker, true, nil)
	}
}

// waitOut waits for every output beat expected so far.
func (b *sysBuilder) waitOut() {
	b.send()
	b.op(sim.SysOp{Kind: sim.OpWaitSent})
	b.op(sim.SysOp{Kind: sim.OpWaitOut, N: b.beats})
}

// systemScript builds the system test of docs/system-interface.md, "Test
// vectors": identification reads, three batches of the stimulus's vectors with
// malformed frames, register reads while streaming, a free-running batch for
// the throughput, a readout reload and bank swaps (reloadable designs), counter
// reads and a clear.
func systemScript(m *model.Model, pl *plan.Plan, id regmap.Identity, queueW int, st sim.Stimulus, o *Options) (sysPlan, error) {
	b := &sysBuilder{r: newRNGStream(o.Seed, sysStream), pl: pl, id: id, maxGap: o.MaxGap, recBeat: 1, qW: queueW}
	if id.Scores {
		b.recBeat = pl.L + 1
	}
	b.sp.script.Ready = st.Ready
	nv := len(st.Inputs)
	n1 := max(1, nv*2/5)
	n2 := max(0, min(nv-n1, nv*2/5))
	first, second, third := st.Inputs[:n1], st.Inputs[n1:n1+n2], st.Inputs[n1+n2:]

	// Identification, and the interrupt on.
	for _, r := range regmap.Registers {
		if r.Const {
			b.read(r.Name)
		}
	}
	// Accesses the register file refuses with SLVERR and without effect: a
	// write to a read-only register, a partial write (WSTRB 4'b0001), a read of
	// an unmapped address (0) and, without a reloadable readout, of RO_ADDR.
	irqEn := regmap.Bit("CTRL", "IRQ_EN")
	b.writeAt(regmap.Offset("ID"), 0, 0, sim.RespSlvErr)
	b.writeAt(regmap.Offset("CTRL"), irqEn, 1, sim.RespSlvErr)
	b.check("CTRL", ^uint32(0), 0)
	b.readAt(unmappedAddr, sim.RespSlvErr)
	if !id.Reloadable {
		b.readAt(regmap.Offset("RO_ADDR"), sim.RespSlvErr)
	}
	b.write("CTRL", irqEn)

	// Batch 1: malformed frames among the vectors, counters read while it streams.
	b.setTag()
	b.batchOf(first, 8, 0)
	b.send()
	b.read("COUNT_CLASSIFIED")
	b.read("STATUS")
	b.waitOut()
	b.read("STATUS")
	b.read("COUNT_DROPPED")
	b.write("STATUS", regmap.Bit("STATUS", "BATCH_DONE"))
	b.read("STATUS")

	// A reload of the inactive bank (1) and a swap, between batches.
	if id.Reloadable {
		q := reloadReadout(b.r, m)
		b.sp.readouts[1] = q
		b.write("RO_ADDR", 0)
		img := regmap.ReadoutImage(pl, q)
		// Junk in the last word's bits that hold no weight (lanes beyond
		// neuron N−1, bits above the word): the RTL writes them as 0.
		c := regmap.Chunks(pl)
		for k, pad := range paddingChunks(pl) {
			img[len(img)-c+k] |= pad & uint32(b.r.pcg.Uint64())
		}
		for _, w := range img {
			b.write("RO_DATA", w)
		}
		b.read("RO_ADDR")
		b.write("CTRL", regmap.Bit("CTRL", "SWAP")|regmap.Bit("CTRL", "IRQ_EN"))
		b.read("STATUS")
	}

	// Batch 2, free running: always ready, beats back to back.
	if len(second) > 0 {
		b.setTag()
		b.op(sim.SysOp{Kind: sim.OpReady, N: sim.ReadyAlways})
		b.sp.freeFirst = countClassified(b.sp.records)
		b.sp.freeN = len(second)
		for v, in := range second {
			b.vector(in, v == len(second)-1, 0)
		}
		b.waitOut()
		b.op(sim.SysOp{Kind: sim.OpReady, N: sim.ReadyPattern})
	}

	// Batch 3: a swap back to bank 0 while it streams (ignored without a
	// reloadable readout), an RO_DATA write then (ignored while the old bank
	// drains), malformed frames, and an end by an early TLAST or a stray TLAST.
	if len(third) > 0 {
		b.setTag()
		b.batchOf(third, 4, 1+b.r.intn(2))
		b.send()
		b.op(sim.SysOp{Kind: sim.OpIdle, N: 2 * pl.II})
		b.write("CTRL", regmap.Bit("CTRL", "SWAP")|regmap.Bit("CTRL", "IRQ_EN"))
		roResp := uint32(sim.RespOkay)
		if !id.Reloadable {
			roResp = sim.RespSlvErr // no readout window: RO_DATA is not mapped
		}
		b.writeAt(regmap.Offset("RO_DATA"), 0, 0, roResp)
		b.read("STATUS")
		b.waitOut()
	}

	// A flush, as the driver's recovery does it.
	b.flushSegment(st.Inputs, pl)

	// Final counters, a clear, and the counters again.
	b.op(sim.SysOp{Kind: sim.OpIdle, N: 2})
	for _, r := range []string{"STATUS", "COUNT_CLASSIFIED", "COUNT_DROPPED", "COUNT_STRAY", "COUNT_BATCHES", "CTRL"} {
		b.read(r)
	}
	b.write("CTRL", regmap.Bit("CTRL", "CLEAR"))
	for _, r := range []string{"STATUS", "COUNT_CLASSIFIED", "COUNT_DROPPED"} {
		b.read(r)
	}
	b.op(sim.SysOp{Kind: sim.OpEnd})
	if len(b.batch) != 0 {
		return sysPlan{}, fmt.Errorf("rtl: internal error: the system script ends inside a batch")
	}
	return b.sp, nil
}

// unmappedAddr is a byte address the register map leaves free (the window's
// last register).
const unmappedAddr = 1<<regmap.AddrW - 4

// flushSegment appends the driver's recovery from a failed batch: a batch
// whose first vectors come out (seq 0, 1, ...), then the S2MM channel stops
// (m_axis_tready 0), more vectors and the start of one more go in and fill the
// classifier and the record queue, the DMA's reset discards the beats not yet
// sent, CTRL.FLUSH drops everything in flight (none of those vectors ever gets
// a record), STATUS reads not busy, and a new batch starts again at seq 0 with
// its own tag.
func (b *sysBuilder) flushSegment(inputs [][]int, pl *plan.Plan) {
	n := len(inputs)
	pick := func(i int) []int { return inputs[i%n] }
	b.setTag()
	sent := min(3, n)
	for v := 0; v < sent; v++ {
		b.vector(pick(v), false, -1)
	}
	b.waitOut()
	// The batch ends here for the author: its last record is followed by a flush.
	b.batch[len(b.batch)-1].flushed = true
	b.sp.records = append(b.sp.records, b.batch...)
	b.batch = nil

	b.op(sim.SysOp{Kind: sim.OpReady, N: sim.ReadyNever})
	fill := (1 << b.qW) + 4 // more than the queue and the classifier hold
	for v := 0; v < fill; v++ {
		in := pick(sent + v)
		for k := 0; k < b.id.Beats; k++ {
			d := b.payload(in, k)
			if k == 0 {
				d |= regmap.BeatSOV
			}
			if k == b.id.Beats-1 {
				d |= regmap.BeatEOV
			}
			b.beat(d, false, -1)
		}
	}
	if b.id.Beats > 1 {
		b.beat(b.payload(pick(0), 0)|regmap.BeatSOV, false, -1) // a vector cut by the DMA's reset
	}
	b.send()
	b.op(sim.SysOp{Kind: sim.OpIdle, N: 4*(pl.II+b.id.Beats) + pl.Latency})
	b.op(sim.SysOp{Kind: sim.OpDrop})
	b.write("CTRL", regmap.Bit("CTRL", "FLUSH")|regmap.Bit("CTRL", "IRQ_EN"))
	b.check("STATUS", regmap.Bit("STATUS", "BUSY")|regmap.Bit("STATUS", "SWAP_PENDING"), 0)
	b.op(sim.SysOp{Kind: sim.OpReady, N: sim.ReadyPattern})

	b.setTag()
	after := min(2, n)
	for v := 0; v < after; v++ {
		b.vector(pick(v), v == after-1, -1)
	}
	b.waitOut()
}

func countClassified(recs []expRecord) int {
	n := 0
	for _, r := range recs {
		if r.kind == recClassified {
			n++
		}
	}
	return n
}

// reloadReadout draws the readout loaded at run time: the model's with random
// signs and a random permutation of the classes, inside the same bound.
func reloadReadout(r rng, m *model.Model) []int32 {
	l, n := m.L(), m.N()
	perm := make([]int, l)
	for i := range perm {
		perm[i] = i
	}
	for i := l - 1; i > 0; i-- {
		j := r.intn(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	q := make([]int32, l*n)
	for c := 0; c < l; c++ {
		for j := 0; j < n; j++ {
			v := m.Readout.Q[perm[c]*n+j]
			if r.intn(2) == 0 {
				v = -v
			}
			q[c*n+j] = v
		}
	}
	return q
}

// checkSystemRun compares the simulated system run with what the script's
// author expects and with the model package's arithmetic: every record's kind,
// seq and TLAST; every classified vector's class and scores under the readout
// of its bank; the identification reads and the final counters.
func checkSystemRun(m *model.Model, pl *plan.Plan, id regmap.Identity, sp sysPlan, run *sim.SysRun) (float64, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("rtl: internal error: system run: "+format, a...)
	}
	net, err := m.Integer()
	if err != nil {
		return 0, fmt.Errorf("rtl: %w", err)
	}
	readout := func(bank int) []int32 {
		if q := sp.readouts[bank]; q != nil {
			return q
		}
		return m.Readout.Q
	}
	// Records.
	recBeats := 1
	if id.Scores {
		recBeats = pl.L + 1
	}
	h := make([]int, pl.N)
	var starts []int // beat index of each classified record
	i, seq, cls := 0, 0, 0
	for r, want := range sp.records {
		if i >= len(run.Out) {
			return 0, bad("%d records, want %d", r, len(sp.records))
		}
		head := run.Out[i].Data
		flags := head >> regmap.RecordFlagsShift & 0xf
		n := 1
		switch want.kind {
		case recClassified:
			n = recBeats
			if flags&^regmap.FlagBank != 0 {
				return 0, bad("record %d: flags %#x, want a classified record", r, flags)
			}
		case recDropped:
			if flags != regmap.FlagDropped || head&(1<<regmap.RecordClassBits-1) != 0 {
				return 0, bad("record %d: beat %#x, want a dropped record", r, head)
			}
		case recMarker:
			if flags != regmap.FlagMarker || head&(1<<regmap.RecordClassBits-1) != 0 {
				return 0, bad("record %d: beat %#x, want a marker record", r, head)
			}
		}
		seqMask := 1<<regmap.RecordSeqBits - 1
		if got := int(head>>regmap.RecordSeqShift) & seqMask; got != seq&seqMask {
			return 0, bad("record %d: seq %d, want %d", r, got, seq&seqMask)
		}
		if got := int(head >> regmap.RecordTagShift); got != want.tag {
			return 0, bad("record %d: tag %d, want %d", r, got, want.tag)
		}
		if i+n > len(run.Out) {
			return 0, bad("record %d is cut short", r)
		}
		for k := 0; k < n; k++ {
			if last := run.Out[i+k].Last; last != (want.last && k == n-1) {
				return 0, bad("record %d beat %d: TLAST %v", r, k, last)
			}
		}
		if want.kind == recClassified {
			starts = append(starts, i)
			got := run.Classified[cls]
			bank := int(flags&regmap.FlagBank) / regmap.FlagBank
			if got.Bank != bank || !equalInts(got.In, want.in) {
				return 0, bad("classified record %d: bank %d (flag %d), input %v, want %v", cls, got.Bank, bank, got.In, want.in)
			}
			net.HiddenIntsTo(h, want.in)
			scores := (&model.IntReadout{Q: readout(bank), Bits: m.Readout.Bits, Bound: m.Readout.Bound}).Scores(h, pl.L)
			class := model.ArgmaxInt(scores)
			if int(head&(1<<regmap.RecordClassBits-1)) != class {
				return 0, bad("classified record %d: class %d, the model %d (bank %d)", cls, head&(1<<regmap.RecordClassBits-1), class, bank)
			}
			for l := 0; id.Scores && l < pl.L; l++ {
				if g := int64(int32(run.Out[i+1+l].Data)); g != scores[l] {
					return 0, bad("classified record %d: score %d is %d, the model %d (bank %d)", cls, l, g, scores[l], bank)
				}
			}
			cls++
		}
		i += n
		seq++
		if want.last || want.flushed {
			seq = 0
		}
	}
	if i != len(run.Out) || cls != len(run.Classified) {
		return 0, bad("%d output beats and %d classified records, want %d and %d", len(run.Out), len(run.Classified), i, cls)
	}

	// Reads: identification values, then the final counters and the clear.
	vals, err := id.Values()
	if err != nil {
		return 0, fmt.Errorf("rtl: %w", err)
	}
	want := map[uint32]uint32{}
	for _, v := range vals {
		want[regmap.Offset(v.Name)] = v.Value
	}
	if len(run.Reads) != len(sp.resps) {
		return 0, bad("%d AXI4-Lite accesses, want %d", len(run.Reads), len(sp.resps))
	}
	for i, rd := range run.Reads {
		if rd.Resp != sp.resps[i] {
			return 0, bad("access %d (write %t, 0x%03x): response %d, want %d", i, rd.Write, rd.Addr, rd.Resp, sp.resps[i])
		}
		if w, ok := want[rd.Addr]; ok && !rd.Write && rd.Data != w {
			return 0, bad("read of 0x%03x gave %#x, want %#x", rd.Addr, rd.Data, w)
		}
		if rd.Resp != sim.RespOkay && rd.Data != 0 {
			return 0, bad("access %d: SLVERR with data %#x", i, rd.Data)
		}
	}
	for _, c := range sp.checks {
		if got := run.Reads[c.access].Data; got&c.mask != c.want {
			return 0, bad("read of %s (access %d) gave %#x, want %#x under mask %#x", c.what, c.access, got, c.want, c.mask)
		}
	}
	batches := 0
	for _, r := range sp.records {
		if r.last {
			batches++
		}
	}
	// The final accesses: six reads, the CLEAR write, three reads.
	if len(run.Reads) < 10 {
		return 0, bad("%d accesses", len(run.Reads))
	}
	tail := run.Reads[len(run.Reads)-10:]
	final := []struct {
		what string
		got  uint32
		want int
	}{
		{"COUNT_CLASSIFIED", tail[1].Data, countClassified(sp.records)}, {"COUNT_DROPPED", tail[2].Data, sp.dropped},
		{"COUNT_STRAY", tail[3].Data, sp.stray}, {"COUNT_BATCHES", tail[4].Data, batches},
		{"COUNT_CLASSIFIED after CLEAR", tail[8].Data, 0}, {"COUNT_DROPPED after CLEAR", tail[9].Data, 0},
	}
	for _, f := range final {
		if int(f.got) != f.want {
			return 0, bad("%s read %d, want %d", f.what, f.got, f.want)
		}
	}
	errBits := regmap.Bit("STATUS", "FRAMING_ERROR")
	if (tail[0].Data&errBits != 0) != (sp.dropped+sp.stray > 0) || tail[7].Data&(errBits|regmap.Bit("STATUS", "BATCH_DONE")) != 0 {
		return 0, bad("STATUS read %#x before and %#x after CLEAR", tail[0].Data, tail[7].Data)
	}

	// The free-running batch's steady state: the second half of its records.
	cpv := 0.0
	if n := sp.freeN; n >= 8 {
		a, z := sp.freeFirst+n/2, sp.freeFirst+n-1
		cpv = float64(run.Out[starts[z]].Cycle-run.Out[starts[a]].Cycle) / float64(z-a)
	}
	return cpv, nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// System test-vector files (docs/system-interface.md, "Test vectors").
const (
	sysInW  = 52 // {gap[15:0], 3'b0, tlast, tdata[31:0]}
	sysOpW  = 68 // {wstrb[3:0], kind[3:0], addr delay[3:0], data delay[3:0], resp delay[3:0], arg[15:0], data[31:0]}
	sysOutW = 68 // {cycle[31:0], 3'b0, tlast, tdata[31:0]}
	sysRdW  = 68 // {1'b0, write, resp[1:0], cycle[31:0], rdata[31:0]}
	// maxSysDelay bounds an AXI4-Lite delay (a 4-bit field).
	maxSysDelay = 15
)

// systemFiles renders the script and the simulated run as vectors/sys_*.mem and
// returns the tv_params lines of the system.
func systemFiles(beats int, sc sim.SysScript, run *sim.SysRun) (map[string][]byte, []param, error) {
	in, err := memOf(sc.Beats, sysInW, func(i int, v *bitvec, b sim.SysBeat) error {
		if b.Gap > 0xffff {
			return fmt.Errorf("rtl: internal error: beat %d: gap %d", i, b.Gap)
		}
		v.set(36, 16, int64(b.Gap))
		v.set(32, 1, int64(b2i(b.Last)))
		v.set(0, 32, int64(b.Data))
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	ops, err := memOf(sc.Ops, sysOpW, func(i int, v *bitvec, op sim.SysOp) error {
		arg := op.N
		if op.Kind == sim.OpWrite || op.Kind == sim.OpRead {
			arg = int(op.Addr)
		}
		data := int64(op.Data)
		if op.Kind == sim.OpWaitOut {
			arg, data = 0, int64(op.N)
		}
		if arg > 0xffff || op.AddrDelay > maxSysDelay || op.DataDelay > maxSysDelay || op.RespDelay > maxSysDelay {
			return fmt.Errorf("rtl: internal error: command %d does not fit sys_ops.mem", i)
		}
		if op.Kind == sim.OpWrite {
			v.set(64, 4, int64(op.WStrb()))
		}
		v.set(60, 4, int64(op.Kind))
		v.set(56, 4, int64(op.AddrDelay))
		v.set(52, 4, int64(op.DataDelay))
		v.set(48, 4, int64(op.RespDelay))
		v.set(32, 16, int64(arg))
		v.set(0, 32, data)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	out, _ := memOf(run.Out, sysOutW, func(_ int, v *bitvec, o sim.SysOut) error {
		v.set(36, 32, int64(o.Cycle))
		v.set(32, 1, int64(b2i(o.Last)))
		v.set(0, 32, int64(o.Data))
		return nil
	})
	rd, _ := memOf(run.Reads, sysRdW, func(_ int, v *bitvec, r sim.SysRead) error {
		v.set(66, 1, int64(b2i(r.Write)))
		v.set(64, 2, int64(r.Resp))
		v.set(32, 32, int64(r.Cycle))
		v.set(0, 32, int64(r.Data))
		return nil
	})
	files := map[string][]byte{
		"vectors/sys_in.mem": in, "vectors/sys_ops.mem": ops,
		"vectors/sys_out.mem": out, "vectors/sys_rd.mem": rd,
	}
	params := []param{
		{"TV_SYS_BEATS", len(sc.Beats)}, {"TV_SYS_OPS", len(sc.Ops)}, {"TV_SYS_OUT", len(run.Out)},
		{"TV_SYS_ACCESSES", len(run.Reads)}, {"TV_SYS_CYCLES", run.Cycles}, {"TV_SYS_IRQ_CYCLES", run.IRQCycles},
		{"TV_SYS_TAIL", sim.SysTail}, {"TV_SYS_MAX_CYCLES", 2*run.Cycles + 1000},
		// The script starts with a well-formed vector: its last beat, and the
		// number of classified records.
		{"TV_SYS_FIRST_LAST", beats - 1}, {"TV_SYS_CLASSIFIED", len(run.Classified)},
		// A write of CTRL.FLUSH withdraws the beat on offer (a reset of the data
		// path): the testbenches suspend the output hold rule while one runs.
		{"TV_SYS_CTRL", int(regmap.Offset("CTRL"))}, {"TV_SYS_FLUSH", int(regmap.Bit("CTRL", "FLUSH"))},
	}
	return files, params, nil
}

// memOf renders one width-bit line of a .mem file per item, each filled by
// set (which may refuse an item that does not fit).
func memOf[T any](items []T, width int, set func(i int, v *bitvec, x T) error) ([]byte, error) {
	lines := make([]string, len(items))
	for i, x := range items {
		v := newBitvec(width)
		if err := set(i, v, x); err != nil {
			return nil, err
		}
		lines[i] = v.hex()
	}
	return memFile(lines), nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// paddingChunks returns, as RO_DATA chunks, the bits of the last readout word
// that hold no weight: lanes beyond neuron N−1 and bits above the word.
func paddingChunks(pl *plan.Plan) []uint32 {
	c := regmap.Chunks(pl)
	out := make([]uint32, c)
	for i := range out {
		out[i] = ^uint32(0)
	}
	lanes := pl.N - (pl.Groups-1)*pl.P
	for l := 0; l < pl.L; l++ {
		for p := 0; p < lanes; p++ {
			for k := 0; k < pl.QW; k++ {
				bit := (l*pl.P+p)*pl.QW + k
				out[bit/32] &^= 1 << (bit % 32)
			}
		}
	}
	return out
}
