// Package campaign is the verification campaign beyond CI (`hdlgen
// campaign`, docs/campaign.md): it draws random legal designs from a seed,
// emits each one with rtl.Emit and verifies it with verify.Run (model check,
// lint, Verilator and Icarus on every emitted top, the gate-level steps on
// every M-th design), and records every design and result.
//
// Draw(S, i) is design i of the campaign with seed S; it depends on S and i
// only, so campaigns of different lengths share their first designs and one
// design can be run alone. Every drawn design is legal: plan.New accepts it
// (Draw panics otherwise: a bug in the draw), and the options the design
// cannot have (the AXI4-Stream wrapper, the system top, a reloadable readout)
// are dropped after the draw. The bounds (MaxK, MaxN, MaxNK, MaxP, MaxPFull,
// MaxL) keep one design to about a minute of CPU.
//
// Run works in Config.Out (DIR): DIR/designs/dNNNN.json is the Record of
// design NNNN, written atomically when the design is done; a design whose
// record matches (same draw, vector count and gate-level choice) is not run
// again, so an interrupted campaign continues where it stopped. At the end
// (also after an interruption) DIR/results.tsv and DIR/summary.md are written
// from all records. A design that fails is recorded (its work directory kept,
// its path in the record) and the campaign goes on; Run returns an error only
// when it cannot go on (DIR not writable, the context ended). Work directories
// are temporary directories outside DIR, removed when their design passes.
//
// Times: Record.Seconds is wall time; Record.CPUSeconds is user + system time
// of the process and its waited-for children during the design (getrusage),
// meaningful with one worker only (0 otherwise).
package campaign
