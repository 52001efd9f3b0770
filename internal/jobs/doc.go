// Package jobs is the one resume store and the one worker pool of hdlgen's
// long runs — the studies, the verification campaign, `hdlgen build` (its
// steps, its search's parts) and the hardware studies: a store of one JSON
// file per finished job keyed by a fingerprint of everything the job depends
// on (Store, Fingerprint), the hashes of the files a job wrote, so that a
// job whose outputs were deleted or edited runs again (Outputs), a worker
// pool that stops feeding jobs when the context ends (Run), the sorting of
// job errors into skipped datasets and failures (Outcomes), the order and
// ETA of jobs (LargestFirst, TimeLeft), the shards of a study (Shard,
// Select, Resume), the advisory lock of an output folder (LockDir) and the
// run log of a study folder (AppendRunLog, RunLogMarkdown).
//
// Invariants: a stored file is written atomically, so an interrupted run never
// leaves a partial job; a job whose fingerprint differs from the current
// settings' is run again, never reused.
package jobs
