// Minimal self-checking harness for the stream top, used by rtl's own tests (the
// product testbenches live in testbench/). It implements the driver of
// docs/rtl-interface.md section 6 and reads the vectors/ files from the working
// directory (DIR).
`include "tv_params.vh"

module tb_stream;
  localparam integer V = `TV_VECTORS;
  localparam integer R = `TV_READY_LEN;

  reg clk = 1'b0;
  reg rst_n = 1'b0;
  always #5 clk = ~clk;

  reg                         in_valid;
  reg  [`TV_IN_W-1:0]         in_data;
  wire                        in_ready;
  wire                        out_valid;
  reg                         out_ready;
  wire [`TV_CW-1:0]           out_class;
  wire [`TV_L*`TV_AW-1:0]     out_scores;

  `TV_DUT dut (
    .clk_i       (clk),
    .rst_ni      (rst_n),
    .in_valid_i  (in_valid),
    .in_ready_o  (in_ready),
    .in_data_i   (in_data),
    .out_valid_o (out_valid),
    .out_ready_i (out_ready),
    .out_class_o (out_class),
    .out_scores_o(out_scores)
  );

  reg [`TV_IN_W-1:0]  tv_in     [0:V-1];
  reg [15:0]          tv_gap    [0:V-1];
  reg [3:0]           tv_ready  [0:R-1];
  reg [`TV_EXP_W-1:0] tv_exp    [0:V-1];
  reg [95:0]          tv_cycles [0:V-1];
  reg [31:0]          accept    [0:V-1];

  integer c, v, o, offer, errors, fv;
  reg held_valid;
  reg [`TV_EXP_W-1:0] held_word;

  task mismatch(input [8*24-1:0] field, input [`TV_EXP_W-1:0] exp, input [`TV_EXP_W-1:0] got);
    begin
      $display("MISMATCH vector=%0d field=%0s expected=%0h got=%0h", o, field, exp, got);
      errors = errors + 1;
      if (errors >= 10) $finish;
    end
  endtask

  initial begin
    $readmemh("vectors/tv_in.mem", tv_in);
    $readmemh("vectors/tv_gap.mem", tv_gap);
    $readmemh("vectors/tv_ready.mem", tv_ready);
    $readmemh("vectors/tv_exp.mem", tv_exp);
    $readmemh("vectors/tv_cycles.mem", tv_cycles);
    in_valid = 1'b0; in_data = 0; out_ready = 1'b0;
    errors = 0; held_valid = 1'b0;
    repeat (4) @(posedge clk);
    #1 rst_n = 1'b1;
    c = 0; v = 0; o = 0; fv = -1;
    offer = tv_gap[0];
    while (o < V) begin
      // 1. inputs for cycle c
      in_valid = (v < V) && (c >= offer);
      in_data = in_valid ? tv_in[v] : {`TV_IN_W{1'b0}};
      out_ready = tv_ready[c % R][0];
      #1;
      // 2. sample
      if (held_valid && (!out_valid || {out_scores, out_class} != held_word))
        mismatch("protocol", held_word, {out_scores, out_class});
      held_valid = out_valid && !out_ready;
      held_word = {out_scores, out_class};
      if (in_valid && in_ready) begin
        accept[v] = c;
        v = v + 1;
        if (v < V) offer = c + 1 + tv_gap[v];
      end
      if (out_valid && fv < 0) fv = c;
      if (out_valid && out_ready) begin
        if ({out_scores, out_class} != tv_exp[o]) mismatch("value", tv_exp[o], {out_scores, out_class});
        if (accept[o] != tv_cycles[o][95:64]) mismatch("accept_cycle", tv_cycles[o][95:64], accept[o]);
        if (fv != tv_cycles[o][63:32]) mismatch("first_valid_cycle", tv_cycles[o][63:32], fv);
        if (c != tv_cycles[o][31:0]) mismatch("transfer_cycle", tv_cycles[o][31:0], c);
        o = o + 1;
        fv = -1;
      end
      if (c > `TV_MAX_CYCLES) begin
        $display("MISMATCH vector=%0d field=protocol expected=done got=timeout", o);
        $finish;
      end
      // 3. edge
      @(posedge clk);
      #1;
      c = c + 1;
    end
    if (errors == 0) $display("PASS vectors=%0d cycles=%0d latency=%0d", V, c, `TV_LATENCY);
    $finish;
  end
endmodule
