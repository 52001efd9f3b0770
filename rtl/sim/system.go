package sim

import (
	"fmt"
	"strings"

	"github.com/hdlgen/hdlgen/rtl/regmap"
)

// SystemConfig is what the system top's simulation needs beyond the Core.
type SystemConfig struct {
	// ID holds the identification registers; its framing, Scores and
	// Reloadable fields shape the design.
	ID regmap.Identity
	// QueueW is log2 of the record queue's depth; DropW the width of a
	// token's drop count (rtl's system shape).
	QueueW, DropW int
}

// sysToken is one entry of the record queue (hdlgen_axis_frames' token plus
// the batch tag and the bank of a classified vector).
type sysToken struct {
	tag, bank            int
	drops                int
	vector, marker, last bool
}

// System is the cycle-accurate state of <prefix>_system: hdlgen_axis_frames,
// the stream top, the record queue, hdlgen_axis_records, the register file and
// hdlgen_axil (docs/system-interface.md). Create it with Core.NewSystem; drive
// it with Outputs and Clock.
type System struct {
	c   *Core
	cfg SystemConfig
	top *Top
	id  map[uint32]uint32 // identification registers by offset

	// Readout banks (reloadable designs): the readout each bank holds (L×N,
	// row-major) and a Core reading it; the stream top's Core is switched to
	// the bank of the vector it accepts.
	banks     [2][]int32
	bankCores [2]*Core

	// hdlgen_axis_frames
	inv, bad    bool
	beat, drops int
	held        []uint32 // payloads of the last B−1 beats, oldest first
	vec         []int    // scratch: the vector offered to the stream top

	// record queue
	queue      []sysToken
	qHead, qN  int
	sent, obt  int // dropped records of the head token sent; beat of the classified record
	seq        int
	classified uint32
	dropped    uint32
	stray      uint32
	batches    uint32
	framingErr bool
	batchDone  bool
	irqEn      bool
	tag        int // BATCH.TAG

	// reloadable readout
	bank, vecBank int
	drain, flight int
	roAddr, chunk int
	stage         []uint32
	roIgnored     bool

	// hdlgen_axil
	awFull, wFull, bValid, rValid bool
	aw, w, wstrb, rdata           uint32
	bresp, rresp                  uint32
}

// AXI response codes.
const (
	RespOkay   = 0
	RespSlvErr = 2
)

// NewSystem returns a System in its reset state.
func (c *Core) NewSystem(cfg SystemConfig) (*System, error) {
	id := cfg.ID
	if id.K != c.k || id.N != c.n || id.L != c.l || id.P != c.p || id.LW != c.pl.LW {
		return nil, fmt.Errorf("sim: system identity K=%d N=%d L=%d P=%d LW=%d does not match the design", id.K, id.N, id.L, id.P, id.LW)
	}
	if fpb, b, ok := regmap.Framing(c.k, c.pl.LW); !ok || fpb != id.PerBeat || b != id.Beats {
		return nil, fmt.Errorf("sim: system framing %d×%d does not match the design", id.Beats, id.PerBeat)
	}
	if cfg.QueueW < 1 || cfg.DropW < 2 {
		return nil, fmt.Errorf("sim: record queue 2^%d, drop count width %d", cfg.QueueW, cfg.DropW)
	}
	if id.Reloadable != c.pl.ReloadableReadout {
		return nil, fmt.Errorf("sim: identity reloadable=%v, plan %v", id.Reloadable, c.pl.ReloadableReadout)
	}
	vals, err := id.Values()
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	s := &System{c: c, cfg: cfg, id: map[uint32]uint32{}, held: make([]uint32, id.Beats-1), vec: make([]int, c.k),
		queue: make([]sysToken, 1<<cfg.QueueW), stage: make([]uint32, id.Chunks)}
	for _, v := range vals {
		s.id[regmap.Offset(v.Name)] = v.Value
	}
	for b := range s.banks {
		s.banks[b] = append([]int32(nil), c.q...)
		bc := *c
		bc.q = s.banks[b]
		s.bankCores[b] = &bc
	}
	s.top = s.bankCores[0].NewTop()
	s.Reset()
	return s, nil
}

