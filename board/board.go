package board

import (
	"fmt"
	"strings"
)

// Device is an FPGA's resource capacity.
type Device struct {
	Part   string
	LUTs   int // slice LUTs
	FFs    int
	DSPs   int // DSP48E1
	BRAM36 int // RAMB36 tiles (each splits into two RAMB18)
	LUTRAM int // LUTs usable as memory (SLICEM)
}

// Fits reports whether resources fit the device, and if not, which do not.
func (dev Device) Fits(luts, ffs, dsps int, bram36 float64) (bool, string) {
	var over []string
	if luts > dev.LUTs {
		over = append(over, fmt.Sprintf("LUTs %d > %d", luts, dev.LUTs))
	}
	if ffs > dev.FFs {
		over = append(over, fmt.Sprintf("FFs %d > %d", ffs, dev.FFs))
	}
	if dsps > dev.DSPs {
		over = append(over, fmt.Sprintf("DSP48E1 %d > %d", dsps, dev.DSPs))
	}
	if bram36 > float64(dev.BRAM36) {
		over = append(over, fmt.Sprintf("BRAM36 %.1f > %d", bram36, dev.BRAM36))
	}
	return len(over) == 0, strings.Join(over, ", ")
}

// Board is a target board: its device, the PL clock and the pins the
// constraints tie the design to.
type Board struct {
	Name   string
	Device Device
	// ClockHz is the PL clock, taken straight from the oscillator pin (an
	// MMCM alone would cost about 0.11 W).
	ClockHz float64
	// ClockPin and ClockIOStandard are the oscillator's package pin and bank standard.
	ClockPin, ClockIOStandard string
	// ResetPin is the push button the board constraints use as reset.
	ResetPin string
}

// ClockPeriodNS is the clock period in ns.
func (b Board) ClockPeriodNS() float64 { return 1e9 / b.ClockHz }

// XC7Z020 is the ZedBoard's device (Zynq-7000 data sheet DS190, table 1).
var XC7Z020 = Device{Part: Part, LUTs: 53200, FFs: 106400, DSPs: 220, BRAM36: 140, LUTRAM: 17400}

// ZedBoard is hdlgen's target (Avnet ZedBoard master XDC): GCLK, the 100 MHz
// oscillator on Y9 in bank 13 (fixed 3.3 V, LVCMOS33); BTNC on P16 (bank 34).
var ZedBoard = Board{
	Name:            "ZedBoard",
	Device:          XC7Z020,
	ClockHz:         ClockHz,
	ClockPin:        ClockPin,
	ClockIOStandard: ClockIOStandard,
	ResetPin:        ResetPin,
}

// The target's facts as constants, for code that needs them at compile time.
const (
	// Part is the ZedBoard's FPGA part.
	Part = "xc7z020clg484-1"
	// ClockHz is the ZedBoard's PL clock.
	ClockHz = 100e6
	// ClockPeriodNS is its period.
	ClockPeriodNS = 1e9 / ClockHz
	// ClockPin is the 100 MHz oscillator's pin (GCLK, bank 13).
	ClockPin = "Y9"
	// ClockIOStandard is bank 13's fixed 3.3 V standard.
	ClockIOStandard = "LVCMOS33"
	// ResetPin is push button BTNC (bank 34, VADJ).
	ResetPin = "P16"
)
