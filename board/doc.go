// Package board is the one source of truth for the hardware target: the FPGA
// part, its resource capacities, the PL clock and the board pins the emitted
// constraints use. hdlgen targets the Avnet ZedBoard (Zynq-7020,
// xc7z020clg484-1) clocked straight from its 100 MHz oscillator on pin Y9
// (DESIGN.md, "Hardware"); constraints, synth, rtl, testbench, power and
// hwstudy read the facts from here.
//
// Units: clock in Hz and its period in ns; capacities in device primitives
// (slice LUTs, flip-flops, DSP48E1, RAMB36 tiles, LUTs usable as memory).
package board
