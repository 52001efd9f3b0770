// Package vivado renders vivado/system.tcl for a Zynq system design (`hdlgen
// emit --system zynq`): a Vivado project for the ZedBoard with the processing
// system, an AXI DMA in simple mode and the system top as a module reference,
// run through synthesis, implementation, bitstream and the hardware platform
// (XSA with the .hwh). `make bitstream` in the design directory runs it.
//
// Vivado is not needed (nor available) to test it: the package's tests run
// the Tcl in tclsh with the Vivado commands replaced by recorders that build
// a model of the block design (testdata/recorder.tcl), and check what it
// builds — every interface connected, one clock and one reset domain, the
// address map, the ZedBoard board part and its preset applied before the PS7
// overrides, the ROM files read from the project's copy by a relative path —
// and the guards (a missing .mem file or board files, a preset not applied, a
// ROM synthesis did not read, the timing gate on setup, hold, pulse width and
// unconstrained endpoints). Every IP parameter the script sets is checked
// against a reference list taken from Xilinx's documentation, public
// write_bd_tcl exports and the ZedBoard's board files
// (testdata/ip_reference.tsv, a source per entry). What only Vivado can tell
// (whether the IP versions accept these settings, timing closure, the
// bitstream) is listed in docs/zedboard.md as untested.
//
// The address map and interrupt wiring are constants (addrmap.go) that the
// host driver's device-tree overlay repeats.
package vivado
