package synth

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// byModuleNetlist is a hand-made flattened netlist: two registers in two
// instances (u_a.r_q, u_b.s_q), a LUT that computes u_b's D input through an
// unnamed net, a LUT whose output reaches both registers, a register whose Q
// is also named by the consumer's input port (u_b.d_i: must not win), a
// CARRY4 driving a top-level output port and a block RAM feeding u_a.
const byModuleNetlist = `{"modules": {"t_top": {
  "ports": {"clk": {"direction": "input", "bits": [2]}, "y": {"direction": "output", "bits": [9]}},
  "cells": {
    "ff_a":   {"type": "FDRE", "port_directions": {"C": "input", "D": "input", "Q": "output"}, "connections": {"C": [2], "D": [5], "Q": [3]}},
    "ff_b":   {"type": "FDRE", "port_directions": {"C": "input", "D": "input", "Q": "output"}, "connections": {"C": [2], "D": [6], "Q": [4]}},
    "lut_b":  {"type": "LUT2", "port_directions": {"I0": "input", "I1": "input", "O": "output"}, "connections": {"I0": [3], "I1": [4], "O": [6]}},
    "lut_ab": {"type": "LUT1", "port_directions": {"I0": "input", "O": "output"}, "connections": {"I0": [3], "O": [7]}},
    "lut_a":  {"type": "LUT2", "port_directions": {"I0": "input", "I1": "input", "O": "output"}, "connections": {"I0": [7], "I1": [8], "O": [5]}},
    "lut_b2": {"type": "LUT1", "port_directions": {"I0": "input", "O": "output"}, "connections": {"I0": [7], "O": [10]}},
    "ff_b2":  {"type": "FDRE", "port_directions": {"C": "input", "D": "input", "Q": "output"}, "connections": {"C": [2], "D": [10], "Q": [11]}},
    "carry":  {"type": "CARRY4", "port_directions": {"S": "input", "O": "output"}, "connections": {"S": [4, 4, 4, 4], "O": [9, 12, 13, 14]}},
    "ram":    {"type": "RAMB18E1", "port_directions": {"CLKARDCLK": "input", "DOADO": "output"}, "connections": {"CLKARDCLK": [2], "DOADO": [8]}},
    "inv":    {"type": "INV", "port_directions": {"I": "input", "O": "output"}, "connections": {"I": [4], "O": [15]}}
  },
  "netnames": {
    "clk":          {"hide_name": 0, "bits": [2]},
    "u_a.r_q":      {"hide_name": 0, "bits": [3]},
    "u_b.d_i":      {"hide_name": 0, "bits": [3]},
    "u_b.g_x[0].s_q": {"hide_name": 0, "bits": [4]},
    "s":            {"hide_name": 0, "bits": [4]},
    "u_a.m_q":      {"hide_name": 0, "bits": [8]},
    "u_b.t_q":      {"hide_name": 0, "bits": [11]},
    "y":            {"hide_name": 0, "bits": [9]},
    "$abc$1":       {"hide_name": 1, "bits": [6, 7]}
  }
}}}`

func TestByModule(t *testing.T) {
	nl, err := ParseNetlist(strings.NewReader(byModuleNetlist), "t_top")
	if err != nil {
		t.Fatal(err)
	}
	want := []ModuleShare{
		// The carry drives the top-level port y (its other outputs reach nothing).
		{Scope: TopScope, CARRY4: 1},
		// ff_a (r_q beats the consumer's port name u_b.d_i); lut_a (its unnamed
		// output is ff_a's D); half of lut_ab; the block RAM (m_q names its output).
		{Scope: "u_a", FF: 1, LUTCells: 1.5, BRAM36: 0.5},
		// ff_b (s_q inside generate block g_x folds into u_b), lut_b, half of
		// lut_ab, lut_b2 and ff_b2 (t_q). The INV is not counted.
		{Scope: "u_b", FF: 2, LUTCells: 2.5},
	}
	if diff := cmp.Diff(want, nl.ByModule()); diff != "" {
		t.Errorf("ByModule (-want +got):\n%s", diff)
	}
}

func TestNameRank(t *testing.T) {
	tests := []struct {
		better, worse string
	}{
		{"u_issue.data_q", "issue_data"},                     // the register beats the top-level wire
		{"u_issue.data_q", "u_core.u_stage_a.data_i"},        // and the consumer's input port
		{"u_issue.data_q", "u_core.u_stage_a.g_s[0].data_d"}, // and the consumer's internal wire
		{"u_core.u_mac.acc_o", "res_scores"},                 // an output port beats the top's wire
		{"u_core.u_mac.sum", "u_core.sum"},                   // deeper wins among plain wires
		{"scores", "u_core.x_ni"},                            // an input port loses to anything
	}
	for _, tt := range tests {
		if b, w := nameRank(tt.better), nameRank(tt.worse); b <= w {
			t.Errorf("nameRank(%q) = %d, want > nameRank(%q) = %d", tt.better, b, tt.worse, w)
		}
	}
}

func TestScopeOf(t *testing.T) {
	tests := map[string]string{
		"clk_i":                                   TopScope,
		"u_issue.data_q[3]":                       "u_issue",
		"u_core.u_hidden.g_lane[3].u_tree.sum_q":  "u_core.u_hidden.u_tree",
		"u_core.u_argmax.g_level[1].g_cut.best_q": "u_core.u_argmax",
	}
	for name, want := range tests {
		if got := scopeOf(name); got != want {
			t.Errorf("scopeOf(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestWriteByModule(t *testing.T) {
	var b strings.Builder
	if err := WriteByModule(&b, []ModuleShare{{Scope: "u_a", LUTCells: 1.5, FF: 2}, {Scope: "u_b", LUTCells: 0.5, BRAM36: 0.5}}); err != nil {
		t.Fatal(err)
	}
	want := "| u_a | 1.5 | 2 | 0 | 0 | 0 | 0 | 0 |\n| u_b | 0.5 | 0 | 0 | 0 | 0 | 0 | 0.5 |\n| total | 2 | 2 | 0 | 0 | 0 | 0 | 0.5 |\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("WriteByModule:\n%s\nwant suffix\n%s", b.String(), want)
	}
}
