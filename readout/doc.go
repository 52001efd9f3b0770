// Package readout gives a trained intRVFL its integer readout, the step
// between training and emitting hardware (`hdlgen quantize`): it rounds the
// float readout W_out to the levels −B…B (quant.Quantize), optionally refines
// the result with the genetic algorithm of package quant on the training data
// (seeded with the rounded readout, or from random integers), and reports what
// rounding cost: training accuracy with the float and the integer readout,
// the share of codes in {−1, 0, 1}, the GA's costs, and a warning with advice
// when the integer readout loses accuracy or uses few of its levels.
//
// It is the orchestration above the leaf package quant (which knows matrices,
// not models) and below the command line, which only parses flags and prints a
// Result.
//
// # Units and invariants
//
// Accuracies are shares in [0, 1]; NaN when no training data was given.
// Quantize changes only m.Readout, and only when it returns no error. The GA
// is deterministic for its seed (quant's documentation) and stops when ctx
// ends, returning an error that wraps ctx.Err().
//
// # The rounding warning
//
// Measured over the UCI-121 collection (docs/semantics.md §6), the
// variance-form ridge penalty gives low-variance neurons large weights that
// max-scaling rounding crushes the others against; a readout trained with λ·I
// rounds with little loss. The warning fires when the integer readout loses
// more than WarnAccuracyLoss of training accuracy, or, for a readout of at
// least WarnSmallBound levels a side, when at least WarnSmallShare of the codes
// are −1, 0 or 1; its advice depends on the model's ridge penalty.
package readout
