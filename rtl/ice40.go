package rtl

import (
	"crypto/sha256"
	"fmt"
	"math/bits"
	"strings"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/constraints"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/templates"
)

// This file is the iCEBreaker target (Options.Board = board.NameIceBreaker,
// docs/ice40.md): the UART system top <prefix>_ice40 around the unchanged
// stream top, its testbench, the board's pin constraints and the make rules
// of the iCE40 flow (ice40/ice40.mk: Yosys synth_ice40, nextpnr-ice40,
// icepack, and the routed netlist's simulation), which the design's Makefile
// includes.

// Paths of the iCE40 files inside DIR.
const (
	ice40MakePath   = "ice40/ice40.mk"
	ice40TBPath     = "tb/tb_ice40.v"
	ice40ParamsPath = "vectors/ice40_params.vh"
)

// ice40Primitives are the UART's modules, in file-list order.
var ice40Primitives = []string{"hdlgen_uart_rx.v", "hdlgen_uart_tx.v"}

// ice40Frame is the UART protocol's layout for one design (docs/ice40.md).
const (
	ice40Version      = 1 // the identity's protocol version
	ice40IdentityLen  = 25
	ice40TimeoutW     = 16 // a request's bytes may pause for 2^16 clocks (5.5 ms at 12 MHz)
	ice40StatusResult = 0x01
	ice40StatusID     = 0x02
	ice40StatusBadCRC = 0x80
	ice40StatusBadCmd = 0x81
	// ice40RoutedVectors is how many of the design's vectors the routed
	// netlist's simulation sends by default (make ROUTED_VECTORS=N changes it).
	ice40RoutedVectors = 16
	// ice40UARTVectors is how many the UART top's RTL testbench sends by
	// default (make ICE40_VECTORS=N): at 1 Mbaud a vector is thousands of
	// clocks, and the stream top's testbenches check every vector.
	ice40UARTVectors = 64
)

// ice40View is what ice40_top.v.tmpl and the testbench's parameters see.
type ice40View struct {
	view
	Baud, Divider, CountW, ClockMHz   int
	LevelBytes, ScoreBytes            int
	ReqCountW, BodyBytes, BodyCountW  int
	IdentityBytes, TimeoutW           int
	TimeoutCycles                     int
	IdentityHex, BadCRCHex, BadCmdHex string
	ClassByte, ScoreExt               string
	PadBits, ResultPad                bool
}

// checkBoard validates Options.Board against the plan.
func checkBoard(pl *plan.Plan, o *Options) error {
	switch o.Board {
	case "", board.NameZedBoard:
		return nil
	case board.NameIceBreaker:
	default:
		return fmt.Errorf("rtl: unknown board %q (want %s)", o.Board, strings.Join(board.Names, ", "))
	}
	switch {
	case o.System != "":
		return fmt.Errorf("rtl: --system %s is the ZedBoard's; the %s has its UART top", o.System, board.IceBreaker.Name)
	case pl.L > 256:
		return fmt.Errorf("rtl: the %s's UART sends the class in one byte, this design has L=%d", board.IceBreaker.Name, pl.L)
	case pl.AW > 64:
		return fmt.Errorf("rtl: the %s's UART sends scores of at most 64 bits, this design has AW=%d", board.IceBreaker.Name, pl.AW)
	}
	return nil
}

func newICE40View(m *model.Model, pl *plan.Plan, modelJSON []byte) ice40View {
	b := board.IceBreaker
	v := ice40View{view: newView(m, pl, false), Baud: b.Baud, Divider: b.Divider(), ClockMHz: int(b.ClockHz / 1e6)}
	v.CountW = max(1, plan.Clog2(v.Divider))
	v.LevelBytes = (pl.LW + 7) / 8
	v.ScoreBytes = (pl.AW + 7) / 8
	v.ReqCountW = max(1, bits.Len(uint(pl.K*v.LevelBytes)))
	resB := 2 + pl.L*v.ScoreBytes
	idB := 1 + ice40IdentityLen
	v.IdentityBytes = ice40IdentityLen
	v.BodyBytes = max(resB, idB)
	v.BodyCountW = bits.Len(uint(v.BodyBytes))
	v.TimeoutW = ice40TimeoutW
	v.TimeoutCycles = 1 << ice40TimeoutW
	v.IdentityHex = bodyHex(v.BodyBytes, ice40Identity(pl, modelJSON))
	v.BadCRCHex = bodyHex(v.BodyBytes, []byte{ice40StatusBadCRC})
	v.BadCmdHex = bodyHex(v.BodyBytes, []byte{ice40StatusBadCmd})
	v.ClassByte = "out_class"
	if pl.CW < 8 {
		v.ClassByte = fmt.Sprintf("{%d'd0, out_class}", 8-pl.CW)
	}
	v.ScoreExt = "out_scores[gi*SCORE_W +: SCORE_W]"
	if ext := 8*v.ScoreBytes - pl.AW; ext > 0 {
		v.ScoreExt = fmt.Sprintf("{{%d{out_scores[gi*SCORE_W + SCORE_W-1]}}, %s}", ext, v.ScoreExt)
	}
	v.PadBits = 8*v.LevelBytes > pl.LW
	v.ResultPad = v.BodyBytes > resB
	v.FileRole = pl.Prefix + "_ice40.v, the iCEBreaker's UART system top (docs/ice40.md)"
	return v
}

