// Package regmap is the one definition of the Zynq system top's software
// interface (docs/system-interface.md): the AXI4-Lite register map, the input
// beat and output record layouts, the identification values of a design and the
// readout image written through the RO_DATA window.
//
// The emitted Verilog (<prefix>_system, its register addresses and constants as
// named localparams), the Go simulation model (rtl/sim), the documentation's
// register table (Markdown) and the host driver's C header (CDefines) are all
// generated from the tables here, so they cannot disagree.
//
// Units: register offsets are byte addresses within the AddrW-bit AXI4-Lite
// window; every register is 32 bits; field positions are bit numbers (LSB 0).
//
// Invariants: registers are listed in address order, 4-byte aligned, inside the
// window, with non-overlapping fields that fit 32 bits; the ID and VERSION
// registers never move.
package regmap
