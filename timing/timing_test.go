package timing

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/synth"
)

func in(port string, bits ...synth.Bit) synth.Pin {
	return synth.Pin{Port: port, Dir: "input", Bits: bits}
}

func out(port string, bits ...synth.Bit) synth.Pin {
	return synth.Pin{Port: port, Dir: "output", Bits: bits}
}

const clk synth.Bit = 2

func cell(name, typ string, params map[string]string, pins ...synth.Pin) synth.Cell {
	c := synth.Cell{Name: name, Type: typ, Params: map[string]json.RawMessage{}, Pins: pins}
	for k, v := range params {
		c.Params[k] = json.RawMessage(`"` + v + `"`)
	}
	return c
}

// ff is an FDRE clocked by clk with D = d, Q = q.
func ff(name string, d, q synth.Bit) synth.Cell {
	return cell(name, "FDRE", nil, in("C", clk), in("CE", synth.Bit1), in("D", d), in("R", synth.Bit0), out("Q", q))
}

func lut(name string, o synth.Bit, ins ...synth.Bit) synth.Cell {
	pins := []synth.Pin{out("O", o)}
	for i, b := range ins {
		pins = append(pins, in("I"+string(rune('0'+i)), b))
	}
	return cell(name, "LUT"+string(rune('0'+len(ins))), nil, pins...)
}

func carry(name string, ci synth.Bit, s [4]synth.Bit, o, co [4]synth.Bit) synth.Cell {
	return cell(name, "CARRY4", nil, in("CI", ci), in("CYINIT", synth.Bit0),
		in("DI", synth.Bit0, synth.Bit0, synth.Bit0, synth.Bit0), in("S", s[:]...), out("O", o[:]...), out("CO", co[:]...))
}

