// Package plan derives everything structural about one emitted design from a
// model and a few options, before any Verilog is written: the widths of every
// signal (docs/rtl-interface.md), the pipeline's register stages and its exact
// latency, the ROMs and their word layouts, and structural resource counts.
// rtl renders the templates from a Plan, rtl/sim simulates the design the Plan
// describes, and power's analytic model follows the same rules (a test compares
// them). The result is also written as DIR/design.json.
//
// The part that differs between network types (input element, hidden-layer
// widths and stages, the W_in ROM, the hidden primitives and the core
// template) is a Layer, one file per network type (intrvfl.go, rvfl8.go); the
// rest of the pipeline — readout MACs, lane sums, accumulators, argmax, output
// register — is shared. Widths are in bits; all numbers are deterministic
// functions of the model's shape and the Options.
package plan
