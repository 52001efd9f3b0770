package timing

import (
	"math"
	"strconv"
	"strings"

	"github.com/hdlgen/hdlgen/synth"
)

// Model is a delay model of the 7-series fabric: cell delays, setup times and
// a net-delay rule by fanout, all in nanoseconds. docs/timing.md states the
// source of every number; Zynq7Minus1 is the model of the target.
type Model struct {
	Name string `json:"name"`

	// LUT is the delay from any input of a LUT1…LUT6 to its output
	// (T_ILO; the inputs of a LUT6 differ by less than a picosecond).
	LUT float64 `json:"lut"`
	// MUXF7Data, MUXF7Sel, MUXF8Data and MUXF8Sel are the wide-function
	// multiplexers' data-input and select-input delays.
	MUXF7Data float64 `json:"muxf7_data"`
	MUXF7Sel  float64 `json:"muxf7_sel"`
	MUXF8Data float64 `json:"muxf8_data"`
	MUXF8Sel  float64 `json:"muxf8_sel"`
	// Carry4 holds the CARRY4 arcs, "S0>CO3" → delay (inputs S0…S3, DI0…DI3,
	// CI, CYINIT; outputs O0…O3, CO0…CO3).
	Carry4 map[string]float64 `json:"carry4"`

	// FFClockToQ is a slice flip-flop's clock-to-output (T_CKO); FFSetupD,
	// FFSetupCE and FFSetupSR its setup times on D, CE and the synchronous
	// set/reset (also used for the asynchronous CLR/PRE recovery).
	FFClockToQ float64 `json:"ff_clock_to_q"`
	FFSetupD   float64 `json:"ff_setup_d"`
	FFSetupCE  float64 `json:"ff_setup_ce"`
	FFSetupSR  float64 `json:"ff_setup_sr"`

	// SRLClockToQ, SRLSetupD and SRLSetupCE are a shift-register LUT's
	// (SRL16E, SRLC32E) clock-to-output and setup times; its address inputs
	// read like a LUT (LUT).
	SRLClockToQ float64 `json:"srl_clock_to_q"`
	SRLSetupD   float64 `json:"srl_setup_d"`
	SRLSetupCE  float64 `json:"srl_setup_ce"`

	// Block RAM (RAMB18E1, RAMB36E1): clock-to-output without and with the
	// output register (DO_REG = 1), and setup times.
	BRAMClockToQ      float64 `json:"bram_clock_to_q"`
	BRAMClockToQReg   float64 `json:"bram_clock_to_q_reg"`
	BRAMSetupAddr     float64 `json:"bram_setup_addr"`
	BRAMSetupEnable   float64 `json:"bram_setup_enable"`
	BRAMSetupWrite    float64 `json:"bram_setup_write"`
	BRAMSetupData     float64 `json:"bram_setup_data"`
	BRAMSetupRegCE    float64 `json:"bram_setup_regce"`
	BRAMSetupRegReset float64 `json:"bram_setup_regreset"`
	BRAMSetupRAMReset float64 `json:"bram_setup_ramreset"`

	// DSPControlSetup is the setup time of a DSP48E1's clock enables, resets
	// and mode inputs; the data ports follow dspTiming.
	DSPControlSetup float64 `json:"dsp_control_setup"`

	// Nets: a routed net from a cell output to its farthest load costs
	// NetOut + NetIn + NetSegment·(1 + ⌈log2 f⌉) for f effective loads
	// (NetDelay). NetPackedFF is the in-slice route from a LUT or CARRY4
	// output to the flip-flop beside it (a fanout-1 net into D).
	NetOut      float64 `json:"net_out"`
	NetIn       float64 `json:"net_in"`
	NetSegment  float64 `json:"net_segment"`
	NetPackedFF float64 `json:"net_packed_ff"`
	// ControlPerSlice is how many flip-flops share one slice control pin
	// (CE, SR): a control net with n flip-flop loads has n/ControlPerSlice
	// effective loads.
	ControlPerSlice int `json:"control_per_slice"`
}

