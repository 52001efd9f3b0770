// Package hostdrv renders the host driver of a Zynq system design (`hdlgen
// emit --system zynq`): the C library libhdlgen, its command-line tool, a
// Python wrapper and a simulation backend, written into DIR/driver/ with the
// design's constants compiled in. docs/zedboard.md is the user's guide.
//
//	driver/hdlgen.h            the public C API
//	driver/hdlgen_design.h/.c  this design's constants: shape, framing,
//	                           register map, model hash, per-feature min/max
//	driver/hdlgen_encode.c     raw features -> input elements -> beats
//	driver/hdlgen.c            open/identify, classify, counters, readout reload
//	driver/hdlgen_backend.h    the backend interface
//	driver/backend_uio.c       Linux: UIO registers + u-dma-buf + AXI DMA (simple mode,
//	                           S2MM's interrupt, timeouts from TIMING.II)
//	driver/backend_sim.cpp     the Verilator model of the system top, driven by
//	                           the system testbench's harness (tb/system_harness.h)
//	driver/hdlgen_selftest.c   the on-board self-test (hdlgen-run selftest)
//	driver/hdlgen_selftest_data.c  its data: the design's test vectors and their
//	                           expected outputs, two readout images
//	driver/hdlgen_run.c        the command-line tool hdlgen-run
//	driver/hdlgen.py           Python (ctypes) wrapper
//	driver/hdlgen-overlay.dts  device-tree overlay for the UIO backend
//	driver/Makefile            arm (cross-compile), native, sim (Verilator)
//
// Invariants: the encoder computes exactly what the Go model computes
// (model.Normalizer.ApplyTo, model.Level, model.InputCode) on every input,
// NaN and infinities included — the package's tests compare the two on
// millions of values, natively and under qemu-arm; the identification values
// the driver expects are the ones the system RTL reports (the register map
// comes from one Go table); a call returns the results of its own batch or an
// error, never an earlier batch's (batch tags, whole-buffer S2MM, a DMA reset
// and CTRL.FLUSH after any failure); the output is byte-identical for the
// same design. The board's backend has never driven a real DMA; its tests run
// it against a C model of the AXI DMA and the system (testdata/uio_check.c,
// compiled with -DHDLGEN_UIO_FAKE, which only the tests define).
//
// SerialFiles renders the same family for the iCEBreaker's UART top (`hdlgen
// emit --board icebreaker`, docs/ice40.md): hdlgen.h, hdlgen_encode.c,
// hdlgen_run.c and hdlgen.py are the files above, byte for byte; under the
// API are
//
//	driver/hdlgen_uart.c           libhdlgen over the UART protocol: identify at
//	                               open, one classify request per vector, a
//	                               resynchronisation after any failure
//	driver/hdlgen_uart.h           the byte-link interface and the frames
//	driver/backend_serial.c        the "serial" backend: termios raw mode, 8N1
//	driver/hdlgen_uart_selftest.c  the self-test: identity, vectors, malformed
//	                               frames, resync
//	driver/sim_uart.cpp            the UART top's Verilator model behind a
//	                               pseudo-terminal, bridged at the bit level
//	                               (make sim), which TestSerialDriverPTY runs
//	                               hdlgen-run and hdlgen.py against
//
// The protocol's bytes come from the rtl package (UARTProtocol); its
// TestICE40Files checks them against the UART top's RTL.
package hostdrv
