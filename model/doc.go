// Package model defines hdlgen's networks — the paper's intRVFL, the conventional
// float RVFL and the 8-bit fixed-point RVFL used as the hardware baseline — their
// inference (float and integer paths), their training, and the model.json format
// that carries a trained network to the RTL generator.
//
// The exact semantics (normalisation, level rounding, random generation order,
// regulariser, quantisation, fixed-point formats) are specified in
// docs/semantics.md; every rule there is pinned by a test in this package.
//
// Units and invariants:
//   - K features, N hidden neurons, L classes; matrices are row-major []float64.
//   - Normalised inputs x' lie in [0, 1]; intRVFL levels lie in [0, N].
//   - intRVFL hidden activations are integers in [−κ, κ]; hidden inputs s_j in [−K, K].
//   - W_out is L×C with C = N hidden columns (plus K input columns first when the
//     RVFL has direct links).
//   - Prediction is argmax over classes with ties broken towards the lowest index.
//
// A Model holds its hidden layer as one Network value (*IntNet, *FloatNet or
// *FixedNet), so its architecture cannot disagree with its weights. Each
// network type is one file (intrvfl.go, rvfl.go, rvfl8.go): the hidden layer,
// its model.json section and its training hook, registered from the file's
// init. Training takes a context and stops when it is cancelled.
//
// An intRVFL's W_in is drawn from the PCG weight stream (WinStored) or taken
// from one PRBS31 sequence (WinPRBS31, prbs31.go), the rows the emitted design
// generates on chip; Config.Win chooses, and model.json records the generator
// and checks the stored rows against it.
//
// Bad data returns errors; programmer errors (shape mismatches between values the
// package itself built) panic with a "model:" prefix.
package model
