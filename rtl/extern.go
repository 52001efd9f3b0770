package rtl

import (
	"github.com/hdlgen/hdlgen/constraints"
	"github.com/hdlgen/hdlgen/testbench"
)

// This file is the only place that knows about the testbench and constraints
// packages: they write the testbenches, the Makefile, the Vivado flow and the
// board constraints of an emitted design.

// tbDesign is what those generators need to know about an emitted design.
type tbDesign = testbench.Design

// tbFiles returns the testbench sources, the Makefile and the Vivado Tcl script as
// DIR-relative path → content (nil would skip them).
var tbFiles func(d tbDesign) (map[string][]byte, error) = testbench.Files

// boardXDC returns the ZedBoard constraints (nil would skip them).
var boardXDC func(d tbDesign) []byte = func(d tbDesign) []byte {
	return constraints.ZedBoardXDC(constraints.Design{Prefix: d.Prefix, StreamTop: d.StreamTop, AxisTop: d.AxisTop,
		Part: d.Part, ClockPeriodNS: d.ClockPeriodNS})
}
