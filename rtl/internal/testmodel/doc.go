// Package testmodel builds small models for the rtl packages' tests: random
// networks of any shape (weights drawn from a seed, readout weights uniform over
// the whole integer range so every bit of the datapath is exercised) and models
// trained on synthetic blobs.
package testmodel