// Reset applies aresetn = 0 for one edge: control registers clear, the
// readout RAM keeps its contents (as the RTL's memory does).
func (s *System) Reset() {
	s.flushDataPath()
	s.classified, s.dropped, s.stray, s.batches = 0, 0, 0, 0
	s.framingErr, s.batchDone, s.irqEn, s.tag = false, false, false, 0
	s.bank, s.roAddr, s.chunk, s.roIgnored = 0, 0, 0, false
	s.awFull, s.wFull, s.bValid, s.rValid = false, false, false, false
}

// flushDataPath is the reset of the data path (aresetn or CTRL.FLUSH):
// hdlgen_axis_frames, the stream top, the record queue, hdlgen_axis_records
// and the count of vectors in flight.
func (s *System) flushDataPath() {
	s.top.Reset()
	s.inv, s.bad, s.beat, s.drops = false, false, 0, 0
	s.qHead, s.qN, s.sent, s.obt, s.seq = 0, 0, 0, 0, 0
	s.drain, s.flight = 0, 0
}

// Bank returns a copy of the readout held by bank b (L×N, row-major).
func (s *System) Bank(b int) []int32 { return append([]int32(nil), s.banks[b]...) }

// SystemInputs are the system top's inputs in one cycle.
type SystemInputs struct {
	SValid, SLast bool
	SData         uint32
	MReady        bool
	AWValid       bool
	AWAddr        uint32
	WValid        bool
	WData         uint32
	WStrb         uint32 // 4 bits
	BReady        bool
	ARValid       bool
	ARAddr        uint32
	RReady        bool
}

// SystemOutputs are the system top's outputs in one cycle.
type SystemOutputs struct {
	SReady        bool
	MValid, MLast bool
	MData         uint32
	AWReady       bool
	WReady        bool
	BValid        bool
	BResp         uint32
	ARReady       bool
	RValid        bool
	RData         uint32
	RResp         uint32
	IRQ           bool
}

// frameView is hdlgen_axis_frames' combinational view of one cycle.
type frameView struct {
	ready, beat, good, cur, sov, ends bool
	cut, curDrop, flush               bool
	pos                               int
	push                              bool
	tok                               sysToken
	vecValid                          bool
}

// recordView is hdlgen_axis_records' combinational view.
type recordView struct {
	valid, last, kDrop, kMarker, kResult, kNone, recEnd, tokEnd bool
	data                                                        uint32
}

func (s *System) flushing() bool { return s.drops >= 1<<s.cfg.DropW-2 }

// axilWrite is hdlgen_axil's decision this cycle (pre-edge registers): a held
// write is decided (write) and accepted by the register file (en).
func (s *System) axilWrite() (write, en bool) {
	write = s.awFull && s.wFull && !s.bValid
	return write, write && s.writable(s.aw) && s.wstrb == strbAll
}

// strbAll is WSTRB of a whole-register write.
const strbAll = 0xf

// flush reports a CTRL.FLUSH write this cycle (pre-edge registers).
func (s *System) flush() bool {
	_, en := s.axilWrite()
	return en && s.aw&^3 == regOff.ctrl && s.w&regmap.Bit("CTRL", "FLUSH") != 0
}

// writable reports whether the register file accepts a write to addr.
func (s *System) writable(addr uint32) bool {
	r, ok := regByOffset[addr&^3&(1<<regmap.AddrW-1)]
	return ok && r.Writable() && (s.cfg.ID.Reloadable || !strings.HasPrefix(r.Name, "RO_"))
}

// readable reports whether the register file maps addr.
func (s *System) readable(addr uint32) bool {
	r, ok := regByOffset[addr&^3&(1<<regmap.AddrW-1)]
	return ok && (s.cfg.ID.Reloadable || !strings.HasPrefix(r.Name, "RO_"))
}

// regByOffset is the register map by byte offset.
var regByOffset = func() map[uint32]regmap.Register {
	m := map[uint32]regmap.Register{}
	for _, r := range regmap.Registers {
		m[r.Offset] = r
	}
	return m
}()

func (s *System) tokRoom() bool { return s.qN < len(s.queue) }

