// Package randmodel builds models without training, for tests, golden files and
// the hardware calibration: a valid model of a given shape whose hidden layer is
// drawn from a seed as training would draw it, whose normaliser is the identity
// on [0, 1] and whose integer readout codes are random over their whole range
// (so ROMs carry incompressible contents like a trained network's). It also
// makes small learnable data sets (Blobs) and trained models of a shape.
// Everything is deterministic in its seed.
package randmodel
