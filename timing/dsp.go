package timing

import (
	"strings"

	"github.com/hdlgen/hdlgen/synth"
)

// The DSP48E1's data-port timing depends on which of its pipeline registers
// are used. These are the arcs of Yosys 0.23's techlibs/xilinx/cells_sim.v
// (module DSP48E1, functions A.required … D.PCOUT.comb and the PCIN arcs),
// which take them from Project X-Ray's Artix-7 −1 database (DSP_L.sdf),
// converted from picoseconds. USE_PATTERN_DETECT is assumed off (hdlgen's
// RTL never infers the pattern detector).
type dspConfig struct {
	areg, breg, creg, dreg, adreg, mreg, preg bool
	mult                                      bool // USE_MULT = MULTIPLY (or DYNAMIC)
	dport                                     bool // USE_DPORT = TRUE
}

func dspConfigOf(c *synth.Cell) dspConfig {
	mult := c.ParamString("USE_MULT")
	return dspConfig{
		areg: c.Param("AREG") != 0, breg: c.Param("BREG") != 0, creg: c.Param("CREG") != 0,
		dreg: c.Param("DREG") != 0, adreg: c.Param("ADREG") != 0, mreg: c.Param("MREG") != 0,
		preg: c.Param("PREG") != 0,
		mult: mult == "" || mult == "MULTIPLY" || mult == "DYNAMIC", dport: c.ParamString("USE_DPORT") == "TRUE",
	}
}

const ps = 1e-3 // nanoseconds per picosecond

// required is the setup time of data port A, B, C or D when it is
// registered somewhere inside the DSP (ok false: the port reaches P
// combinationally).
func (k dspConfig) required(port string) (float64, bool) {
	switch port {
	case "A", "ACIN":
		switch {
		case k.areg:
			return 254 * ps, true
		case k.mult && !k.dport && k.mreg:
			return 1416 * ps, true
		case k.mult && !k.dport && k.preg:
			return 2739 * ps, true
		case k.mult && k.dport && k.mreg:
			return 2400 * ps, true
		case k.mult && k.dport && k.adreg:
			return 1283 * ps, true
		case k.mult && k.dport && k.preg:
			return 3723 * ps, true
		case !k.mult && k.preg:
			return 1441 * ps, true
		}
	case "B", "BCIN":
		switch {
		case k.breg:
			return 324 * ps, true
		case k.mreg:
			return 1285 * ps, true
		case k.mult && k.preg:
			return 2608 * ps, true
		case !k.mult && k.preg:
			return 1428 * ps, true
		}
	case "C":
		switch {
		case k.creg:
			return 168 * ps, true
		case k.preg:
			return 1244 * ps, true
		}
	case "D":
		switch {
		case !k.dport:
			return 0, false
		case k.dreg:
			return 248 * ps, true
		case k.adreg:
			return 1195 * ps, true
		case k.mreg:
			return 2310 * ps, true
		case k.preg:
			return 3635 * ps, true
		}
	case "PCIN":
		if k.preg {
			return 1025 * ps, true
		}
	}
	return 0, false
}

// comb is the combinational delay from data port A, B, C, D or PCIN to P
// (toPCOUT: to PCOUT) when the port is not registered.
func (k dspConfig) comb(port string, toPCOUT bool) float64 {
	pick := func(p, pc float64) float64 {
		if toPCOUT {
			return pc * ps
		}
		return p * ps
	}
	switch port {
	case "A", "ACIN":
		switch {
		case k.mult && k.dport:
			return pick(3806, 3954)
		case k.mult:
			return pick(2823, 2970)
		default:
			return pick(1523, 1671)
		}
	case "B", "BCIN":
		if k.mult {
			return pick(2690, 2838)
		}
		return pick(1509, 1658)
	case "C":
		return pick(1325, 1474)
	case "D":
		return pick(3717, 3700)
	case "PCIN":
		return pick(1107, 1255)
	}
	return 0
}

// arrival is the clock-to-output time of P (toPCOUT: PCOUT) through the
// internal registers, or ok false when no register drives it.
func (k dspConfig) arrival(toPCOUT bool) (float64, bool) {
	pick := func(p, pc float64) (float64, bool) {
		if toPCOUT {
			return pc * ps, true
		}
		return p * ps, true
	}
	switch {
	case k.preg:
		return pick(329, 435)
	case k.creg:
		return pick(1687, 1835)
	case k.mreg:
		return pick(1671, 1819)
	case k.mult && k.dport && k.areg:
		return pick(3935, 4083)
	case k.mult && k.dport && k.dreg:
		return pick(3908, 4056)
	case k.mult && k.dport && k.adreg:
		return pick(2958, 2859)
	case k.mult && k.areg:
		return pick(2952, 3098)
	case k.mult && k.breg:
		return pick(2813, 2960)
	case !k.mult && k.areg:
		return pick(1632, 1780)
	case !k.mult && k.breg:
		return pick(1616, 1765)
	}
	return 0, false
}

func (m *Model) dspTiming(c *synth.Cell, t *cellTiming) {
	k := dspConfigOf(c)
	t.clocks["CLK"] = true
	outs := map[string]bool{} // output pin bits of P and PCOUT
	for _, p := range c.Pins {
		if p.Dir != "output" {
			continue
		}
		for i := range p.Bits {
			pb := pinBit(p.Port, i, len(p.Bits))
			switch p.Port {
			case "P", "PCOUT":
				outs[pb] = p.Port == "PCOUT"
				if a, ok := k.arrival(p.Port == "PCOUT"); ok {
					t.launch[pb] = a
				}
			default: // ACOUT, BCOUT, CARRYOUT, …: launched like P
				a, _ := k.arrival(false)
				t.launch[pb] = max(a, 329*ps)
			}
		}
	}
	for _, p := range c.Pins {
		if p.Dir != "input" || p.Port == "CLK" {
			continue
		}
		port := p.Port
		for i := range p.Bits {
			pb := pinBit(port, i, len(p.Bits))
			switch port {
			case "A", "B", "C", "D", "PCIN", "ACIN", "BCIN":
				if req, ok := k.required(port); ok {
					t.setup[pb] = req
					continue
				}
				if port == "D" && !k.dport {
					continue // unused
				}
				for out, toPC := range outs {
					if t.arcs[pb] == nil {
						t.arcs[pb] = map[string]float64{}
					}
					t.arcs[pb][out] = k.comb(port, toPC)
				}
			default:
				if strings.HasPrefix(port, "CE") || strings.HasPrefix(port, "RST") || k.preg || k.mreg {
					t.setup[pb] = m.DSPControlSetup
					continue
				}
				// Unregistered mode or carry inputs reach P like C does.
				for out, toPC := range outs {
					if t.arcs[pb] == nil {
						t.arcs[pb] = map[string]float64{}
					}
					t.arcs[pb][out] = k.comb("C", toPC)
				}
			}
		}
	}
}
