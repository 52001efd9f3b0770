package sim

// Axis is the cycle-accurate state of <prefix>_axis: hdlgen_axis_in, the stream
// top and hdlgen_axis_out.
type Axis struct {
	top *Top
	k   int
	l   int
	lw  uint

	// hdlgen_axis_in
	full     bool
	beat     int
	tlastErr bool
	vec      []int // the shift register: element i is bits [i*LW +: LW]

	// hdlgen_axis_out
	obeat int
}

// NewAxis returns an Axis in its reset state.
func (c *Core) NewAxis() *Axis {
	a := &Axis{top: c.NewTop(), k: c.k, l: c.l, lw: uint(c.pl.LW), vec: make([]int, c.k)}
	a.Reset()
	return a
}

// Reset applies aresetn = 0 for one edge.
func (a *Axis) Reset() {
	a.top.Reset()
	a.full, a.beat, a.tlastErr, a.obeat = false, 0, false, 0
}

// AxisOutputs is the combinational view of the wrapper's current state.
type AxisOutputs struct {
	SReady     bool
	MValid     bool
	MData      uint32
	MLast      bool
	TLastError bool
}

// Outputs returns s_axis_tready, the m_axis beat on offer and tlast_error_o.
func (a *Axis) Outputs() AxisOutputs {
	t := a.top
	o := AxisOutputs{SReady: !a.full || t.inReady(t.en()), MValid: t.outValid, MLast: a.obeat == a.l, TLastError: a.tlastErr}
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
	vecReady := t.inReady(t.en())
	sReady := !a.full || vecReady
	beat := sValid && sReady
	lastBeat := a.beat == a.k-1
	mLast := a.obeat == a.l
	mBeat := t.outValid && mReady

	// The stream top sees the assembled vector (before this edge's shift).
	t.Clock(a.full, a.vec, mReady && mLast)

	// hdlgen_axis_in.
	if beat {
		if lastBeat {
			a.beat = 0
		} else {
			a.beat++
		}
		if sLast != lastBeat {
			a.tlastErr = true
		}
		copy(a.vec, a.vec[1:])
		a.vec[a.k-1] = int(tdata) & (1<<a.lw - 1)
	}
	switch {
	case beat && lastBeat:
		a.full = true
	case vecReady:
		a.full = false
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