// frames evaluates hdlgen_axis_frames for the cycle's stream input.
func (s *System) frames(in SystemInputs, vecReady bool) frameView {
	b := s.cfg.ID.Beats
	var f frameView
	f.flush = s.flushing()
	mayComplete := b == 1 || (s.inv && !s.bad && s.beat == b-1)
	f.ready = s.tokRoom() && !f.flush && (!mayComplete || vecReady)
	f.beat = in.SValid && f.ready
	f.sov = in.SData&regmap.BeatSOV != 0
	eov := in.SData&regmap.BeatEOV != 0
	f.cut = f.sov && s.inv
	f.cur = f.sov || s.inv
	curBad := !f.sov && s.bad
	if !f.sov {
		f.pos = s.beat
	}
	atEnd := f.pos == b-1
	f.ends = eov || in.SLast
	f.good = f.cur && !curBad && eov && atEnd
	f.curDrop = f.cur && f.ends && !f.good
	pushBeat := f.beat && (f.good || in.SLast)
	f.push = pushBeat || (f.flush && s.tokRoom())
	f.tok = sysToken{drops: s.drops}
	if pushBeat {
		f.tok.last = in.SLast
		if f.good {
			f.tok.vector = true
			f.tok.drops += b2i(f.cut)
		} else {
			f.tok.drops += b2i(f.cut) + b2i(f.curDrop)
			f.tok.marker = !f.cur
		}
	}
	f.vecValid = in.SValid && f.good && s.tokRoom() && !f.flush
	return f
}

// records evaluates hdlgen_axis_records for the current state.
func (s *System) records(out Outputs) recordView {
	var r recordView
	if s.qN == 0 {
		return r
	}
	t := s.queue[s.qHead]
	r.kDrop = s.sent != t.drops
	r.kMarker = !r.kDrop && t.marker
	r.kResult = !r.kDrop && !t.marker && t.vector
	r.kNone = !r.kDrop && !t.marker && !t.vector
	lastBeat := 0
	if s.cfg.ID.Scores {
		lastBeat = s.c.l
	}
	r.recEnd = !r.kResult || s.obt == lastBeat
	r.tokEnd = (r.kDrop && s.sent+1 == t.drops && !t.marker && !t.vector) || r.kMarker || (r.kResult && r.recEnd)
	r.valid = r.kDrop || r.kMarker || (r.kResult && out.OutValid)
	r.last = t.last && r.tokEnd
	switch {
	case r.kDrop:
		r.data = regmap.Record(t.tag, s.seq, regmap.FlagDropped, 0)
	case r.kMarker:
		r.data = regmap.Record(t.tag, s.seq, regmap.FlagMarker, 0)
	case r.kResult && s.obt == 0:
		r.data = regmap.Record(t.tag, s.seq, uint32(t.bank)*regmap.FlagBank, out.Class)
	case r.kResult:
		r.data = uint32(int32(out.Scores[s.obt-1])) // sign-extended to 32 bits
	}
	return r
}

// Outputs returns the system top's outputs in the current state.
func (s *System) Outputs() SystemOutputs {
	top := s.top.Outputs()
	vecReady := top.InReady
	b := s.cfg.ID.Beats
	mayComplete := b == 1 || (s.inv && !s.bad && s.beat == b-1)
	r := s.records(top)
	return SystemOutputs{
		SReady: s.tokRoom() && !s.flushing() && (!mayComplete || vecReady) && !s.flush(),
		MValid: r.valid, MLast: r.last, MData: r.data,
		AWReady: !s.awFull, WReady: !s.wFull, BValid: s.bValid, BResp: s.bresp,
		ARReady: !s.rValid, RValid: s.rValid, RData: s.rdata, RResp: s.rresp,
		IRQ: s.irqEn && s.batchDone,
	}
}

// status is the STATUS register.
func (s *System) status() uint32 {
	var v uint32
	set := func(f string, on bool) {
		if on {
			v |= regmap.Bit("STATUS", f)
		}
	}
	set("BANK", s.bank == 1)
	set("SWAP_PENDING", s.drain != 0)
	set("BUSY", s.inv || s.qN > 0)
	set("FRAMING_ERROR", s.framingErr)
	set("BATCH_DONE", s.batchDone)
	set("RO_IGNORED", s.roIgnored)
	return v
}

// read returns the register at byte address addr, as the register file does.
func (s *System) read(addr uint32) uint32 {
	addr &^= 3
	if v, ok := s.id[addr]; ok {
		return v
	}
	switch addr {
	case regOff.ctrl:
		if s.irqEn {
			return regmap.Bit("CTRL", "IRQ_EN")
		}
		return 0
	case regOff.status:
		return s.status()
	case regOff.batch:
		return uint32(s.tag)
	case regOff.classified:
		return s.classified
	case regOff.dropped:
		return s.dropped
	case regOff.stray:
		return s.stray
	case regOff.batches:
		return s.batches
	case regOff.roAddr:
		if s.cfg.ID.Reloadable {
			return uint32(s.roAddr)
		}
	}
	return 0
}

