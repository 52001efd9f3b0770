package script_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/synth/script"
)

// TestEnabledChainKeepsEnable runs the script on a 4-deep shift register with
// a clock enable. Yosys 0.23's `xilinx_srl -fixed` maps such a chain to an
// SRL16E whose CE is tied to 1 (YosysHQ/yosys#6058): the netlist then shifts
// while the RTL holds, which is how campaign design d0074 failed gate-level.
// The script must leave no cell with a constant clock enable on the chain.
func TestEnabledChainKeepsEnable(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys)
	dir := t.TempDir()
	src := `module chain(input wire clk, input wire ce, input wire d, output wire q);
  reg [3:0] sr = 4'b0;
  always @(posedge clk) if (ce) sr <= {sr[2:0], d};
  assign q = sr[3];
endmodule
`
	if err := os.WriteFile(filepath.Join(dir, "chain.v"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, script.WorkDir), 0o755); err != nil {
		t.Fatal(err)
	}
	argv := script.Command("yosys", "chain", []string{"chain.v"})
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("yosys: %v\n%s", err, out)
	}
	netlist, err := os.ReadFile(filepath.Join(dir, script.NetlistSim))
	if err != nil {
		t.Fatal(err)
	}
	ces := regexp.MustCompile(`\.CE\(([^)]*)\)`).FindAllSubmatch(netlist, -1)
	if len(ces) == 0 {
		t.Fatalf("no clock-enabled cell in the netlist:\n%s", netlist)
	}
	for _, m := range ces {
		if got := string(m[1]); got != "ce" {
			t.Errorf("a cell's CE is %q, want the enable ce:\n%s", got, netlist)
		}
	}
}
