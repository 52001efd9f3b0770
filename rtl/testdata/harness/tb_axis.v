// Minimal self-checking harness for the AXI4-Stream wrapper (see tb_stream.v).
`include "tv_params.vh"

module tb_axis;
  localparam integer V = `TV_VECTORS;
  localparam integer R = `TV_READY_LEN;
  localparam integer K = `TV_K;
  localparam integer L = `TV_L;
  localparam integer LW = `TV_LW;
  localparam integer AW = `TV_AW;
  localparam integer CW = `TV_CW;

  reg clk = 1'b0;
  reg rst_n = 1'b0;
  always #5 clk = ~clk;

  reg  [15:0] s_tdata;
  reg         s_tvalid;
  wire        s_tready;
  reg         s_tlast;
  wire [31:0] m_tdata;
  wire        m_tvalid;
  reg         m_tready;
  wire        m_tlast;
  wire        tlast_error;
  wire [15:0] drop_count;

  `TV_AXIS_DUT dut (
    .aclk         (clk),
    .aresetn      (rst_n),
    .s_axis_tdata (s_tdata),
    .s_axis_tvalid(s_tvalid),
    .s_axis_tready(s_tready),
    .s_axis_tlast (s_tlast),
    .m_axis_tdata (m_tdata),
    .m_axis_tvalid(m_tvalid),
    .m_axis_tready(m_tready),
    .m_axis_tlast (m_tlast),
    .tlast_error_o(tlast_error),
    .drop_count_o (drop_count)
  );

  reg [`TV_IN_W-1:0]  tv_in     [0:V-1];
  reg [15:0]          tv_gap    [0:V-1];
  reg [3:0]           tv_ready  [0:R-1];
  reg [`TV_EXP_W-1:0] tv_exp    [0:V-1];
  reg [95:0]          tv_cycles [0:V-1];
  reg [15:0]          tv_junk   [0:V-1];
  reg [31:0]          accept    [0:V-1];

  integer c, v, b, o, ob, offer, errors, fv, j;
  reg [`TV_EXP_W-1:0] exp_word;
  reg [31:0] exp_beat;

  task mismatch(input [8*24-1:0] field, input [95:0] exp, input [95:0] got);
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
    $readmemh("vectors/tv_axis_cycles.mem", tv_cycles);
    $readmemh("vectors/tv_axis_junk.mem", tv_junk);
    s_tvalid = 1'b0; s_tdata = 16'd0; s_tlast = 1'b0; m_tready = 1'b0;
    errors = 0;
    repeat (4) @(posedge clk);
    #1 rst_n = 1'b1;
    c = 0; v = 0; b = 0; o = 0; ob = 0; fv = -1;
    offer = tv_gap[0];
    while (o < V) begin
      // Frame of vector v: tv_junk[v] junk beats (dropped by the DUT), then K beats.
      s_tvalid = (v < V) && (c >= offer);
      j = s_tvalid ? tv_junk[v] : 0;
      s_tdata = 16'd0;
      if (s_tvalid) s_tdata[LW-1:0] = tv_in[v][((b < j) ? b % K : b - j)*LW +: LW];
      s_tlast = s_tvalid && ((b < j) ? (b == j - 1) : (b - j == K - 1));
      m_tready = tv_ready[c % R][0];
      #1;
      if (s_tvalid && s_tready) begin
        if (b == j + K - 1) begin
          accept[v] = c;
          v = v + 1; b = 0;
          if (v < V) offer = c + 1 + tv_gap[v];
        end else begin
          b = b + 1;
        end
      end
      if (m_tvalid && ob == 0 && fv < 0) fv = c;
      if (m_tvalid && m_tready) begin
        exp_word = tv_exp[o];
        if (ob == 0) begin
          exp_beat = exp_word[CW-1:0];
          if (accept[o] != tv_cycles[o][95:64]) mismatch("accept_cycle", tv_cycles[o][95:64], accept[o]);
          if (fv != tv_cycles[o][63:32]) mismatch("first_valid_cycle", tv_cycles[o][63:32], fv);
          if (c != tv_cycles[o][31:0]) mismatch("transfer_cycle", tv_cycles[o][31:0], c);
        end else begin
          exp_beat = {{(32-AW){exp_word[CW+ob*AW-1]}}, exp_word[CW+(ob-1)*AW +: AW]};
        end
        if (m_tdata != exp_beat) mismatch("value", exp_beat, m_tdata);
        if (m_tlast != (ob == L)) mismatch("protocol", ob == L, m_tlast);
        ob = ob + 1;
        if (ob == L + 1) begin
          ob = 0; o = o + 1; fv = -1;
        end
      end
      if (c > `TV_MAX_CYCLES) begin
        $display("MISMATCH vector=%0d field=protocol expected=done got=timeout", o);
        $finish;
      end
      @(posedge clk);
      #1;
      c = c + 1;
    end
    if (drop_count != `TV_AXIS_DROPS) mismatch("drop_count", `TV_AXIS_DROPS, drop_count);
    if (errors == 0) $display("PASS vectors=%0d cycles=%0d latency=%0d", V, c, `TV_AXIS_LATENCY);
    $finish;
  end
endmodule
