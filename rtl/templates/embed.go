package templates

import "embed"

// FS holds the primitives (hdlgen_*.v) and the templates (*.tmpl).
//
//go:embed *.v *.tmpl
var FS embed.FS

// Primitives are the hand-written modules, in the order they are listed in file
// lists (dependencies first). Every emitted design gets all of them, unchanged.
var Primitives = []string{
	"hdlgen_sext.v",
	"hdlgen_delay.v",
	"hdlgen_rom.v",
	"hdlgen_ro_ram.v",
	"hdlgen_addtree.v",
	"hdlgen_argmax.v",
	"hdlgen_issue.v",
	"hdlgen_outreg.v",
	"hdlgen_level_offset.v",
	"hdlgen_intrvfl_hidden.v",
	"hdlgen_win_lfsr.v",
	"hdlgen_rvfl8_hidden.v",
	"hdlgen_mac.v",
	"hdlgen_axis_hold.v",
	"hdlgen_axis_in.v",
	"hdlgen_axis_out.v",
	"hdlgen_axis_frames.v",
	"hdlgen_axis_fifo.v",
	"hdlgen_axis_records.v",
	"hdlgen_axil.v",
}
