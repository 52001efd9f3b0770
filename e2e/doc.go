// Package e2e holds the end-to-end tests of the generated hardware: models of many
// shapes are trained, quantised, emitted and verified with Verilator and Icarus
// against the Go cycle-accurate simulator, and deliberately broken designs (one
// expected value changed, one W_in bit flipped, a clip bound off by one) must fail
// verification. Lint, the model check and Verilator run 1,000 vectors on every
// design; Icarus runs fewer on the six long designs (see matrixVectors in
// helpers_test.go for the rule and why it keeps what the second simulator is
// for). The package has no code of its own; it exists for its tests.
package e2e
