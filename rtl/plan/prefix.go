package plan

import "strings"

// SanitizePrefix turns a model name into the Verilog identifier that prefixes every
// model-specific module (docs/rtl-interface.md §1): lower-case, every character
// outside [a-z0-9_] becomes '_', runs of '_' collapse to one, a trailing '_' is
// dropped, a leading digit gets "m_" prepended, an empty result becomes "m", and a
// Verilog-2005 or SystemVerilog keyword gets "_m" appended. The result never ends
// in '_' and never contains "__", so "<prefix>_top" has no double underscore
// (which Verilator 5.006 mishandles in --top-module).
func SanitizePrefix(name string) string {
	var b strings.Builder
	underscore := false
	for _, r := range strings.ToLower(name) {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			r = '_'
		}
		if r == '_' {
			if underscore {
				continue
			}
			underscore = true
		} else {
			underscore = false
		}
		b.WriteRune(r)
	}
	s := strings.TrimSuffix(b.String(), "_")
	switch {
	case s == "":
		s = "m"
	case s[0] >= '0' && s[0] <= '9':
		s = "m_" + s
	}
	if keywords[s] {
		s += "_m"
	}
	return s
}

// keywords are the reserved words of IEEE 1364-2005 (Verilog) and IEEE 1800-2017
// (SystemVerilog, a superset), so a prefix is safe in either language.
var keywords = func() map[string]bool {
	const list = `accept_on alias always always_comb always_ff always_latch and assert assign
assume automatic before begin bind bins binsof bit break buf bufif0 bufif1 byte case casex
casez cell chandle checker class clocking cmos config const constraint context continue cover
covergroup coverpoint cross deassign default defparam design disable dist do edge else end
endcase endchecker endclass endclocking endconfig endfunction endgenerate endgroup endinterface
endmodule endpackage endprimitive endprogram endproperty endspecify endsequence endtable endtask
enum event eventually expect export extends extern final first_match for force foreach forever
fork forkjoin function generate genvar global highz0 highz1 if iff ifnone ignore_bins
illegal_bins implements implies import incdir include initial inout input inside instance int
integer interconnect interface intersect join join_any join_none large let liblist library local
localparam logic longint macromodule matches medium modport module nand negedge nettype new
nexttime nmos nor noshowcancelled not notif0 notif1 null or output package packed parameter pmos
posedge primitive priority program property protected pull0 pull1 pulldown pullup
pulsestyle_ondetect pulsestyle_onevent pure rand randc randcase randsequence rcmos real realtime
ref reg reject_on release repeat restrict return rnmos rpmos rtran rtranif0 rtranif1 s_always
s_eventually s_nexttime s_until s_until_with scalared sequence shortint shortreal showcancelled
signed small soft solve specify specparam static string strong strong0 strong1 struct super
supply0 supply1 sync_accept_on sync_reject_on table tagged task this throughout time
timeprecision timeunit tran tranif0 tranif1 tri tri0 tri1 triand trior trireg type typedef union
unique unique0 unsigned until until_with untyped use uwire var vectored virtual void wait
wait_order wand weak weak0 weak1 while wildcard wire with within wor xnor xor`
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}()
