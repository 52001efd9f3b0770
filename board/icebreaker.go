package board

// The iCEBreaker (1BitSquared, v1.0): a Lattice iCE40 UltraPlus UP5K in the
// SG48 package, a 12 MHz oscillator and an FTDI FT2232H whose second channel
// is a UART to the FPGA. hdlgen's second target: the same core as the
// ZedBoard's, behind a UART system top (docs/ice40.md). Untested on the board.

// Board names, as `hdlgen emit --board` takes them; the first is the default.
const (
	NameZedBoard   = "zedboard"
	NameIceBreaker = "icebreaker"
)

// Names lists the boards emit targets, the default first.
var Names = []string{NameZedBoard, NameIceBreaker}

// ICE40Device is an iCE40's resource capacity (Lattice iCE40 UltraPlus family
// data sheet FPGA-DS-02008, table 1.1).
type ICE40Device struct {
	Part    string // the nextpnr-ice40 device option, without its dashes
	Package string // the nextpnr-ice40 --package value
	LUT4s   int    // logic cells: one LUT4 and one flip-flop each
	EBRs    int    // 4-kbit embedded block RAMs (SB_RAM40_4K)
	DSPs    int    // SB_MAC16 16×16 multiply-accumulate blocks
	SPRAMs  int    // 256-kbit single-port RAMs (SB_SPRAM256KA)
	IOs     int    // user IOs of the package
}

// UP5K is the iCEBreaker's device, iCE40UP5K-SG48.
var UP5K = ICE40Device{Part: "up5k", Package: "sg48", LUT4s: 5280, EBRs: 30, DSPs: 8, SPRAMs: 4, IOs: 39}

// ICE40Board is an iCE40 board: its device, clock and the pins of its UART
// system top (package pin numbers of the device's package).
type ICE40Board struct {
	Name    string
	Device  ICE40Device
	ClockHz float64
	// ClockPin is the oscillator's pin; RXPin and TXPin the FPGA's UART
	// receive and transmit pins (the FTDI's channel B); ButtonPin the user
	// button (active low) that resets the design.
	ClockPin, RXPin, TXPin, ButtonPin string
	// Baud is the UART's rate; the clock is a whole multiple of it.
	Baud int
}

// ClockPeriodNS is the clock period in ns.
func (b ICE40Board) ClockPeriodNS() float64 { return 1e9 / b.ClockHz }

// Divider is the clocks per UART bit.
func (b ICE40Board) Divider() int { return int(b.ClockHz) / b.Baud }

// IceBreaker is the iCEBreaker v1.0 (its schematic and the pin file of the
// board's examples, icebreaker.pcf): CLK on 35, RX on 6, TX on 9, BTN_N on 10.
// The UART runs at 1,000,000 baud: 12 clocks per bit exactly, and a rate the
// FT2232H makes exactly (3 MHz / 3).
var IceBreaker = ICE40Board{
	Name:      "iCEBreaker",
	Device:    UP5K,
	ClockHz:   12e6,
	ClockPin:  "35",
	RXPin:     "6",
	TXPin:     "9",
	ButtonPin: "10",
	Baud:      1_000_000,
}
