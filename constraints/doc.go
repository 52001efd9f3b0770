// Package constraints writes the board constraints (XDC) of an emitted design
// for the ZedBoard (Zynq-7020, xc7z020clg484-1).
//
// The one file, zedboard.xdc, is a real file in this directory, embedded and
// rendered per design by ZedBoardXDC: the 100 MHz oscillator on pin Y9 (bank
// 13, LVCMOS33) with create_clock at the design's period on the clock port
// (aclk when the design has the AXI4-Stream wrapper, clk_i otherwise), and
// the reset push button BTNC on pin P16 (bank 34, LVCMOS18 at the board's
// default VADJ) on the port ResetPort. Pins and I/O standards come from the
// Avnet ZedBoard master XDC; the file's comments say so.
//
// The XDC belongs to the chip top (a Zynq block design around the AXI4-Stream
// wrapper), not to the core alone: the core's data ports are driven from the
// PS, and the core's reset is active-low while the button is active-high, so
// the chip top inverts and synchronises it (proc_sys_reset). The clock goes
// straight from the pin to a global buffer, without an MMCM (DESIGN.md). The
// out-of-context runs of vivado/build.tcl use their own clock-only XDC from
// package testbench.
//
// Units: the clock period is in nanoseconds, printed with three decimals.
// Invariant: same Design, same bytes.
package constraints