// regOff holds the offsets the register file decodes.
var regOff = struct {
	ctrl, status, batch, classified, dropped, stray, batches, roAddr, roData uint32
}{
	regmap.Offset("CTRL"), regmap.Offset("STATUS"), regmap.Offset("BATCH"), regmap.Offset("COUNT_CLASSIFIED"),
	regmap.Offset("COUNT_DROPPED"), regmap.Offset("COUNT_STRAY"), regmap.Offset("COUNT_BATCHES"),
	regmap.Offset("RO_ADDR"), regmap.Offset("RO_DATA"),
}

// Clock applies one rising edge with the given inputs.
func (s *System) Clock(in SystemInputs) {
	id := s.cfg.ID
	top := s.top.Outputs()
	flush := s.flush()
	if flush {
		in.SValid = false // no beat is taken in the cycle of a flush
	}
	f := s.frames(in, top.InReady)
	accept := f.vecValid && top.InReady
	r := s.records(top)
	xfer := r.valid && in.MReady
	resReady := xfer && r.kResult && r.recEnd
	pop := (xfer && r.tokEnd) || r.kNone && s.qN > 0

	// hdlgen_axil and the register file's write decode (pre-edge registers).
	awTake := in.AWValid && !s.awFull
	wTake := in.WValid && !s.wFull
	decide, write := s.axilWrite()
	arTake := in.ARValid && !s.rValid
	wrAddr := s.aw &^ 3 & (1<<regmap.AddrW - 1)
	wrCtrl := write && wrAddr == regOff.ctrl
	wrStat := write && wrAddr == regOff.status
	clear := wrCtrl && s.w&regmap.Bit("CTRL", "CLEAR") != 0
	w1c := func(f string) bool { return wrStat && s.w&regmap.Bit("STATUS", f) != 0 }
	tagPre := s.tag
	if arTake {
		s.rdata, s.rresp = 0, RespSlvErr
		if s.readable(in.ARAddr) {
			s.rdata, s.rresp = s.read(in.ARAddr&(1<<regmap.AddrW-1)), RespOkay
		}
	}
	if decide {
		s.bresp = RespSlvErr
		if write {
			s.bresp = RespOkay
		}
	}
	if write && wrAddr == regOff.batch {
		s.tag = int(s.w & (1<<regmap.RecordTagBits - 1))
	}

	// The stream top, with the readout of the bank of each vector.
	var vec []int
	if f.vecValid {
		vec = s.frameVector(in.SData)
	}
	s.top.Clock(f.vecValid, vec, resReady)
	bankPre := s.bank
	if accept && id.Reloadable {
		s.vecBank = bankPre
		s.top.c = s.bankCores[bankPre]
	}

	// hdlgen_axis_frames.
	if f.beat && f.cur {
		switch {
		case f.ends:
			s.inv, s.bad, s.beat = false, false, 0
		case f.pos == id.Beats-1:
			s.inv, s.bad = true, true
		default:
			s.inv, s.bad, s.beat = true, !f.sov && s.bad, f.pos+1
		}
	}
	ndrops := b2i(f.cut) + b2i(f.curDrop)
	switch {
	case f.push:
		s.drops = 0
	case f.beat:
		s.drops += ndrops
	}
	if f.beat && id.Beats > 1 {
		copy(s.held, s.held[1:])
		s.held[id.Beats-2] = in.SData
	}

	// Record queue and hdlgen_axis_records.
	if pop {
		s.qHead = (s.qHead + 1) % len(s.queue)
		s.qN--
	}
	if f.push {
		t := f.tok
		t.tag = tagPre
		if t.vector && id.Reloadable {
			t.bank = bankPre
		}
		s.queue[(s.qHead+s.qN)%len(s.queue)] = t
		s.qN++
	}
	if xfer {
		if r.recEnd {
			if r.last {
				s.seq = 0
			} else {
				s.seq = (s.seq + 1) & (1<<regmap.RecordSeqBits - 1)
			}
		}
		switch {
		case r.tokEnd:
			s.sent = 0
		case r.kDrop:
			s.sent++
		}
		if r.kResult {
			if r.recEnd {
				s.obt = 0
			} else {
				s.obt++
			}
		}
	}

	// Counters and status: CLEAR and W1C first, then this cycle's events.
	evDrops := 0
	if f.beat {
		evDrops = ndrops
	}
	evStray := f.beat && !f.cur
	evBatch := xfer && r.last
	if clear {
		s.classified, s.dropped, s.stray, s.batches = 0, 0, 0, 0
	}
	s.classified += uint32(b2i(resReady))
	s.dropped += uint32(evDrops)
	s.stray += uint32(b2i(evStray))
	s.batches += uint32(b2i(evBatch))
	s.framingErr = s.framingErr && !clear && !w1c("FRAMING_ERROR") || evDrops != 0 || evStray
	s.batchDone = s.batchDone && !clear && !w1c("BATCH_DONE") || evBatch
	if wrCtrl {
		s.irqEn = s.w&regmap.Bit("CTRL", "IRQ_EN") != 0
	}

	// Readout window and bank swap.
	if id.Reloadable {
		pending := s.drain != 0
		flight := s.flight + b2i(accept) - b2i(resReady)
		s.flight = flight
		switch {
		case wrCtrl && s.w&regmap.Bit("CTRL", "SWAP") != 0:
			s.bank ^= 1
			s.drain = flight
		case resReady && pending:
			s.drain--
		}
		wrRO := write && wrAddr == regOff.roData
		take := wrRO && !pending
		switch {
		case write && wrAddr == regOff.roAddr:
			s.roAddr = int(s.w) & (1<<s.c.pl.GroupW - 1)
			s.chunk = 0
		case take && s.chunk == id.Chunks-1:
			s.stage[s.chunk] = s.w
			s.writeWord(1-bankPre, s.roAddr, s.stage)
			s.roAddr = (s.roAddr + 1) & (1<<s.c.pl.GroupW - 1)
			s.chunk = 0
		case take:
			s.stage[s.chunk] = s.w
			s.chunk++
		}
		s.roIgnored = s.roIgnored && !clear && !w1c("RO_IGNORED") || wrRO && pending
	}

	// The data path's reset by CTRL.FLUSH, after this cycle's events.
	if flush {
		s.flushDataPath()
	}

	// hdlgen_axil's channel state.
	if decide {
		s.awFull, s.wFull = false, false
	} else {
		if awTake {
			s.awFull, s.aw = true, in.AWAddr
		}
		if wTake {
			s.wFull, s.w, s.wstrb = true, in.WData, in.WStrb&strbAll
		}
	}
	switch {
	case decide:
		s.bValid = true
	case in.BReady:
		s.bValid = false
	}
	switch {
	case arTake:
		s.rValid = true
	case in.RReady:
		s.rValid = false
	}
}

