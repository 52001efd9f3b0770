package constraints_test

import (
	"github.com/hdlgen/hdlgen/internal/golden"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/constraints"
)

var designs = map[string]constraints.Design{
	"axis": {
		Prefix: "iris", StreamTop: "iris_top", AxisTop: "iris_axis",
	},
	"stream": {
		Prefix: "m_3x", StreamTop: "m_3x_top",
		Part: "xc7z020clg484-1", ClockPeriodNS: 8,
	},
}

func TestGolden(t *testing.T) {
	for name, d := range designs {
		got := constraints.ZedBoardXDC(d)
		golden.Check(t, filepath.Join("testdata", name+".xdc"), got)
		files, err := constraints.Files(d)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string][]byte{constraints.XDCPath: got}, files); diff != "" {
			t.Errorf("Files (-want +got):\n%s", diff)
		}
	}
}

// TestConstraintLines checks the lines that matter, independent of comments.
func TestConstraintLines(t *testing.T) {
	want := map[string][]string{
		"axis": {
			"set_property -dict {PACKAGE_PIN Y9 IOSTANDARD LVCMOS33} [get_ports aclk]",
			"create_clock -period 10.000 -name clk [get_ports aclk]",
			"set_property -dict {PACKAGE_PIN P16 IOSTANDARD LVCMOS18} [get_ports btnc_i]",
			"set_false_path -from [get_ports btnc_i]",
		},
		"stream": {
			"set_property -dict {PACKAGE_PIN Y9 IOSTANDARD LVCMOS33} [get_ports clk_i]",
			"create_clock -period 8.000 -name clk [get_ports clk_i]",
			"set_property -dict {PACKAGE_PIN P16 IOSTANDARD LVCMOS18} [get_ports btnc_i]",
			"set_false_path -from [get_ports btnc_i]",
		},
	}
	for name, d := range designs {
		var got []string
		for _, l := range strings.Split(string(constraints.ZedBoardXDC(d)), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				got = append(got, l)
			}
		}
		if diff := cmp.Diff(want[name], got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// TestTclSyntax evaluates the XDC in tclsh with the constraint commands
// stubbed: it must parse as Tcl and only use the expected commands.
func TestTclSyntax(t *testing.T) {
	hwtest.Require(t, hwtest.Tclsh)
	stub := `
foreach c {set_property create_clock set_false_path} { proc $c {args} "puts \[concat $c \$args\]" }
proc get_ports {p} { return "port:$p" }
`
	cmd := exec.Command("tclsh")
	cmd.Stdin = strings.NewReader(stub + string(constraints.ZedBoardXDC(designs["axis"])))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tclsh: %v\n%s", err, out)
	}
	want := "set_property -dict {PACKAGE_PIN Y9 IOSTANDARD LVCMOS33} port:aclk\n" +
		"create_clock -period 10.000 -name clk port:aclk\n" +
		"set_property -dict {PACKAGE_PIN P16 IOSTANDARD LVCMOS18} port:btnc_i\n" +
		"set_false_path -from port:btnc_i\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestErrors(t *testing.T) {
	other := designs["axis"]
	other.Part = "xc7a35tcpg236-1"
	if _, err := constraints.Files(other); err == nil || !strings.Contains(err.Error(), "not the ZedBoard's") {
		t.Errorf("other part: %v", err)
	}
	bad := designs["axis"]
	bad.Prefix = ""
	if _, err := constraints.Files(bad); err == nil || !strings.HasPrefix(err.Error(), "constraints: prefix") {
		t.Errorf("bad design: %v", err)
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("ZedBoardXDC of an invalid design did not panic")
		}
	}()
	constraints.ZedBoardXDC(bad)
}
