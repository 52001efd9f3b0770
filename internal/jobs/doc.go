// Package jobs is the machinery the resumable studies share: a store of one
// JSON file per finished job keyed by a fingerprint of everything the job
// depends on (Store, Fingerprint), a worker pool that stops feeding jobs when
// the context ends (Run), the sorting of job errors into skipped datasets and
// failures (Outcomes), the order and ETA of jobs (LargestFirst, TimeLeft), and
// the run log of a study folder (AppendRunLog, RunLogMarkdown).
//
// Invariants: a stored file is written atomically, so an interrupted run never
// leaves a partial job; a job whose fingerprint differs from the current
// settings' is run again, never reused.
package jobs
