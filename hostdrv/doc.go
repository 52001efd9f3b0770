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
//	driver/backend_uio.c       Linux: UIO registers + u-dma-buf + AXI DMA (simple mode)
//	driver/backend_sim.cpp     the Verilator model of the system top, driven by
//	                           the system testbench's harness (tb/system_harness.h)
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
// comes from one Go table); the output is byte-identical for the same design.
package hostdrv
