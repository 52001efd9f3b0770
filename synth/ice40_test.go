package synth

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
)

// ice40Cell is one cell of a hand-made iCE40 netlist: its type and its
// pins, each an input ("<") or output (">") on one net.
type ice40Cell struct {
	name, typ string
	pins      map[string]string // port → "<N" or ">N"
}

// ice40Netlist writes cells as a Yosys JSON netlist of module "top".
func ice40Netlist(t *testing.T, cells []ice40Cell) *Netlist {
	t.Helper()
	type jc struct {
		Type        string            `json:"type"`
		Parameters  map[string]any    `json:"parameters"`
		PortDirs    map[string]string `json:"port_directions"`
		Connections map[string][]int  `json:"connections"`
	}
	mod := map[string]jc{}
	for _, c := range cells {
		j := jc{Type: c.typ, Parameters: map[string]any{}, PortDirs: map[string]string{}, Connections: map[string][]int{}}
		for port, conn := range c.pins {
			dir := map[byte]string{'<': "input", '>': "output"}[conn[0]]
			var n int
			if err := json.Unmarshal([]byte(conn[1:]), &n); err != nil {
				t.Fatal(err)
			}
			j.PortDirs[port], j.Connections[port] = dir, []int{n}
		}
		mod[c.name] = j
	}
	b, err := json.Marshal(map[string]any{"modules": map[string]any{"top": map[string]any{
		"attributes": map[string]string{"top": "00000000000000000000000000000001"}, "ports": map[string]any{}, "cells": mod}}})
	if err != nil {
		t.Fatal(err)
	}
	top, nl, err := parseTopNetlist(strings.NewReader(string(b)))
	if err != nil || top != "top" {
		t.Fatalf("parse: %q, %v", top, err)
	}
	return nl
}

// TestEstimateICE40: the iCE40 estimate's path delays and packing on
// netlists small enough to add up by hand (UP5K's delays: LUT4 I0 1.285 ns,
// I3 0.874, carry I0 0.675, CI 0.278, clock-to-Q 1.391, a net 1.33, a carry
// into the next CI 0, into a LUT's I3 0.5).
func TestEstimateICE40(t *testing.T) {
	ff := func(name, d, q string) ice40Cell {
		return ice40Cell{name, "SB_DFF", map[string]string{"C": "<2", "D": "<" + d, "Q": ">" + q}}
	}
	for _, c := range []struct {
		name    string
		cells   []ice40Cell
		pathNS  float64
		lcs     int
		wantErr string
	}{
		{"FF, LUT, FF", []ice40Cell{
			ff("a", "3", "4"),
			{"l", "SB_LUT4", map[string]string{"I0": "<4", "I1": "<3", "I2": "<3", "I3": "<3", "O": ">5"}},
			ff("b", "5", "6"),
		}, 1.391 + 1.33 + 1.285 + 1.33, 2, ""}, // a's D is a port's: its own cell; b packs with l
		{"a carry chain into a LUT's I3", []ice40Cell{
			ff("a", "3", "4"),
			{"c1", "SB_CARRY", map[string]string{"I0": "<4", "I1": "<3", "CI": "<3", "CO": ">7"}},
			{"c2", "SB_CARRY", map[string]string{"I0": "<3", "I1": "<3", "CI": "<7", "CO": ">8"}},
			{"l", "SB_LUT4", map[string]string{"I0": "<3", "I1": "<3", "I2": "<3", "I3": "<8", "O": ">5"}},
			ff("b", "5", "6"),
			ff("b2", "5", "9"), // l drives two flip-flops: neither packs
		}, 1.391 + 1.33 + 0.675 + 0 + 0.278 + 0.5 + 0.874 + (1.33 + 0.49), 1 + 3 + 1, ""}, // 1 LUT4, 3 unpacked flip-flops, c1 (c2 pairs with l: I1, I2 = 3, 3)
		{"a DSP", []ice40Cell{{"m", "SB_MAC16", map[string]string{"CLK": "<2"}}}, 0, 0, "SB_MAC16"},
		{"an unknown cell", []ice40Cell{{"x", "SB_PLL40_CORE", map[string]string{"REFERENCECLK": "<2"}}}, 0, 0, "not in hdlgen's iCE40 model"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := EstimateICE40(ice40Netlist(t, c.cells), &UP5K)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want one with %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(e.PathNS-c.pathNS) > 1e-9 || e.LogicCells != c.lcs {
				t.Errorf("path %.4f ns, %d logic cells; want %.4f ns, %d (path %v)", e.PathNS, e.LogicCells, c.pathNS, c.lcs, e.Path)
			}
		})
	}
}

