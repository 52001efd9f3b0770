package sim

import (
	"context"
	"fmt"
)

// SysOpKind is a command of the system driver's sequencer
// (docs/system-interface.md, "Test vectors").
type SysOpKind int

// The commands; the values are the 4-bit codes of sys_ops.mem.
const (
	OpEnd      SysOpKind = 0 // end of the script: the run stops once every expected record beat is in
	OpSend     SysOpKind = 1 // release N more input beats (sent in the background)
	OpWaitSent SysOpKind = 2 // wait until every released beat has been transferred
	OpWaitOut  SysOpKind = 3 // wait until N output beats (in all) have been transferred
	OpIdle     SysOpKind = 4 // wait N cycles
	OpWrite    SysOpKind = 5 // AXI4-Lite write of Data to Addr
	OpRead     SysOpKind = 6 // AXI4-Lite read of Addr
	OpReady    SysOpKind = 7 // N = 1: m_axis_tready always 1; N = 0: the ready pattern; N = 2: always 0
	OpDrop     SysOpKind = 8 // discard the released beats not yet transferred, as a DMA reset does
)

// Ready modes of OpReady.
const (
	ReadyPattern = 0 // m_axis_tready follows the script's pattern
	ReadyAlways  = 1 // m_axis_tready is 1
	ReadyNever   = 2 // m_axis_tready is 0 (the S2MM channel stopped)
)

// SysOp is one command. Every command starts in the cycle after the previous
// one completed (the first in cycle 0) and completes in the cycle its
// condition holds, after that cycle's transfers: Send and Ready in their first
// cycle, Idle N cycles later, WaitSent/WaitOut when their count is reached,
// Write at the B handshake and Read at the R handshake. AWVALID (ARVALID) is
// raised AddrDelay cycles after the start, WVALID DataDelay cycles after it,
// and BREADY (RREADY) from RespDelay cycles after it. Drop completes in its
// first cycle: the beats released and not yet transferred are discarded (a
// beat on offer is withdrawn), as a reset of the DMA's MM2S channel does.
type SysOp struct {
	Kind                            SysOpKind
	N                               int
	Addr, Data                      uint32
	AddrDelay, DataDelay, RespDelay int
	// Strobe is a write's WSTRB; 0 stands for 4'b1111 (a whole register).
	Strobe uint32
}

// WStrb returns the WSTRB a write drives.
func (o SysOp) WStrb() uint32 {
	if o.Strobe == 0 {
		return strbAll
	}
	return o.Strobe & strbAll
}

// SysBeat is one input beat: TDATA, TLAST, and the idle cycles before it is
// offered (after the previous beat's transfer, or after the Send that
// released it, whichever is later).
type SysBeat struct {
	Data uint32
	Last bool
	Gap  int
}

// SysScript is a whole system run.
type SysScript struct {
	Beats []SysBeat
	Ops   []SysOp
	// Ready is m_axis_tready's pattern: cycle c gets Ready[c mod R] (unless an
	// OpReady made it always 1).
	Ready []bool
	// MaxCycles bounds the run (0: a bound derived from the script).
	MaxCycles int
}

// SysOut is one transferred output beat.
type SysOut struct {
	Data  uint32
	Last  bool
	Cycle int
}

// SysRead is the completion of one OpRead or OpWrite: its response and, for
// a read, the data.
type SysRead struct {
	Write      bool
	Addr, Data uint32
	Resp       uint32
	Cycle      int
}

// SysRecord is one classified record with the vector it belongs to, for checks
// against the model: the elements, the bank, the class and (with scores) the
// scores.
type SysRecord struct {
	In     []int
	Bank   int
	Class  int
	Scores []int64
}

// SysRun is the result of a system run.
type SysRun struct {
	Out []SysOut
	// Reads lists the completed AXI4-Lite accesses, writes and reads, in order.
	Reads []SysRead
	// Cycles: the run stops at the first cycle at which the End command has
	// started and every record beat has been transferred.
	Cycles int
	// IRQCycles counts the cycles in [0, Cycles) with irq_o = 1.
	IRQCycles int
	// Classified lists the classified records in order.
	Classified []SysRecord
}

