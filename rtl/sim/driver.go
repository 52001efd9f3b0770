package sim

import (
	"context"
	"fmt"
)

// Stimulus is one test-vector run (docs/rtl-interface.md §5–6).
type Stimulus struct {
	Inputs [][]int // V vectors of K elements
	Gaps   []int   // V idle cycles before each vector is offered (≥ 0)
	Ready  []bool  // R ≥ 1: out_ready (m_axis_tready) at cycle c is Ready[c mod R]
	// AxisJunk (AXI4-Stream runs only; nil means none) holds, per vector, the
	// length of a malformed frame sent just before it: 0 for none, else that
	// many beats (≠ K) ending with TLAST, which the wrapper must drop. Junk beat
	// j carries feature j mod K of the vector.
	AxisJunk []int
	// MaxCycles bounds the run (0 means a generous bound derived from the stimulus).
	MaxCycles int
}

// Output is one vector's result and its cycle numbers. For the AXI4-Stream wrapper
// Accept is the cycle of the last input beat's transfer and FirstValid/Transfer
// refer to the first output beat.
type Output struct {
	Scores     []int64
	Class      int
	Accept     int
	FirstValid int
	Transfer   int
}

// Latency is FirstValid − Accept.
func (o Output) Latency() int { return o.FirstValid - o.Accept }

// Run is the result of driving a whole Stimulus.
type Run struct {
	Outputs []Output
	// Cycles is the number of cycles the run took: the last transfer's cycle + 1.
	Cycles int
	// Dropped is drop_count_o at the end of an AXI4-Stream run.
	Dropped int
}

func (c *Core) check(st *Stimulus) (maxCycles int, err error) {
	if len(st.Gaps) != len(st.Inputs) {
		return 0, fmt.Errorf("sim: %d gaps for %d vectors", len(st.Gaps), len(st.Inputs))
	}
	if len(st.Ready) == 0 {
		return 0, fmt.Errorf("sim: empty ready pattern")
	}
	anyReady := false
	for _, r := range st.Ready {
		anyReady = anyReady || r
	}
	if !anyReady && len(st.Inputs) > 0 {
		return 0, fmt.Errorf("sim: the ready pattern is never 1")
	}
	if st.AxisJunk != nil && len(st.AxisJunk) != len(st.Inputs) {
		return 0, fmt.Errorf("sim: %d junk frames for %d vectors", len(st.AxisJunk), len(st.Inputs))
	}
	total := 0
	for v, in := range st.Inputs {
		if st.AxisJunk != nil {
			if j := st.AxisJunk[v]; j < 0 || j == c.k {
				return 0, fmt.Errorf("sim: vector %d: a junk frame of %d beats (K=%d)", v, j, c.k)
			}
			total += st.AxisJunk[v]
		}
		if err := c.CheckInput(in); err != nil {
			return 0, fmt.Errorf("vector %d: %w", v, err)
		}
		if st.Gaps[v] < 0 {
			return 0, fmt.Errorf("sim: vector %d: gap %d", v, st.Gaps[v])
		}
		total += st.Gaps[v]
	}
	if st.MaxCycles > 0 {
		return st.MaxCycles, nil
	}
	// Every vector needs at most latency + II + (L+2)·R cycles even when the
	// ready pattern is sparse; add the gaps.
	per := c.pl.AxisLatency + c.pl.AxisII + (c.l+2)*len(st.Ready) + c.k
	return total + (len(st.Inputs)+1)*per + 100, nil
}

// ctxCycles is the number of simulated cycles between two checks of the context.
const ctxCycles = 1 << 14

// startRun checks st and returns an empty Run for it (no output seen yet),
// the cycle limit and the cycle at which the first vector is offered.
func (c *Core) startRun(st *Stimulus) (run *Run, maxCycles, offer int, err error) {
	maxCycles, err = c.check(st)
	if err != nil {
		return nil, 0, 0, err
	}
	run = &Run{Outputs: make([]Output, len(st.Inputs))}
	for o := range run.Outputs {
		run.Outputs[o].FirstValid = -1
	}
	if len(st.Inputs) > 0 {
		offer = st.Gaps[0]
	}
	return run, maxCycles, offer, nil
}

// runGuard ends a run of the named interface at cycle cyc when ctx is
// cancelled (checked every ctxCycles cycles) or the cycle limit is reached
// with o of nv outputs.
func runGuard(ctx context.Context, name string, cyc, maxCycles, o, nv int) error {
	if cyc%ctxCycles == 0 && ctx.Err() != nil {
		return fmt.Errorf("sim: %s run: %w", name, ctx.Err())
	}
	if cyc >= maxCycles {
		return fmt.Errorf("sim: %s run exceeded %d cycles with %d of %d outputs", name, maxCycles, o, nv)
	}
	return nil
}

