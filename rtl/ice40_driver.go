package rtl

import (
	"fmt"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/hostdrv"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// The UART protocol's bytes (docs/ice40.md) that ice40_top.v.tmpl writes as
// literals; the host driver is compiled with these (ice40Protocol), and its
// pseudo-terminal test (hostdrv) runs it against the top's RTL.
const (
	ice40RequestMark  = 0xA5
	ice40ResponseMark = 0x5A
	ice40CmdClassify  = 0x01
	ice40CmdIdentify  = 0x02
	ice40CRCPoly      = 0x07 // x^8 + x^2 + x + 1
)

// ice40Protocol is the UART top's framing for the host driver.
func ice40Protocol(v ice40View) hostdrv.UARTProtocol {
	return hostdrv.UARTProtocol{
		RequestMark: ice40RequestMark, ResponseMark: ice40ResponseMark,
		CmdClassify: ice40CmdClassify, CmdIdentify: ice40CmdIdentify,
		StatusResult: ice40StatusResult, StatusID: ice40StatusID,
		StatusBadCRC: ice40StatusBadCRC, StatusBadCmd: ice40StatusBadCmd,
		CRCPoly: ice40CRCPoly, TimeoutCycles: v.TimeoutCycles,
		LevelBytes: v.LevelBytes, ScoreBytes: v.ScoreBytes,
	}
}

// addICE40Driver adds the iCEBreaker's host driver (driver/: libhdlgen with
// the serial backend, hdlgen-run, hdlgen.py, the pseudo-terminal simulation)
// to files; uartRTL are the UART top's Verilog files, the stream top's
// included.
func addICE40Driver(files map[string][]byte, m *model.Model, pl *plan.Plan, v ice40View, top string, uartRTL, memFiles []string) error {
	st, err := selfTestData(files, pl)
	if err != nil {
		return err
	}
	b := board.IceBreaker
	df, err := hostdrv.SerialFiles(hostdrv.SerialDesign{Model: m, Plan: pl, Top: top, RTLFiles: uartRTL, MemFiles: memFiles,
		ClockHz: b.ClockHz, Baud: b.Baud, Protocol: ice40Protocol(v), Identity: ice40Identity(pl, files["model.json"]),
		SelfTest: st})
	if err != nil {
		return fmt.Errorf("rtl: the iCEBreaker's driver: %w", err)
	}
	for name, c := range df {
		if err := checkRel(name); err != nil {
			return fmt.Errorf("rtl: the iCEBreaker's driver: %w", err)
		}
		if _, dup := files[name]; dup {
			return fmt.Errorf("rtl: driver file %s collides with a generated file", name)
		}
		files[name] = c
	}
	return nil
}