// TestParseNextpnrReport reads the iris design's routed report in
// results/ice40 (nextpnr-ice40 0.4).
func TestParseNextpnrReport(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "results", "ice40", "iris", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := parseNextpnrReport(b)
	if err != nil {
		t.Fatal(err)
	}
	want := ICE40Routed{LogicCells: 824, LogicCellsAvail: 5280, RAM: 2, RAMAvail: 30, DSP: 0, DSPAvail: 8, FmaxMHz: 33.06, ConstraintMHz: 12}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 0.005)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := parseNextpnrReport([]byte(`{"fmax": {}}`)); err == nil {
		t.Error("a report without utilisation: no error")
	}
	if _, err := ReadICE40(t.TempDir()); !errors.Is(err, ErrNoRoute) {
		t.Errorf("a design without a route: %v, want ErrNoRoute", err)
	}
}

// TestICE40EstimateAgainstRoute: a tiny design placed and routed for the
// iCEBreaker (make bitstream); hdlgen's estimate of its netlist agrees with
// nextpnr's routed figures as docs/timing.md states: the same EBR and DSP
// counts, logic cells within 5 %, Fmax within −20 % … +25 % of the routed
// (measured: iris +12.3 %, median +13.7 %, this design −14.1 %: its worst
// estimated path crosses the reset net, which nextpnr puts on a global buffer).
func TestICE40EstimateAgainstRoute(t *testing.T) {
	hwtest.Require(t, hwtest.ICE40, hwtest.Make)
	d := model.Data{Name: "tiny", ClassNames: []string{"a", "b"}}
	for r := 0; r < 40; r++ {
		y := r % 2
		d.Y = append(d.Y, y)
		d.X = append(d.X, float64(y)+0.1*float64(r%5), float64(1-y)+0.05*float64(r%3), float64(r%7))
	}
	m, err := model.Train(context.Background(), d, model.Config{Arch: model.IntRVFL, N: 16, Kappa: 2, Lambda: 1, ReadoutBits: 4})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "tiny")
	if _, err := rtl.Emit(context.Background(), m, rtl.Options{Vectors: 4, Board: board.NameIceBreaker}, dir); err != nil {
		t.Fatal(err)
	}
	if !HasICE40(dir) {
		t.Fatal("an --board icebreaker design without the iCE40 flow")
	}
	if _, err := ReadICE40(dir); !errors.Is(err, ErrNoRoute) {
		t.Fatalf("before the route: %v, want ErrNoRoute", err)
	}
	if err := RouteICE40(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	r, err := ReadICE40(dir)
	if err != nil {
		t.Fatal(err)
	}
	e, ro := r.Estimate, r.Routed
	t.Logf("logic cells %d / %d, EBR %d / %d, Fmax %.2f / %.2f MHz", e.LogicCells, ro.LogicCells, e.RAM, ro.RAM, e.FmaxMHz, ro.FmaxMHz)
	if e.RAM != ro.RAM || e.DSP != ro.DSP {
		t.Errorf("EBR %d, DSP %d estimated; routed %d, %d", e.RAM, e.DSP, ro.RAM, ro.DSP)
	}
	if math.Abs(float64(e.LogicCells-ro.LogicCells)) > 0.05*float64(ro.LogicCells) {
		t.Errorf("%d logic cells estimated, %d routed: more than 5 %% apart", e.LogicCells, ro.LogicCells)
	}
	if q := e.FmaxMHz / ro.FmaxMHz; q > 1.25 || q < 0.8 {
		t.Errorf("Fmax %.2f MHz estimated, %.2f routed: ratio %.3f outside [0.8, 1.25]", e.FmaxMHz, ro.FmaxMHz, q)
	}
}
