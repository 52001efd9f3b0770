package constraints

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"text/template"

	"github.com/hdlgen/hdlgen/board"
)

// Board facts (package board; the Avnet ZedBoard master XDC).
const (
	ClockPin     = board.ClockPin // GCLK, 100 MHz oscillator, bank 13 (3.3 V)
	ResetPin     = board.ResetPin // BTNC, bank 34 (VADJ, 1.8 V by default)
	ResetPort    = "btnc_i"
	ZedBoardPart = board.Part
	// XDCPath is where an emitted design directory holds the board constraints.
	XDCPath = "constraints/zedboard.xdc"
)

// Design is what the board constraints need to know about an emitted design.
type Design struct {
	Prefix    string // model prefix (docs/rtl-interface.md §1), e.g. "iris"
	StreamTop string // stream top module, e.g. "iris_top"
	AxisTop   string // AXI4-Stream wrapper module, "" when none was emitted
	// Part is the FPGA part ("" means the ZedBoard's); another part is an error.
	Part string
	// ClockPeriodNS is the target clock period (0 means the board's).
	ClockPeriodNS float64
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*$`)

// validate returns an error naming the first bad field of d.
func (d Design) validate() error {
	switch {
	case !identRE.MatchString(d.Prefix):
		return fmt.Errorf("prefix %q is not a Verilog identifier", d.Prefix)
	case !identRE.MatchString(d.StreamTop):
		return fmt.Errorf("stream top %q is not a Verilog identifier", d.StreamTop)
	case d.AxisTop != "" && !identRE.MatchString(d.AxisTop):
		return fmt.Errorf("AXIS top %q is not a Verilog identifier", d.AxisTop)
	case d.AxisTop == d.StreamTop:
		return fmt.Errorf("AXIS top and stream top are both %q", d.StreamTop)
	case math.IsNaN(d.ClockPeriodNS) || d.ClockPeriodNS < 0 || d.ClockPeriodNS > 1e6:
		return fmt.Errorf("clock period %v ns out of range", d.ClockPeriodNS)
	}
	return nil
}

//go:embed zedboard.xdc
var zedboardText string

var zedboardTmpl = template.Must(template.New("zedboard.xdc").Parse(zedboardText))

type xdcData struct {
	Prefix, Top, ClockPort, CoreReset, ResetPort, Period string
	ClockPin, ClockIOStandard, ResetPin                  string
	FreqHz                                               int64
	Axis                                                 bool
}

// ZedBoardXDC returns the board constraints of d (see the package
// documentation). d must be valid for the ZedBoard (see Files); ZedBoardXDC
// panics otherwise.
func ZedBoardXDC(d Design) []byte {
	b, err := render(d)
	if err != nil {
		panic(err.Error())
	}
	return b
}

// Files returns the DIR-relative constraint files of d:
// XDCPath ("constraints/zedboard.xdc").
func Files(d Design) (map[string][]byte, error) {
	b, err := render(d)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{XDCPath: b}, nil
}

func render(d Design) ([]byte, error) {
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("constraints: %w", err)
	}
	if d.Part != "" && d.Part != ZedBoardPart {
		return nil, fmt.Errorf("constraints: part %s is not the ZedBoard's %s", d.Part, ZedBoardPart)
	}
	period := d.ClockPeriodNS
	if period == 0 {
		period = board.ZedBoard.ClockPeriodNS()
	}
	data := xdcData{
		Prefix:          d.Prefix,
		Top:             d.StreamTop,
		ClockPort:       "clk_i",
		CoreReset:       "rst_ni",
		ResetPort:       ResetPort,
		ClockPin:        board.ZedBoard.ClockPin,
		ClockIOStandard: board.ZedBoard.ClockIOStandard,
		ResetPin:        board.ZedBoard.ResetPin,
		Period:          fmt.Sprintf("%.3f", period),
		FreqHz:          int64(1e9/period + 0.5),
		Axis:            d.AxisTop != "",
	}
	if data.Axis {
		data.Top, data.ClockPort, data.CoreReset = d.AxisTop, "aclk", "aresetn"
	}
	var buf bytes.Buffer
	if err := zedboardTmpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("constraints: rendering zedboard.xdc: %w", err)
	}
	return buf.Bytes(), nil
}
