// Package templates holds hdlgen's Verilog-2005 sources, embedded with embed.FS.
//
// Two kinds of file live here:
//
//   - hdlgen_*.v: hand-written primitives (ROM, delay line, adder tree, argmax,
//     the two hidden layers, the readout MAC, the stream input and output stages,
//     the AXI4-Stream adapters). They are parameterised, never generated, and
//     copied unchanged into every emitted design that uses them, so a reviewer
//     reads them once.
//   - *.tmpl: text/template files that only instantiate, wire and parameterise the
//     primitives for one model: header.tmpl (the common file header), top.v.tmpl
//     (the stream top), the datapaths — core.v.tmpl, shared by the networks
//     whose datapath is one hidden primitive, with the parts that differ in
//     core_intrvfl.v.tmpl and core_rvfl8.v.tmpl; core_intrvfl2.v.tmpl; and
//     core_readout.v.tmpl, the readout every core ends with — and axis.v.tmpl
//     (the AXI4-Stream wrapper).
//
// Every file must pass `verilator --lint-only -Wall --language 1364-2005` and
// `iverilog -g2005 -Wall` without a warning for every shape rtl/plan accepts; the
// rtl package's tests enforce it. The pipelining rules the primitives implement
// (a register after every R tree levels, never after the last) are mirrored by
// rtl/plan's latency formula and by rtl/sim; change them together.
//
// Simulator-friendly structure: wide per-lane and per-node logic is written as
// loops inside one always block per tree level (never one generate scope or one
// instance per lane or node), and loops read one tree's or lane's slice of a wide
// vector at a time. Icarus Verilog 11 elaborates generate scopes in quadratic time
// and copies a whole vector on every variable part-select; Verilator 5 emits code
// per instance. The intRVFL hidden layer is bit-sliced (one Lanes-bit vector per
// feature and per count bit) for the same reason; it is the same logic per lane.
package templates
