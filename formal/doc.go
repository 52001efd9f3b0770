// Package formal proves properties of the Zynq system top's RTL (`hdlgen emit
// --system zynq`, docs/system-interface.md) with the tools of Debian's yosys
// package — Yosys's SAT solver (the `sat` command) and its ABC (`yosys-abc`,
// bmc3 on an AIGER circuit) — and nothing else: the project's own properties,
// written from the interface contract, run in the test suite.
//
//	AXILite   the AXI4-Lite slave hdlgen_axil, proved for all depths by
//	          k-induction: responses held until taken, one response per
//	          request (AW and W in either order), a write performed exactly
//	          when its response is OKAY (writable register, every strobe),
//	          reads answered with the register of the address taken. The
//	          properties are the primitive's own `ifdef HDLGEN_FORMAL_AXIL
//	          block (simulators and synthesis never see it).
//	System    an emitted system top with its real classifier, by bounded model
//	          checking (ABC's bmc3) to Depths cycles from reset, against the
//	          properties of a harness written from the contract
//	          (templates/system_props.v.tmpl), in two proofs: Stream — the
//	          output's hold rule and the flush of CTRL.FLUSH (nothing comes out
//	          before new input, the next record has seq 0, STATUS not busy);
//	          Framing — with AXI4-Lite writes to CTRL and BATCH at any time, a
//	          reference model of the framing (every record's kind, flags, class
//	          field, seq, length and TLAST, and no record it does not expect:
//	          none duplicated), the batch tag (BATCH.TAG when the record's
//	          token was queued), no record lost under back-pressure (on offer
//	          within a bound of cycles with TREADY high), COUNT_DROPPED and
//	          COUNT_STRAY.
//
// Every property has mutants — small edits of the RTL that break exactly
// what it states — and a proof counts only when each mutant yields a
// counterexample (Mutants, the tests). A bounded proof says nothing about
// longer runs: the depth is stated with every result, and the docs say what is
// and is not proved.
package formal