// SysTail is the number of cycles after the end in which the testbenches
// check, with m_axis_tready = 1, that no further beat appears.
const SysTail = 16

// sysDriver is the driver's per-cycle state (docs/system-interface.md: the same
// rules in the Go model and both testbenches).
type sysDriver struct {
	sc        *SysScript
	next      int // next input beat to send
	limit     int // beats released by Send
	offer     int // cycle from which beat next is offered
	op        int // current command
	opStart   int
	addrDone  bool
	dataDone  bool
	readyMode int
}

// startOp begins command d.op in cycle cyc.
func (d *sysDriver) startOp(cyc int) {
	d.opStart, d.addrDone, d.dataDone = cyc, false, false
	op := d.sc.Ops[d.op]
	switch op.Kind {
	case OpSend:
		if d.next == d.limit && d.next < len(d.sc.Beats) {
			d.offer = cyc + d.sc.Beats[d.next].Gap
		}
		d.limit += op.N
	case OpReady:
		d.readyMode = op.N
	case OpDrop:
		d.next = d.limit
	}
}

// inputs presents the driver's inputs for cycle cyc.
func (d *sysDriver) inputs(cyc int) SystemInputs {
	var in SystemInputs
	if d.next < d.limit && cyc >= d.offer {
		b := d.sc.Beats[d.next]
		in.SValid, in.SData, in.SLast = true, b.Data, b.Last
	}
	switch d.readyMode {
	case ReadyAlways:
		in.MReady = true
	case ReadyNever:
		in.MReady = false
	default:
		in.MReady = d.sc.Ready[cyc%len(d.sc.Ready)]
	}
	op := d.sc.Ops[d.op]
	at := cyc - d.opStart
	switch op.Kind {
	case OpWrite:
		in.AWValid = !d.addrDone && at >= op.AddrDelay
		in.AWAddr = op.Addr
		in.WValid = !d.dataDone && at >= op.DataDelay
		in.WData = op.Data
		in.WStrb = op.WStrb()
		in.BReady = at >= op.RespDelay
	case OpRead:
		in.ARValid = !d.addrDone && at >= op.AddrDelay
		in.ARAddr = op.Addr
		in.RReady = at >= op.RespDelay
	}
	return in
}

func checkScript(sc *SysScript) error {
	if len(sc.Ready) == 0 {
		return fmt.Errorf("sim: empty ready pattern")
	}
	if len(sc.Ops) == 0 || sc.Ops[len(sc.Ops)-1].Kind != OpEnd {
		return fmt.Errorf("sim: the script does not end with OpEnd")
	}
	released := 0
	for i, op := range sc.Ops {
		if op.Kind < OpEnd || op.Kind > OpDrop {
			return fmt.Errorf("sim: command %d: kind %d", i, op.Kind)
		}
		if op.Kind == OpReady && op.N > ReadyNever {
			return fmt.Errorf("sim: command %d: ready mode %d", i, op.N)
		}
		if op.N < 0 || op.AddrDelay < 0 || op.DataDelay < 0 || op.RespDelay < 0 {
			return fmt.Errorf("sim: command %d: negative count or delay", i)
		}
		if op.Kind == OpEnd && i != len(sc.Ops)-1 {
			return fmt.Errorf("sim: command %d: OpEnd before the end", i)
		}
		if op.Kind == OpSend {
			released += op.N
		}
	}
	if released != len(sc.Beats) {
		return fmt.Errorf("sim: the script releases %d beats and has %d", released, len(sc.Beats))
	}
	for i, b := range sc.Beats {
		if b.Gap < 0 {
			return fmt.Errorf("sim: beat %d: gap %d", i, b.Gap)
		}
	}
	return nil
}

