// Package importgraph holds the test that keeps hdlgen's package graph as
// designed and its description in docs/architecture.md true: it reads the
// imports of every package of the module (non-test files, this platform's
// build), checks the rules below, and compares the import paragraph of
// docs/architecture.md with the graph (go test ./internal/importgraph
// -update rewrites it).
//
// The rules: the analytic energy model (power) stays free of the emitter,
// the tools and the studies, with at most MaxPowerDeps packages of the
// module in its dependencies; verify does not import rtl; the packages a
// network type registers in (model, rtl/plan, rtl/sim, power) import no
// command-level package; and the layers (layers_test.go): every package
// has a rank in one of eight layers and imports none of a layer above its
// own, a package without a rank failing by name. docs/architecture.md's
// layer table is generated from that map.
package importgraph