// Zynq7Minus1 is the delay model of the xc7z020-1 (speed grade −1, slow
// corner maximum): slice, block-RAM and routing delays from Project X-Ray's
// timing database of the Zynq-7000 (prjxray-db zynq7/timings/*.sdf and
// zynq7/tile_type_INT_L.json, extracted from Vivado for the xc7z010clg400-1,
// the same fabric and speed grade), the DSP48E1 arcs from Yosys 0.23's
// techlibs/xilinx/cells_sim.v (the same database, Artix-7 −1). docs/timing.md
// lists each number with its file and line.
var Zynq7Minus1 = Model{
	Name:      "xc7z020-1 (prjxray-db zynq7 slow corner; fanout net model)",
	LUT:       0.124,
	MUXF7Data: 0.223, MUXF7Sel: 0.296,
	MUXF8Data: 0.104, MUXF8Sel: 0.273,
	Carry4: map[string]float64{
		"S0>O0": 0.223, "S0>O1": 0.400, "S0>O2": 0.523, "S0>O3": 0.582,
		"S0>CO0": 0.340, "S0>CO1": 0.433, "S0>CO2": 0.512, "S0>CO3": 0.508,
		"S1>O1": 0.205, "S1>O2": 0.558, "S1>O3": 0.618,
		"S1>CO1": 0.469, "S1>CO2": 0.548, "S1>CO3": 0.528,
		"S2>O2": 0.226, "S2>O3": 0.330, "S2>CO2": 0.292, "S2>CO3": 0.376,
		"S3>O3": 0.227, "S3>CO3": 0.380,
		"DI0>O1": 0.407, "DI0>O2": 0.556, "DI0>O3": 0.615,
		"DI0>CO0": 0.379, "DI0>CO1": 0.465, "DI0>CO2": 0.540, "DI0>CO3": 0.526,
		"DI1>O2": 0.537, "DI1>O3": 0.596, "DI1>CO1": 0.445, "DI1>CO2": 0.520, "DI1>CO3": 0.507,
		"DI2>O3": 0.438, "DI2>CO2": 0.356, "DI2>CO3": 0.398,
		"DI3>CO3": 0.385,
		"CI>O0":   0.222, "CI>O1": 0.334, "CI>O2": 0.239, "CI>O3": 0.313,
		"CI>CO0": 0.271, "CI>CO1": 0.157, "CI>CO2": 0.228, "CI>CO3": 0.114,
		"CYINIT>O0": 0.482, "CYINIT>O1": 0.598, "CYINIT>O2": 0.584, "CYINIT>O3": 0.642,
		"CYINIT>CO0": 0.536, "CYINIT>CO1": 0.494, "CYINIT>CO2": 0.592, "CYINIT>CO3": 0.580,
	},
	FFClockToQ: 0.303, FFSetupD: 0, FFSetupCE: 0.109, FFSetupSR: 0.404,
	SRLClockToQ: 1.472, SRLSetupD: 0.173, SRLSetupCE: 0.638,
	BRAMClockToQ: 2.454, BRAMClockToQReg: 0.882,
	BRAMSetupAddr: 0.566, BRAMSetupEnable: 0.466, BRAMSetupWrite: 0.532, BRAMSetupData: 0.737,
	BRAMSetupRegCE: 0.360, BRAMSetupRegReset: 0.342, BRAMSetupRAMReset: 0.359,
	DSPControlSetup: 0.686,
	NetOut:          0.136, NetIn: 0.138, NetSegment: 0.147, NetPackedFF: 0.109,
	ControlPerSlice: 8,
}

// NetDelay is the routed delay of a net with f effective loads (f ≥ 1):
// leaving the source tile, NetSegment per routing segment, entering the load
// tile. One segment reaches a neighbouring tile; every doubling of the loads
// adds one level to the routing tree.
func (m *Model) NetDelay(f float64) float64 {
	if f <= 1 {
		return m.NetOut + m.NetIn + m.NetSegment
	}
	return m.NetOut + m.NetIn + m.NetSegment*(1+math.Ceil(math.Log2(f)))
}

// cellTiming describes one cell for the graph: for each input pin bit either
// its setup time (endpoint) or its arcs; for each output bit its launch
// delay (if sequential) and whether comb arcs reach it.
type cellTiming struct {
	setup  map[string]float64            // pinbit → setup (endpoint inputs)
	arcs   map[string]map[string]float64 // input pinbit → output pinbit → delay
	launch map[string]float64            // output pinbit → clock-to-output
	clocks map[string]bool               // clock pins (pin name)
}

// pinBit names bit i of a pin as "P" (1-bit pins) or "P3".
func pinBit(port string, i, width int) string {
	if width == 1 {
		return port
	}
	return port + strconv.Itoa(i)
}

// isControlPin reports whether an FF or SRL pin is a slice control pin
// (shared by the slice's flip-flops).
func isControlPin(cellType, port string) bool {
	if strings.HasPrefix(cellType, "FD") {
		switch port {
		case "CE", "R", "S", "CLR", "PRE":
			return true
		}
	}
	if strings.HasPrefix(cellType, "SRL") && port == "CE" {
		return true
	}
	return false
}

