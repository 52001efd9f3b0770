package hostdrv

import (
	"fmt"
	"strings"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/weights"
)

// UARTProtocol is the iCEBreaker UART top's framing (docs/ice40.md), as the
// rtl package's UART top implements it: the driver is compiled with these
// values, so the host and the RTL read them from one table.
type UARTProtocol struct {
	RequestMark, ResponseMark  byte // the first byte of a request, of a response
	CmdClassify, CmdIdentify   byte
	StatusResult, StatusID     byte
	StatusBadCRC, StatusBadCmd byte
	// CRCPoly is the CRC-8's polynomial without its x^8 term (initial
	// value 0, most significant bit first), over CMD or STATUS and PAYLOAD.
	CRCPoly byte
	// TimeoutCycles is how long a request's bytes may pause before the top
	// drops the request (the resynchronisation), in clock cycles.
	TimeoutCycles int
	// LevelBytes and ScoreBytes are the bytes of one level in a classify
	// request and of one score in a result (little-endian, scores two's
	// complement).
	LevelBytes, ScoreBytes int
}

// SerialDesign is what the serial driver needs to know about an emitted
// iCEBreaker design (`hdlgen emit --board icebreaker`).
type SerialDesign struct {
	Model *model.Model
	Plan  *plan.Plan
	// Top is the UART top module, <prefix>_ice40; RTLFiles (its Verilog,
	// the stream top's included) and MemFiles are DIR-relative: the
	// pseudo-terminal simulation (make sim) verilates them.
	Top                string
	RTLFiles, MemFiles []string
	ClockHz            float64
	Baud               int
	Protocol           UARTProtocol
	// Identity is the identify response's STATUS and PAYLOAD as the top
	// sends them; the driver refuses a device that answers anything else.
	Identity []byte
	// SelfTest holds the design's own test vectors and their expected
	// outputs.
	SelfTest SelfTest
}

// serialStatic are the serial driver's files copied unchanged: the encoder,
// the command-line tool and the Python wrapper are the Zynq driver's.
var serialStatic = map[string]string{
	"hdlgen.h":               "templates/hdlgen.h",
	"hdlgen_encode.c":        "templates/hdlgen_encode.c",
	"hdlgen_run.c":           "templates/hdlgen_run.c",
	"hdlgen.py":              "templates/python/hdlgen.py",
	"hdlgen_uart.h":          "templates/hdlgen_uart.h",
	"hdlgen_uart.c":          "templates/hdlgen_uart.c",
	"hdlgen_uart_selftest.c": "templates/hdlgen_uart_selftest.c",
	"backend_serial.c":       "templates/backend_serial.c",
	"sim_uart.cpp":           "templates/sim_uart.cpp",
}

// serialRendered are the serial driver's rendered files.
var serialRendered = map[string]string{
	"hdlgen_design.h":        "serial_design.h.tmpl",
	"hdlgen_design.c":        "hdlgen_design.c.tmpl",
	"hdlgen_selftest_data.c": "hdlgen_selftest_data.c.tmpl",
	"Makefile":               "serial_Makefile.tmpl",
}

// uartView is what the serial driver's templates see beyond view.
type uartView struct {
	Baud, Divider      int
	Protocol           UARTProtocol
	IdentityBytes      string // the identity's PAYLOAD (after STATUS) as C initializers
	IdentityLen        int
	ResultLen          int // a result's PAYLOAD bytes: the class, then L scores
	Latency, II        int // the core's, in clock cycles (plan)
	LevelWidth, ScoreW int
}

// SerialFiles returns the serial driver's files as DIR-relative path →
// content (all under driver/).
func SerialFiles(d SerialDesign) (map[string][]byte, error) {
	v, err := newSerialView(d)
	if err != nil {
		return nil, err
	}
	return driverFiles(v, serialStatic, serialRendered)
}