func analyze(t *testing.T, cells ...synth.Cell) *Report {
	t.Helper()
	r, err := Analyze(&synth.Netlist{Top: "t", Cells: cells, Names: map[synth.Bit]string{}}, &Zynq7Minus1)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestModelNumbers pins the model's derived numbers that the hand-worked
// paths below use (docs/timing.md, "Nets").
func TestModelNumbers(t *testing.T) {
	m := &Zynq7Minus1
	for _, tc := range []struct {
		f, want float64
	}{{1, 0.421}, {2, 0.568}, {5, 0.862}, {8, 0.862}, {9, 1.009}, {218, 1.597}} {
		if got := m.NetDelay(tc.f); !near(got, tc.want) {
			t.Errorf("NetDelay(%g) = %.3f, want %.3f", tc.f, got, tc.want)
		}
	}
}

func TestLUTChain(t *testing.T) {
	// FF a → LUT1 → LUT2 → LUT3 → FF b, every net one load:
	// 0.303 (clock to Q) + 3 × (0.421 net + 0.124 LUT) + 0.109 (LUT into its
	// slice's FF) + 0 (setup of D) = 2.047 ns.
	r := analyze(t,
		ff("a", 20, 10),
		lut("l1", 11, 10),
		lut("l2", 12, 11, synth.Bit1),
		lut("l3", 13, 12, synth.Bit0, synth.Bit1),
		ff("b", 13, 20),
	)
	if !near(r.PeriodNS, 2.047) || r.Levels != 3 || !near(r.FmaxMHz, 1000/2.047) {
		t.Fatalf("period %.3f ns, %d levels, %.1f MHz; want 2.047 ns, 3 levels", r.PeriodNS, r.Levels, r.FmaxMHz)
	}
	got := []string{}
	for _, s := range r.Path {
		got = append(got, s.Cell+" "+s.Arc)
	}
	if d := cmp.Diff([]string{"a clk>Q", "l1 I0>O", "l2 I0>O", "l3 I0>O"}, got); d != "" || !strings.HasPrefix(r.End, "FDRE") {
		t.Errorf("path (-want +got):\n%s\nend %s", d, r.End)
	}
	if r.Endpoints != 2 { // the D pins; CE and R are constants
		t.Errorf("endpoints %d, want 2", r.Endpoints)
	}
}

func TestCarryChain(t *testing.T) {
	// FF a → LUT → CARRY4 c0 (S0 → CO3) → c1 (CI → CO3) → c2 (CI → O3) → FF b:
	// 0.303 + 0.421 + 0.124 + 0 (LUT into its carry) + 0.508 + 0 (chain) +
	// 0.114 + 0 + 0.313 + 0.109 = 1.892 ns.
	z := synth.Bit0
	r := analyze(t,
		ff("a", 40, 10),
		lut("l", 11, 10),
		carry("c0", z, [4]synth.Bit{11, z, z, z}, [4]synth.Bit{50, 51, 52, 53}, [4]synth.Bit{60, 61, 62, 12}),
		carry("c1", 12, [4]synth.Bit{z, z, z, z}, [4]synth.Bit{54, 55, 56, 57}, [4]synth.Bit{63, 64, 65, 13}),
		carry("c2", 13, [4]synth.Bit{z, z, z, z}, [4]synth.Bit{58, 59, 66, 14}, [4]synth.Bit{67, 68, 69, 70}),
		ff("b", 14, 40),
	)
	if !near(r.PeriodNS, 1.892) || r.Levels != 4 {
		t.Fatalf("period %.3f ns, %d levels; want 1.892 ns, 4", r.PeriodNS, r.Levels)
	}
	if r.Path[2].Arc != "S0>CO3" || r.Path[3].Arc != "CI>CO3" || r.Path[4].Arc != "CI>O3" {
		t.Errorf("arcs %+v", r.Path)
	}
}

func TestDSPPath(t *testing.T) {
	// d1 (AREG, MREG, PREG = 0) cascades PCOUT into d2's PCIN (PREG = 0), d2's
	// P feeds FF b: 1.819 (clock to PCOUT through MREG) + 0 (cascade) + 1.107
	// (PCIN → P) + 0.421 (net) + 0 = 3.347 ns. FF a → d1.A (AREG) is an
	// endpoint: 0.303 + 0.421 + 0.254 = 0.978 ns.
	dsp := func(name string, a, pcin, p, pcout synth.Bit) synth.Cell {
		c := cell(name, "DSP48E1", map[string]string{"USE_MULT": "MULTIPLY", "USE_DPORT": "FALSE"},
			in("CLK", clk), in("A", a), in("PCIN", pcin), out("P", p), out("PCOUT", pcout))
		for k, v := range map[string]string{"AREG": "1", "MREG": "1", "PREG": "0", "BREG": "0", "CREG": "0"} {
			c.Params[k] = json.RawMessage(`"` + v + `"`)
		}
		return c
	}
	r := analyze(t,
		ff("a", 40, 10),
		dsp("d1", 10, synth.Bit0, 30, 31),
		dsp("d2", synth.Bit0, 31, 32, 33),
		ff("b", 32, 40),
	)
	if !near(r.PeriodNS, 3.347) || len(r.Path) != 2 || r.Path[0].Arc != "clk>PCOUT" || r.Path[1].Arc != "PCIN>P" {
		t.Fatalf("period %.3f, path %+v; want 3.347 ns through the cascade", r.PeriodNS, r.Path)
	}
	// Only a → d1.A: the DSPs' registered A input is an endpoint.
	r = analyze(t, ff("a", 40, 10), dsp("d1", 10, synth.Bit0, 30, 31), ff("b", 30, 40))
	// d1.P (1.671 through MREG) + 0.421 = 2.092 beats a → A (0.978).
	if !near(r.PeriodNS, 2.092) {
		t.Errorf("period %.3f, want 2.092", r.PeriodNS)
	}
}

func TestFanoutAndControlPins(t *testing.T) {
	// FF a drives five LUTs: NetDelay(5) = 0.862; the LUT l0 also drives the
	// CE of 16 flip-flops: 2 slice control pins, NetDelay(2) = 0.568, + 0.109
	// CE setup. Path a → l0 → CE: 0.303 + 0.862 + 0.124 + 0.568 + 0.109 = 1.966.
	cells := []synth.Cell{ff("a", 40, 10)}
	for i := 0; i < 5; i++ {
		cells = append(cells, lut("l"+string(rune('0'+i)), synth.Bit(11+i), 10))
	}
	for i := 0; i < 16; i++ {
		cells = append(cells, cell("f"+string(rune('a'+i)), "FDRE", nil, in("C", clk), in("CE", 11), in("D", synth.Bit1),
			in("R", synth.Bit0), out("Q", synth.Bit(100+i))))
	}
	r := analyze(t, cells...)
	if !near(r.PeriodNS, 1.966) || r.MaxFanout != 16 {
		t.Errorf("period %.3f, max fanout %d; want 1.966, 16", r.PeriodNS, r.MaxFanout)
	}
}

func TestPathsFromInputsAreLeftOut(t *testing.T) {
	// Top-level input 5 → long LUT chain → FF: not register to register.
	r := analyze(t, lut("l1", 11, 5), lut("l2", 12, 11), ff("b", 12, 20))
	if r.PeriodNS != 0 || r.Path != nil {
		t.Errorf("period %v path %v; want none", r.PeriodNS, r.Path)
	}
}

func TestErrors(t *testing.T) {
	_, err := Analyze(&synth.Netlist{Cells: []synth.Cell{cell("x", "GTPE2_CHANNEL", nil)}}, &Zynq7Minus1)
	if err == nil || !strings.Contains(err.Error(), "GTPE2_CHANNEL") {
		t.Errorf("unknown cell: %v", err)
	}
	_, err = Analyze(&synth.Netlist{Cells: []synth.Cell{lut("a", 10, 11), lut("b", 11, 10), ff("f", 10, 12)},
		Names: map[synth.Bit]string{}}, &Zynq7Minus1)
	if err == nil || !strings.Contains(err.Error(), "loop") {
		t.Errorf("loop: %v", err)
	}
}