// RunStream drives <prefix>_top with st exactly as the testbenches do and
// returns every output with its cycle numbers. It stops with ctx's error when
// ctx is cancelled.
func (c *Core) RunStream(ctx context.Context, st Stimulus) (*Run, error) {
	run, maxCycles, offer, err := c.startRun(&st)
	if err != nil {
		return nil, err
	}
	nv := len(st.Inputs)
	t := c.NewTop()
	zero := make([]int, c.k)
	v, o := 0, 0
	for cyc := 0; o < nv; cyc++ {
		if err := runGuard(ctx, "stream", cyc, maxCycles, o, nv); err != nil {
			return nil, err
		}
		inValid := v < nv && cyc >= offer
		in := zero
		if inValid {
			in = st.Inputs[v]
		}
		outReady := st.Ready[cyc%len(st.Ready)]
		out := t.Outputs()
		if inValid && out.InReady {
			run.Outputs[v].Accept = cyc
			v++
			if v < nv {
				offer = cyc + 1 + st.Gaps[v]
			}
		}
		if out.OutValid && run.Outputs[o].FirstValid < 0 {
			run.Outputs[o].FirstValid = cyc
		}
		if out.OutValid && outReady {
			r := &run.Outputs[o]
			r.Scores = append([]int64(nil), out.Scores...)
			r.Class = out.Class
			r.Transfer = cyc
			o++
			run.Cycles = cyc + 1
		}
		t.Clock(inValid, in, outReady)
	}
	return run, nil
}

// RunAxis drives <prefix>_axis with st exactly as the testbenches do. It
// stops with ctx's error when ctx is cancelled.
func (c *Core) RunAxis(ctx context.Context, st Stimulus) (*Run, error) {
	if !c.pl.AxisOK {
		return nil, fmt.Errorf("sim: no AXI4-Stream wrapper for AW=%d, LW=%d", c.pl.AW, c.pl.LW)
	}
	run, maxCycles, offer, err := c.startRun(&st)
	if err != nil {
		return nil, err
	}
	nv := len(st.Inputs)
	for o := range run.Outputs {
		run.Outputs[o].Scores = make([]int64, c.l)
	}
	a := c.NewAxis()
	junk := func(v int) int {
		if st.AxisJunk == nil {
			return 0
		}
		return st.AxisJunk[v]
	}
	// Vector v is sent as junk(v) junk beats, then its K beats: beat b of the
	// frame is junk while b < junk(v).
	v, b := 0, 0  // vector and frame beat being offered
	o, ob := 0, 0 // output vector and beat expected
	for cyc := 0; o < nv; cyc++ {
		if err := runGuard(ctx, "AXI4-Stream", cyc, maxCycles, o, nv); err != nil {
			return nil, err
		}
		sValid := v < nv && cyc >= offer
		var tdata uint16
		sLast := false
		j := 0
		if sValid {
			j = junk(v)
			if b < j {
				tdata = uint16(st.Inputs[v][b%c.k])
				sLast = b == j-1
			} else {
				tdata = uint16(st.Inputs[v][b-j])
				sLast = b-j == c.k-1
			}
		}
		mReady := st.Ready[cyc%len(st.Ready)]
		out := a.Outputs()
		if sValid && a.SReady(sLast) {
			if b == j+c.k-1 {
				run.Outputs[v].Accept = cyc
				v, b = v+1, 0
				if v < nv {
					offer = cyc + 1 + st.Gaps[v]
				}
			} else {
				b++
			}
		}
		if out.MValid && ob == 0 && run.Outputs[o].FirstValid < 0 {
			run.Outputs[o].FirstValid = cyc
		}
		if out.MValid && mReady {
			if out.MLast != (ob == c.l) {
				return nil, fmt.Errorf("sim: output %d beat %d: tlast %v", o, ob, out.MLast)
			}
			r := &run.Outputs[o]
			if ob == 0 {
				r.Class = int(out.MData)
				r.Transfer = cyc
			} else {
				r.Scores[ob-1] = int64(int32(out.MData))
			}
			ob++
			if ob == c.l+1 {
				o, ob = o+1, 0
				run.Cycles = cyc + 1
			}
		}
		a.Clock(sValid, tdata, sLast, mReady)
	}
	run.Dropped = a.Outputs().DropCount
	return run, nil
}

// Classify runs one input vector through a fresh stream top with an always-ready
// output and returns its class, scores and latency in cycles: from its offer
// at cycle 0 to its result, plan.Plan.Latency (with HoldInput the transfer
// comes later, with the last group).
func (c *Core) Classify(in []int) (class int, scores []int64, latency int, err error) {
	run, err := c.RunStream(context.Background(), Stimulus{Inputs: [][]int{in}, Gaps: []int{0}, Ready: []bool{true}})
	if err != nil {
		return 0, nil, 0, err
	}
	o := run.Outputs[0]
	return o.Class, o.Scores, o.FirstValid, nil
}
