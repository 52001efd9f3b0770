package templates

import (
	"embed"
	"errors"
	"fmt"
	"strings"
)

// FS holds the primitives (hdlgen_*.v) and the templates (*.tmpl).
//
//go:embed *.v *.tmpl
var FS embed.FS

// Primitives are the hand-written modules, in the order they are listed in file
// lists (dependencies first). A design gets those it uses, unchanged (but for
// hdlgen_rom.v and hdlgen_rvfl8_hidden.v with --rom-style block: BlockROM,
// BlockSigmoid).
var Primitives = []string{
	"hdlgen_sext.v",
	"hdlgen_delay.v",
	"hdlgen_rom.v",
	"hdlgen_ro_ram.v",
	"hdlgen_addtree.v",
	"hdlgen_argmax.v",
	"hdlgen_issue.v",
	"hdlgen_issue_hold.v",
	"hdlgen_outreg.v",
	"hdlgen_level_offset.v",
	"hdlgen_intrvfl_hidden.v",
	"hdlgen_win_lfsr.v",
	"hdlgen_rvfl8_hidden.v",
	"hdlgen_mac.v",
	"hdlgen_mac_sums.v",
	"hdlgen_axis_hold.v",
	"hdlgen_axis_in.v",
	"hdlgen_axis_out.v",
	"hdlgen_axis_frames.v",
	"hdlgen_axis_fifo.v",
	"hdlgen_axis_records.v",
	"hdlgen_axil.v",
}

// romStorage is the storage declaration of hdlgen_rom.v that BlockROM marks.
const romStorage = "  // Storage, loaded once at elaboration.\n  reg [Width-1:0] mem [0:Depth-1];\n"

// BlockROM returns hdlgen_rom.v (src, as embedded) with its storage marked
// rom_style "block", the attribute by which Yosys and Vivado put a memory in
// block RAM whatever its size: the primitive of a design emitted with
// --rom-style block. Every other line is unchanged, so a default design's
// primitive, and what synthesis makes of it, stay as they are.
func BlockROM(src []byte) ([]byte, error) {
	s := string(src)
	if strings.Count(s, romStorage) != 1 {
		return nil, errors.New("templates: hdlgen_rom.v has no single storage declaration to mark rom_style \"block\"")
	}
	return []byte(strings.Replace(s, romStorage,
		"  // Storage, loaded once at elaboration; in block RAM (hdlgen emit --rom-style block).\n"+
			"  (* rom_style = \"block\" *)\n  reg [Width-1:0] mem [0:Depth-1];\n", 1)), nil
}

// sigmoidEdits are the lines of hdlgen_rvfl8_hidden.v that BlockSigmoid
// changes: the sigmoid table's declaration and its three uses get the name
// sigmoid_lut, which the synthesis script's `setattr -set rom_style "logic"
// m:lut` (synth/flow) does not select, and the declaration the attribute.
var sigmoidEdits = [][2]string{
	{"  reg [CODE_W-1:0] lut [0:LUT_DEPTH-1];\n",
		"  // In block RAM (hdlgen emit --rom-style block).\n  (* rom_style = \"block\" *)\n  reg [CODE_W-1:0] sigmoid_lut [0:LUT_DEPTH-1];\n"},
	{"$readmemh(LutFile, lut);", "$readmemh(LutFile, sigmoid_lut);"},
	{"lut[k] = {CODE_W{1'b0}};", "sigmoid_lut[k] = {CODE_W{1'b0}};"},
	{"<= lut[addr[r*CODE_W +: CODE_W]];", "<= sigmoid_lut[addr[r*CODE_W +: CODE_W]];"},
}

// BlockSigmoid returns hdlgen_rvfl8_hidden.v (src, as embedded) with its
// sigmoid table in block RAM: the primitive of an rvfl8 design emitted with
// --rom-style block. The table's read is registered with the pipeline's
// enable already, so a RAMB18 (two lanes per RAM, one per port) does the same
// in the same cycle; every other line is unchanged.
func BlockSigmoid(src []byte) ([]byte, error) {
	s := string(src)
	for _, e := range sigmoidEdits {
		if strings.Count(s, e[0]) != 1 {
			return nil, fmt.Errorf("templates: hdlgen_rvfl8_hidden.v has no single %q to change for rom_style \"block\"", e[0])
		}
		s = strings.Replace(s, e[0], e[1], 1)
	}
	return []byte(s), nil
}
