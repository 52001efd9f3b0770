package activity

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/synth"
)

func TestCountVCD(t *testing.T) {
	// Two nets of module top (n5 aliased to n6 by one code), one of another
	// scope and a vector that are ignored. Window (10, 40].
	const vcd = `$timescale 1ps $end
$scope module TOP $end
$var wire 1 ! clk_i $end
$scope module top $end
$var wire 1 " n5 $end
$var wire 1 " n6 $end
$var wire 1 # n7 $end
$var wire 4 $ n8 $end
$scope module c0 $end
$var wire 1 % n9 $end
$upscope $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0"
1#
b0000 $
0%
$end
#5
1"
#10
0"
1%
#15
1"
#20
0"
0#
#35
1"
#40
0"
#45
1"
`
	got, err := CountVCD(strings.NewReader(vcd), "top", 10, 40)
	if err != nil {
		t.Fatal(err)
	}
	want := &VCDCount{
		// n5/n6: changes at 15, 20, 35, 40 in (10, 40]; at 1 during [15,20) and [35,40).
		// n7: one change at 20; at 1 during [10, 20).
		Toggles: map[synth.Bit]int64{5: 4, 6: 4, 7: 1},
		High:    map[synth.Bit]float64{5: 10.0 / 30, 6: 10.0 / 30, 7: 10.0 / 30},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("CountVCD (-want +got):\n%s", d)
	}
	if _, err := CountVCD(strings.NewReader(vcd), "other", 10, 40); err == nil {
		t.Error("no nets of module other: want an error")
	}
}

func TestParamLiteral(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`"0110"`, "4'b0110"},
		{`"x"`, "1'b0"},
		{`"01xz"`, "4'b0100"},
		{`"SDP"`, `"SDP"`},
		{`"0 "`, `"0"`}, // a string that looks binary gets a trailing space from write_json
		{`17`, "17"},
		{`""`, `""`},
	} {
		got, err := paramLiteral(json.RawMessage(c.raw))
		if err != nil || got != c.want {
			t.Errorf("paramLiteral(%s) = %q, %v; want %q", c.raw, got, err, c.want)
		}
	}
}

func TestWriteNetVerilog(t *testing.T) {
	const js = `{"modules": {"t": {
 "ports": {"a": {"direction": "input", "bits": [2, 3]}, "y": {"direction": "output", "bits": [4, "1"]}},
 "cells": {"$abc$1": {"type": "LUT2", "parameters": {"INIT": "0110"}, "port_directions": {"I0": "input", "I1": "input", "O": "output"},
   "connections": {"I0": [2], "I1": [3], "O": [4]}}},
 "netnames": {}}}}`
	nl, err := synth.ParseNetlist(strings.NewReader(js), "t")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteNetVerilog(&b, nl); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(b.String()), "\n")[1:]
	want := []string{
		"module t(a, y);",
		"  input [1:0] a;",
		"  output [1:0] y;",
		"  wire n2;",
		"  wire n3;",
		"  wire n4;",
		"  assign n2 = a[0];",
		"  assign n3 = a[1];",
		"  assign y[0] = n4;",
		"  assign y[1] = 1'b1;",
		"  LUT2 #(.INIT(4'b0110)) c0 (.I0(n2), .I1(n3), .O(n4)); // $abc$1",
		"endmodule",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("WriteNetVerilog (-want +got):\n%s", d)
	}
}
