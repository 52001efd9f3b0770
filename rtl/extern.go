package rtl

import (
	"github.com/hdlgen/hdlgen/constraints"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/testbench"
)

// This file is the only place that knows about the testbench and constraints
// packages: they write the testbenches, the Makefile, the Vivado flow and the
// board constraints of an emitted design. systemExtraFiles is where the host
// driver and the Vivado block design of a system design plug in.

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

// systemExtraFiles, when non-nil, adds the host driver (driver/) and the Vivado
// block design (vivado/system.tcl) of a system design to files, refusing names
// already taken (docs/system-interface.md); top is <prefix>_system.
var systemExtraFiles func(files map[string][]byte, m *model.Model, pl *plan.Plan, id regmap.Identity,
	top string, rtlFiles, memFiles []string) error
