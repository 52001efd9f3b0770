package templates

import "embed"

// FS holds the primitives (hdlgen_*.v) and the templates (*.tmpl).
//
//go:embed *.v *.tmpl
var FS embed.FS

// The shared hand-written modules, in the order they are listed in file lists
// (dependencies first): a design gets those it uses, and between Front and
// Back its network type's own (plan.Layer.Primitives). A primitive's variant —
// e.g. hdlgen_rom_block.v, hdlgen_rom.v with its storage in block RAM
// (--rom-style block) — is a file of its own, emitted under the name of the
// module it replaces.
var (
	Front = []string{
		"hdlgen_sext.v",
		"hdlgen_delay.v",
		"hdlgen_rom.v",
		"hdlgen_ro_ram.v",
		"hdlgen_addtree.v",
		"hdlgen_argmax.v",
		"hdlgen_issue.v",
		"hdlgen_issue_hold.v",
		"hdlgen_outreg.v",
	}
	Back = []string{
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
)

// ROMBlock is the variant of hdlgen_rom.v whose storage is marked rom_style
// "block", the attribute by which Yosys and Vivado put a memory in block RAM
// whatever its size: the ROM primitive of a design emitted with --rom-style
// block. Every other line is hdlgen_rom.v's, so a default design's primitive,
// and what synthesis makes of it, stay as they are.
const ROMBlock = "hdlgen_rom_block.v"