func newSerialView(d SerialDesign) (*view, error) {
	m, pl := d.Model, d.Plan
	if m == nil || pl == nil {
		return nil, fmt.Errorf("hostdrv: serial design without a model or plan")
	}
	if m.K() != pl.K || m.N() != pl.N || m.L() != pl.L {
		return nil, fmt.Errorf("hostdrv: model %s and plan (K=%d N=%d L=%d) disagree", m, pl.K, pl.N, pl.L)
	}
	if d.Top == "" {
		return nil, fmt.Errorf("hostdrv: serial design without a UART top")
	}
	l := pl.Layer()
	if l == nil {
		return nil, fmt.Errorf("hostdrv: architecture %s has no hardware", pl.Arch)
	}
	if d.Baud <= 0 || !(d.ClockHz >= 1e6) || d.ClockHz != float64(int64(d.ClockHz)) || int64(d.ClockHz)%int64(d.Baud) != 0 {
		return nil, fmt.Errorf("hostdrv: clock %v Hz and %d baud: want a whole clock of at least 1 MHz, a whole multiple of the baud rate", d.ClockHz, d.Baud)
	}
	p := d.Protocol
	if p.LevelBytes != (pl.LW+7)/8 || p.ScoreBytes != (pl.AW+7)/8 || p.ScoreBytes > 4 {
		return nil, fmt.Errorf("hostdrv: %d-byte levels and %d-byte scores for LW=%d, AW=%d: want whole bytes of each, scores of at most 4 bytes",
			p.LevelBytes, p.ScoreBytes, pl.LW, pl.AW)
	}
	if len(d.Identity) < 2 || d.Identity[0] != p.StatusID {
		return nil, fmt.Errorf("hostdrv: identity response % x does not start with the identity status %#02x", d.Identity, p.StatusID)
	}
	if p.TimeoutCycles <= 0 {
		return nil, fmt.Errorf("hostdrv: request timeout of %d cycles", p.TimeoutCycles)
	}
	v := &view{
		Quoted: cString(m.Name), Top: d.Top, Prefix: pl.Prefix, Arch: pl.Arch, Bound: pl.ReadoutBound,
		RTLFiles: d.RTLFiles, MemFiles: d.MemFiles,
	}
	// The identity's fields the shared templates read (the UART top has no
	// registers: no readout reload, always scores).
	v.ID.K, v.ID.N, v.ID.L, v.ID.P, v.ID.Kappa, v.ID.Bits = pl.K, pl.N, pl.L, pl.P, pl.Kappa, pl.ReadoutBits
	v.ID.LW, v.ID.Arch, v.ID.Scores = pl.LW, l.ArchCode(), true
	v.InputScale, v.InputMax, v.EncodeRule = l.InputScale(pl), l.MaxInput(pl), l.EncodeRule()
	v.HashBytes = hexBytes(d.Identity[6:14])
	ch := weights.ClassHash(m.ClassNames)
	v.ClassHashBytes = hexBytes(ch[:])
	v.ClockHz = int64(d.ClockHz)
	for i := range m.Norm.Min {
		v.Min = append(v.Min, hexDouble(m.Norm.Min[i]))
		v.Max = append(v.Max, hexDouble(m.Norm.Max[i]))
	}
	for _, c := range m.ClassNames {
		v.ClassNames = append(v.ClassNames, cString(c))
	}
	if len(m.FeatureNames) == m.K() {
		for _, f := range m.FeatureNames {
			v.FeatureNames = append(v.FeatureNames, cString(f))
		}
	}
	v.LabelName = cString(m.Training.LabelName)
	v.UART = &uartView{
		Baud: d.Baud, Divider: int(int64(d.ClockHz) / int64(d.Baud)), Protocol: p,
		IdentityBytes: hexBytes(d.Identity[1:]), IdentityLen: len(d.Identity) - 1,
		ResultLen: 1 + pl.L*p.ScoreBytes, Latency: pl.Latency, II: pl.II, LevelWidth: pl.LW, ScoreW: pl.AW,
	}
	var err error
	if v.SelfTest, err = newSelfTestView(Design{Model: m, Plan: pl, SelfTest: d.SelfTest}); err != nil {
		return nil, err
	}
	return v, nil
}

// hexBytes renders bytes as C initializers, "0x48, 0x44, ...".
func hexBytes(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("0x%02x", c)
	}
	return strings.Join(parts, ", ")
}
