package constraints

import (
	"bytes"
	_ "embed"
	"fmt"
	"text/template"

	"github.com/hdlgen/hdlgen/testbench"
)

// Board facts (Avnet ZedBoard master XDC).
const (
	ClockPin     = "Y9"  // GCLK, 100 MHz oscillator, bank 13 (3.3 V)
	ResetPin     = "P16" // BTNC, bank 34 (VADJ, 1.8 V by default)
	ResetPort    = "btnc_i"
	ZedBoardPart = "xc7z020clg484-1"
)

//go:embed zedboard.xdc
var zedboardText string

var zedboardTmpl = template.Must(template.New("zedboard.xdc").Parse(zedboardText))

type xdcData struct {
	Prefix, Top, ClockPort, CoreReset, ResetPort, Period string
	FreqHz                                               int64
	Axis                                                 bool
}

// ZedBoardXDC returns the board constraints of d (see the package
// documentation). d must be valid for the ZedBoard (see Files); ZedBoardXDC
// panics otherwise.
func ZedBoardXDC(d testbench.Design) []byte {
	b, err := render(d)
	if err != nil {
		panic(err.Error())
	}
	return b
}

// Files returns the DIR-relative constraint files of d:
// testbench.XDCPath ("constraints/zedboard.xdc").
func Files(d testbench.Design) (map[string][]byte, error) {
	b, err := render(d)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{testbench.XDCPath: b}, nil
}

func render(d testbench.Design) ([]byte, error) {
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("constraints: %w", err)
	}
	if d.Part != "" && d.Part != ZedBoardPart {
		return nil, fmt.Errorf("constraints: part %s is not the ZedBoard's %s", d.Part, ZedBoardPart)
	}
	period := d.ClockPeriodNS
	if period == 0 {
		period = testbench.DefaultClockPeriodNS
	}
	data := xdcData{
		Prefix:    d.Prefix,
		Top:       d.StreamTop,
		ClockPort: "clk_i",
		CoreReset: "rst_ni",
		ResetPort: ResetPort,
		Period:    fmt.Sprintf("%.3f", period),
		FreqHz:    int64(1e9/period + 0.5),
		Axis:      d.HasAxis(),
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