// RunSystem drives <prefix>_system with sc exactly as the testbenches do
// and returns every output beat, read and classified record. It stops with
// ctx's error when ctx is cancelled.
func (c *Core) RunSystem(ctx context.Context, cfg SystemConfig, sc SysScript) (*SysRun, error) {
	if err := checkScript(&sc); err != nil {
		return nil, err
	}
	s, err := c.NewSystem(cfg)
	if err != nil {
		return nil, err
	}
	maxCycles := sc.MaxCycles
	if maxCycles == 0 {
		maxCycles = 1000 + 16*len(sc.Ops) + 8*len(sc.Beats)*(c.pl.II+cfg.ID.Beats+c.l+2)
		for _, op := range sc.Ops {
			maxCycles += op.N*b2i(op.Kind == OpIdle) + op.AddrDelay + op.DataDelay + op.RespDelay
		}
		for _, b := range sc.Beats {
			maxCycles += b.Gap
		}
	}
	run := &SysRun{}
	d := &sysDriver{sc: &sc}
	d.startOp(0)
	var pending []SysRecord // accepted vectors whose record is not yet complete
	lastOut := -1
	var irq []int // irq[c]: cycles with irq_o = 1 before cycle c
	irqN := 0
	for cyc := 0; ; cyc++ {
		if cyc%ctxCycles == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("sim: system run: %w", ctx.Err())
		}
		irq = append(irq, irqN)
		if sc.Ops[d.op].Kind == OpEnd && !s.Busy() && d.next == d.limit {
			run.Cycles = max(d.opStart, lastOut+1)
			run.IRQCycles = irq[run.Cycles]
			break
		}
		if cyc >= maxCycles {
			return nil, fmt.Errorf("sim: system run exceeded %d cycles (command %d of %d, %d of %d beats sent, %d beats out)",
				maxCycles, d.op, len(sc.Ops), d.next, len(sc.Beats), len(run.Out))
		}
		in := d.inputs(cyc)
		out := s.Outputs()
		if out.IRQ {
			irqN++
		}
		// Classified records: the vector is accepted with its last beat (never
		// in the cycle of a flush, which drops every vector in flight).
		topOut := s.top.Outputs()
		flush := s.flush()
		if f := s.frames(in, topOut.InReady); f.vecValid && topOut.InReady && !flush {
			pending = append(pending, SysRecord{In: append([]int(nil), s.frameVector(in.SData)...), Bank: s.bank})
		}
		if out.MValid && in.MReady {
			run.Out = append(run.Out, SysOut{Data: out.MData, Last: out.MLast, Cycle: cyc})
			lastOut = cyc
			if r := s.records(topOut); r.kResult && r.recEnd {
				rec := pending[0]
				pending = pending[1:]
				rec.Class = topOut.Class
				if cfg.ID.Scores {
					rec.Scores = append([]int64(nil), topOut.Scores...)
				}
				run.Classified = append(run.Classified, rec)
			}
		}
		if in.SValid && out.SReady {
			d.next++
			if d.next < d.limit {
				d.offer = cyc + 1 + sc.Beats[d.next].Gap
			}
		}
		// The command's completion, after this cycle's transfers.
		op := sc.Ops[d.op]
		done := false
		switch op.Kind {
		case OpSend, OpReady, OpDrop:
			done = true
		case OpIdle:
			done = cyc-d.opStart >= op.N
		case OpWaitSent:
			done = d.next == d.limit
		case OpWaitOut:
			done = len(run.Out) >= op.N
		case OpWrite:
			d.addrDone = d.addrDone || in.AWValid && out.AWReady
			d.dataDone = d.dataDone || in.WValid && out.WReady
			if out.BValid && in.BReady {
				run.Reads = append(run.Reads, SysRead{Write: true, Addr: op.Addr, Resp: out.BResp, Cycle: cyc})
				done = true
			}
		case OpRead:
			d.addrDone = d.addrDone || in.ARValid && out.ARReady
			if out.RValid && in.RReady {
				run.Reads = append(run.Reads, SysRead{Addr: op.Addr, Data: out.RData, Resp: out.RResp, Cycle: cyc})
				done = true
			}
		}
		s.Clock(in)
		if flush {
			pending = nil
		}
		if done {
			d.op++
			d.startOp(cyc + 1)
		}
	}
	// The tail: nothing more comes out.
	for t := 0; t < SysTail; t++ {
		if s.Outputs().MValid {
			return nil, fmt.Errorf("sim: system run: an output beat after the end")
		}
		s.Clock(SystemInputs{MReady: true})
	}
	return run, nil
}
