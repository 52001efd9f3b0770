package sim

// Axis is the cycle-accurate state of <prefix>_axis: hdlgen_axis_in, the stream
// top and hdlgen_axis_out.
type Axis struct {
	top *Top
	k   int
	l   int
	lw  uint

	// hdlgen_axis_in
	beat     int   // position of the next beat in its vector
	long     bool  // the vector in progress already has K beats
	tlastErr bool  // sticky: a vector was dropped
	drops    int   // vectors dropped (drop_count_o, 16 bits)
	held     []int // the first K−1 beats: element i is feature i
	vec      []int // scratch: the vector offered to the stream top

	// hdlgen_axis_out
	obeat int
}

// axisCountMask is the range of drop_count_o (16 bits, wraps).
const axisCountMask = 1<<16 - 1

// NewAxis returns an Axis in its reset state.
func (c *Core) NewAxis() *Axis {
	a := &Axis{top: c.NewTop(), k: c.k, l: c.l, lw: uint(c.pl.LW), held: make([]int, c.k-1), vec: make([]int, c.k)}
	a.Reset()
	return a
}

// Reset applies aresetn = 0 for one edge.
func (a *Axis) Reset() {
	a.top.Reset()
	a.beat, a.long, a.tlastErr, a.drops, a.obeat = 0, false, false, 0, 0
}

// AxisOutputs is the combinational view of the wrapper's current state.
type AxisOutputs struct {
	SReady     bool
	MValid     bool
	MData      uint32
	MLast      bool
	TLastError bool
	DropCount  int
}

// atLast reports whether the next beat completes a well-formed vector when it
// carries TLAST.
func (a *Axis) atLast() bool { return a.beat == a.k-1 && !a.long }

// SReady is s_axis_tready for a beat with TLAST sLast: at the vector's last
// beat it waits for the stream top. Without the input register (HoldInput) a
// beat without TLAST there (a too-long frame) does not: the stream top is
// ready only with the last group of a vector it issues.
func (a *Axis) SReady(sLast bool) bool {
	t := a.top
	return !a.atLast() || (t.c.pl.HoldInput && !sLast) || t.inReady(t.en())
}

// Outputs returns s_axis_tready (for a beat with TLAST; see SReady), the m_axis
// beat on offer, tlast_error_o and drop_count_o.
func (a *Axis) Outputs() AxisOutputs {
	t := a.top
	o := AxisOutputs{SReady: a.SReady(true), MValid: t.outValid, MLast: a.obeat == a.l,
		TLastError: a.tlastErr, DropCount: a.drops}
	if a.obeat == 0 {
		o.MData = uint32(t.outClass)
	} else {
		o.MData = uint32(int32(t.outScores[a.obeat-1])) // sign-extended to 32 bits
	}
	return o
}

// Clock applies one rising edge. tdata carries one feature in its low LW bits.
func (a *Axis) Clock(sValid bool, tdata uint16, sLast bool, mReady bool) {
	t := a.top
	atLast := a.atLast()
	sReady := a.SReady(sLast)
	beat := sValid && sReady
	feature := int(tdata) & (1<<a.lw - 1)
	mLast := a.obeat == a.l
	mBeat := t.outValid && mReady

	// The stream top takes the held beats and the last one straight from TDATA.
	vecValid := sValid && sLast && atLast
	if vecValid {
		copy(a.vec, a.held)
		a.vec[a.k-1] = feature
	}
	t.Clock(vecValid, a.vec, mReady && mLast)

	// hdlgen_axis_in.
	if beat {
		switch {
		case sLast:
			a.beat, a.long = 0, false
		case a.beat == a.k-1:
			a.long = true
		default:
			a.beat++
		}
		if sLast && !atLast {
			a.tlastErr = true
			a.drops = (a.drops + 1) & axisCountMask
		}
		if a.k > 1 {
			copy(a.held, a.held[1:])
			a.held[a.k-2] = feature
		}
	}

	// hdlgen_axis_out.
	if mBeat {
		if mLast {
			a.obeat = 0
		} else {
			a.obeat++
		}
	}
}
