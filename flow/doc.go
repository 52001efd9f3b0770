// Package flow runs hdlgen's whole flow on a user's CSV file — split, search,
// train, quantise, score, size (P from latency, LUT or energy constraints),
// emit, verify, synth, power — as a sequence of
// ordinary hdlgen commands, and writes DIR/REPORT.md from their outputs.
//
// Every step is one hdlgen command line (the report lists each, exactly as
// run), executed through a Runner the caller provides (the command line runs
// them in-process). The only work done here is the held-out split, written as
// two CSV files (DIR/data/train.csv and DIR/data/holdout.csv, label in the
// last column) so that every later command can be rerun by hand on them, and
// the report.
//
// Resumable: each step's key is the SHA-256 of the previous step's key and the
// step's command line (the split's: of the CSV's bytes and the split
// options), so a change anywhere invalidates everything after it. A step
// whose stamp DIR/.build/<step>.key holds its key and whose outputs exist is
// skipped; the stamp is removed before a step runs and written after it
// succeeds, so an interrupted step runs again.
//
// The final model is fitted on the training share only (not refitted on all
// rows): the held-out accuracy in the report is that of the model and the
// hardware in DIR.
package flow