// timingOf returns the timing of cell c under model m, or an error naming a
// cell type the model does not know.
func (m *Model) timingOf(c *synth.Cell) (*cellTiming, error) {
	t := &cellTiming{setup: map[string]float64{}, arcs: map[string]map[string]float64{},
		launch: map[string]float64{}, clocks: map[string]bool{}}
	arc := func(in, out string, d float64) {
		if t.arcs[in] == nil {
			t.arcs[in] = map[string]float64{}
		}
		t.arcs[in][out] = d
	}
	typ := c.Type
	switch {
	case strings.HasPrefix(typ, "LUT") && len(typ) == 4:
		for _, p := range c.Pins {
			if p.Dir == "input" {
				arc(p.Port, "O", m.LUT)
			}
		}
	case typ == "INV":
		arc("I", "O", 0) // folded into the next LUT by Vivado
	case typ == "BUF":
		arc("I", "O", 0)
	case typ == "GND" || typ == "VCC":
	case typ == "MUXF7" || typ == "MUXF8":
		data, sel := m.MUXF7Data, m.MUXF7Sel
		if typ == "MUXF8" {
			data, sel = m.MUXF8Data, m.MUXF8Sel
		}
		arc("I0", "O", data)
		arc("I1", "O", data)
		arc("S", "O", sel)
	case typ == "CARRY4":
		for k, d := range m.Carry4 {
			in, out, _ := strings.Cut(k, ">")
			arc(in, out, d)
		}
	case strings.HasPrefix(typ, "FD"):
		t.clocks["C"] = true
		t.launch["Q"] = m.FFClockToQ
		t.setup["D"] = m.FFSetupD
		t.setup["CE"] = m.FFSetupCE
		for _, p := range []string{"R", "S", "CLR", "PRE"} {
			t.setup[p] = m.FFSetupSR
		}
	case typ == "SRL16E" || typ == "SRLC16E" || typ == "SRLC32E":
		t.clocks["CLK"] = true
		t.launch["Q"] = m.SRLClockToQ
		t.launch["Q15"] = m.SRLClockToQ
		t.launch["Q31"] = m.SRLClockToQ
		t.setup["D"] = m.SRLSetupD
		t.setup["CE"] = m.SRLSetupCE
		for _, p := range c.Pins {
			if p.Dir == "input" && strings.HasPrefix(p.Port, "A") {
				for i := range p.Bits {
					arc(pinBit(p.Port, i, len(p.Bits)), "Q", m.LUT)
				}
			}
		}
	case typ == "RAMB18E1" || typ == "RAMB36E1":
		m.bramTiming(c, t)
	case typ == "DSP48E1":
		m.dspTiming(c, t)
	default:
		return nil, unknownCellError(typ)
	}
	return t, nil
}

type unknownCellError string

func (e unknownCellError) Error() string {
	return "timing: no delay model for cell type " + string(e)
}

// bramSetup is the setup time of a block RAM input port.
func (m *Model) bramSetup(port string) float64 {
	for _, s := range []struct {
		prefix string
		setup  float64
	}{
		{"ADDR", m.BRAMSetupAddr},
		{"EN", m.BRAMSetupEnable},
		{"WE", m.BRAMSetupWrite},
		{"REGCE", m.BRAMSetupRegCE},
		{"RSTREG", m.BRAMSetupRegReset},
		{"RSTRAM", m.BRAMSetupRAMReset},
	} {
		if strings.HasPrefix(port, s.prefix) {
			return s.setup
		}
	}
	return m.BRAMSetupData // DI, DIP, cascade and error-injection inputs
}

func (m *Model) bramTiming(c *synth.Cell, t *cellTiming) {
	regA, regB := c.Param("DOA_REG") != 0, c.Param("DOB_REG") != 0
	if c.ParamString("RAM_MODE") == "SDP" { // the read port is A for both halves
		regB = regA
	}
	for _, p := range c.Pins {
		port := p.Port
		width := len(p.Bits)
		for i := range p.Bits {
			pb := pinBit(port, i, width)
			switch {
			case strings.HasPrefix(port, "CLK") || strings.HasPrefix(port, "REGCLK"):
				t.clocks[port] = true
			case p.Dir == "output":
				reg := regA
				if strings.HasPrefix(port, "DOB") || strings.HasPrefix(port, "DOPB") {
					reg = regB
				}
				t.launch[pb] = m.BRAMClockToQ
				if reg {
					t.launch[pb] = m.BRAMClockToQReg
				}
			default:
				t.setup[pb] = m.bramSetup(port)
			}
		}
	}
}
