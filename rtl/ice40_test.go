package rtl

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/constraints"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TestICE40Files: --board icebreaker adds the UART top, its testbench, the
// board's pins and the flow, and the Makefile includes the flow; the
// ZedBoard's design has none of them; a bad board or a Zynq system on the
// iCEBreaker is refused.
func TestICE40Files(t *testing.T) {
	m := testmodel.Random(intShape(5, 20, 3, 3, 5), "ice", 1)
	files, rep, err := Generate(context.Background(), m, Options{Vectors: 4, Board: board.NameIceBreaker})
	if err != nil {
		t.Fatal(err)
	}
	top := rep.Plan.Prefix + "_ice40"
	for _, name := range []string{"rtl/" + top + ".v", "rtl/hdlgen_uart_rx.v", "rtl/hdlgen_uart_tx.v", ice40TBPath,
		ice40ParamsPath, ice40MakePath, "ice40/ice40_carry.py", constraints.PCFPath,
		"driver/Makefile", "driver/hdlgen_uart.c", "driver/backend_serial.c", "driver/sim_uart.cpp", "driver/hdlgen_run.c"} {
		if _, ok := files[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	// The driver is compiled with ice40Protocol's bytes; the top writes them
	// as literals.
	rtlTop := string(files["rtl/"+top+".v"])
	for _, want := range []string{
		fmt.Sprintf("REQ_MARK = 8'h%02X, RES_MARK = 8'h%02X", ice40RequestMark, ice40ResponseMark),
		fmt.Sprintf("CMD_CLASSIFY = 8'h%02x, CMD_IDENTIFY = 8'h%02x", ice40CmdClassify, ice40CmdIdentify),
		fmt.Sprintf("ST_RESULT = 8'h%02x", ice40StatusResult),
		fmt.Sprintf("^ 8'h%02x", ice40CRCPoly),
	} {
		if !strings.Contains(rtlTop, want) {
			t.Errorf("the UART top lacks %q: the driver's protocol table (ice40Protocol) and the top disagree", want)
		}
	}
	pcf := string(files[constraints.PCFPath])
	for _, want := range []string{"set_io -nowarn clk_i 35", "set_io -nowarn rx_i 6", "set_io -nowarn tx_o 9", "btn_ni 10"} {
		if !strings.Contains(pcf, want) {
			t.Errorf("PCF lacks %q:\n%s", want, pcf)
		}
	}
	if mk := string(files["Makefile"]); !strings.HasSuffix(mk, "include "+ice40MakePath+"\n") {
		t.Errorf("the Makefile does not include %s", ice40MakePath)
	}
	// The identity starts with STATUS 02 and "HDLG" (low byte first).
	if v := strings.ReplaceAll(string(files["rtl/"+top+".v"]), "_", ""); !strings.Contains(v, "474c444802;") {
		t.Errorf("%s.v: no identity starting with STATUS 02 and HDLG", top)
	}
	zed, _, err := Generate(context.Background(), m, Options{Vectors: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := zed[ice40MakePath]; ok {
		t.Error("the ZedBoard design has the iCE40 flow")
	}
	for _, o := range []Options{
		{Vectors: 4, Board: "icestick"},
		{Vectors: 4, Board: board.NameIceBreaker, System: SystemZynq},
	} {
		if _, _, err := Generate(context.Background(), m, o); err == nil {
			t.Errorf("board %q system %q: no error", o.Board, o.System)
		}
	}
}

// TestICE40Routed: a small design through the whole iCE40 flow — bitstream
// at 12 MHz, the routed netlist's simulation through the UART against the
// vectors and the RTL's tx_o (make routed-ice40), the UART top's RTL
// testbench. About half a minute of nextpnr and Icarus (a minute in the full
// tier, which waits out the UART top's timeout on the routed netlist too).
func TestICE40Routed(t *testing.T) {
	hwtest.Require(t, hwtest.ICE40, hwtest.Icarus, hwtest.Slow("one design placed, routed and simulated"))
	m := testmodel.Random(intShape(3, 12, 3, 3, 4), "ice", 2)
	dir, _ := emitted(t, m, Options{Options: plan.Options{Parallel: 2, ROMStyle: "block"}, Vectors: 8, Board: board.NameIceBreaker})
	args := []string{"--no-print-directory", "bitstream", "routed-ice40", "ROUTED_VECTORS=8"}
	if !hwtest.FullTier() {
		// The timeout's 65,536 clocks were most of the routed run (about 40 s
		// of 60); the RTL's timeout is checked by verify's icarus step (e2e).
		args = append(args, "ROUTED_PLUSARGS=+no_timeout")
	}
	out := run(t, dir, 10*time.Minute, "make", args...)
	checkPass(t, "routed-ice40", out)
	if !strings.Contains(out, "change in the same cycles") {
		t.Errorf("routed-ice40 did not compare tx_o:\n%s", out)
	}
}