// frameVector assembles the vector whose last beat carries payload last.
func (s *System) frameVector(last uint32) []int {
	id := s.cfg.ID
	mask := uint32(1)<<id.LW - 1
	for i := range s.vec {
		b, slot := i/id.PerBeat, i%id.PerBeat
		payload := last
		if b < id.Beats-1 {
			payload = s.held[b]
		}
		s.vec[i] = int(payload >> (slot * id.LW) & mask)
	}
	return s.vec
}

// writeWord stores readout word g (its chunks, least significant first) into
// bank b: the lanes of real neurons; the RTL writes the others as 0 and words
// beyond G−1 are never read.
func (s *System) writeWord(b, g int, chunks []uint32) {
	pl := s.c.pl
	if g >= pl.Groups {
		return
	}
	for l := 0; l < pl.L; l++ {
		for p := 0; p < pl.P && g*pl.P+p < pl.N; p++ {
			off := (l*pl.P + p) * pl.QW
			var v uint64
			for k := 0; k < pl.QW; k++ {
				bit := off + k
				v |= uint64(chunks[bit/32]>>(bit%32)&1) << k
			}
			if v>>(pl.QW-1)&1 != 0 {
				v |= ^uint64(0) << pl.QW // sign-extend
			}
			s.banks[b][l*pl.N+g*pl.P+p] = int32(int64(v))
		}
	}
}

// Busy reports whether anything is left to do: a vector being received, a
// token queued, or a vector in the stream top.
func (s *System) Busy() bool { return s.inv || s.qN > 0 || s.top.busy || s.top.outValid }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