// ice40Identity is the identity response's body: STATUS, then "HDLG", the
// protocol version, the first 8 bytes of SHA-256(model.json), K, L, N and P
// (2 bytes each, little-endian), LW, AW, the architecture code and the
// readout bits.
func ice40Identity(pl *plan.Plan, modelJSON []byte) []byte {
	sum := sha256.Sum256(modelJSON)
	id := []byte{ice40StatusID, 'H', 'D', 'L', 'G', ice40Version}
	id = append(id, sum[:8]...)
	for _, x := range []int{pl.K, pl.L, pl.N, pl.P} {
		id = append(id, byte(x), byte(x>>8))
	}
	id = append(id, byte(pl.LW), byte(pl.AW), byte(pl.Layer().ArchCode()), byte(pl.ReadoutBits))
	if len(id) != 1+ice40IdentityLen {
		panic(fmt.Sprintf("rtl: identity of %d bytes, want %d", len(id), 1+ice40IdentityLen))
	}
	return id
}

// bodyHex is a Verilog literal of n bytes holding b from its low byte up.
func bodyHex(n int, b []byte) string {
	var s strings.Builder
	fmt.Fprintf(&s, "%d'h", 8*n)
	for i := n - 1; i >= 0; i-- {
		x := byte(0)
		if i < len(b) {
			x = b[i]
		}
		fmt.Fprintf(&s, "%02x", x)
		if i > 0 && i%4 == 0 {
			s.WriteByte('_')
		}
	}
	return s.String()
}

// addICE40Files adds the iCEBreaker's files to files and the include of its
// make rules to the Makefile; rtlFiles are the stream top's Verilog files.
func addICE40Files(files map[string][]byte, m *model.Model, pl *plan.Plan, rtlFiles, memFiles []string) error {
	v := newICE40View(m, pl, files["model.json"])
	top := pl.Prefix + "_ice40"
	add := func(name string, b []byte) error {
		if _, dup := files[name]; dup {
			return fmt.Errorf("rtl: iCE40 file %s collides with a generated file", name)
		}
		files[name] = b
		return nil
	}
	var ice40RTL []string
	for _, p := range ice40Primitives {
		b, err := templates.FS.ReadFile(p)
		if err != nil {
			return fmt.Errorf("rtl: primitive %s: %w", p, err)
		}
		if err := add("rtl/"+p, b); err != nil {
			return err
		}
		ice40RTL = append(ice40RTL, "rtl/"+p)
	}
	for _, t := range []struct{ tmpl, name string }{
		{"ice40_top.v.tmpl", "rtl/" + top + ".v"},
		{"tb_ice40.v.tmpl", ice40TBPath},
		{"ice40_params.vh.tmpl", ice40ParamsPath},
		{"ice40.mk.tmpl", ice40MakePath},
		{"ice40_carry.py.tmpl", "ice40/ice40_carry.py"},
	} {
		data := struct {
			ice40View
			Top            string
			StreamRTL      []string
			UARTRTL        string
			Mem            []string
			RoutedVectors  int
			UARTVectors    int
			Device         board.ICE40Device
			FreqMHz        int
			PCF            string
			ResultBytes    int
			IdentityBytes1 int
		}{v, top, rtlFiles, strings.Join(append(ice40RTL, "rtl/"+top+".v"), " "), memFiles, ice40RoutedVectors, ice40UARTVectors, board.IceBreaker.Device,
			v.ClockMHz, constraints.PCFPath, 2 + pl.L*v.ScoreBytes, 1 + ice40IdentityLen}
		b, err := render(t.tmpl, data)
		if err != nil {
			return err
		}
		if err := add(t.name, b); err != nil {
			return err
		}
	}
	pcf, err := constraints.IceBreakerPCF(top)
	if err != nil {
		return fmt.Errorf("rtl: %w", err)
	}
	if err := add(constraints.PCFPath, pcf); err != nil {
		return err
	}
	mk, ok := files["Makefile"]
	if !ok {
		return fmt.Errorf("rtl: internal error: no Makefile to include %s from", ice40MakePath)
	}
	files["Makefile"] = append(append([]byte{}, mk...), []byte("\n# The iCEBreaker's flow (hdlgen emit --board icebreaker): make bitstream, routed-ice40.\ninclude "+ice40MakePath+"\n")...)
	return addICE40Driver(files, m, pl, v, top, append(append([]string{}, rtlFiles...), append(ice40RTL, "rtl/"+top+".v")...), memFiles)
}
