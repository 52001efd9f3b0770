// Reference AXI4-Stream wrapper for the testbench and verify tests (not an
// hdlgen design): the ports of docs/rtl-interface.md §4 around ref_top.
// Input: K beats are collected into a vector register (s_axis_tready = !full),
// the full vector is offered to the core, the register frees when the core
// accepts. Output: the core's result is captured when the serialiser is idle
// and sent as L+1 beats (class, then the scores sign-extended to 32 bits).
//
// Fault injection (mem/ref_mode.mem, see ref_top): 1 m_axis_tdata toggles
// while m_axis_tvalid && !m_axis_tready, 2 core latency + 1, 3 the core never
// answers, 4 m_axis_tlast on beat L-1 instead of beat L.
`default_nettype none

module ref_axis #(
  parameter integer K       = 24,
  parameter integer LW      = 3,
  parameter integer L       = 5,
  parameter integer AW      = 12,
  parameter integer CW      = 3,
  parameter integer Latency = 3
) (
  input  wire        aclk,
  input  wire        aresetn,
  input  wire [15:0] s_axis_tdata,
  input  wire        s_axis_tvalid,
  output wire        s_axis_tready,
  input  wire        s_axis_tlast,
  output wire [31:0] m_axis_tdata,
  output wire        m_axis_tvalid,
  input  wire        m_axis_tready,
  output wire        m_axis_tlast,
  output wire        tlast_error_o,
  output wire [15:0] drop_count_o
);
  localparam [3:0] MODE_PROTOCOL = 4'd1;
  localparam [3:0] MODE_TLAST    = 4'd4;
  localparam integer LastIn      = K - 1;
  localparam [7:0]   LAST_IN     = LastIn[7:0];
  localparam [7:0]   LAST_OUT    = L[7:0];

  reg [3:0] mode_mem [0:0];
  reg [3:0] mode;
  initial begin
    $readmemh("mem/ref_mode.mem", mode_mem);
    mode = mode_mem[0];
  end

  // Input side.
  reg [K*LW-1:0] vec_q;
  reg [7:0]      in_cnt_q;
  reg            have_q, tlast_err_q;
  wire           core_in_ready;
  wire           beat_xfer   = s_axis_tvalid && !have_q;
  wire           core_accept = have_q && core_in_ready;

  always @(posedge aclk) begin
    if (!aresetn) begin
      in_cnt_q    <= 8'd0;
      have_q      <= 1'b0;
      tlast_err_q <= 1'b0;
    end else begin
      if (beat_xfer) begin
        if (s_axis_tlast != (in_cnt_q == LAST_IN)) tlast_err_q <= 1'b1;
        if (in_cnt_q == LAST_IN) begin
          in_cnt_q <= 8'd0;
          have_q   <= 1'b1;
        end else begin
          in_cnt_q <= in_cnt_q + 8'd1;
        end
      end else if (core_accept) begin
        have_q <= 1'b0;
      end
    end
  end

  integer i;
  always @(posedge aclk) begin
    if (beat_xfer) begin
      for (i = 0; i < K; i = i + 1) begin
        if (in_cnt_q == i[7:0]) vec_q[i*LW +: LW] <= s_axis_tdata[LW-1:0];
      end
    end
  end

  // The core.
  wire            core_out_valid;
  wire [CW-1:0]   core_class;
  wire [L*AW-1:0] core_scores;
  reg             busy_out_q;

  ref_top #(
    .K              (K),
    .LW             (LW),
    .L              (L),
    .AW             (AW),
    .CW             (CW),
    .Latency        (Latency),
    .IgnoreProtocol (1)
  ) u_core (
    .clk_i        (aclk),
    .rst_ni       (aresetn),
    .in_valid_i   (have_q),
    .in_ready_o   (core_in_ready),
    .in_data_i    (vec_q),
    .out_valid_o  (core_out_valid),
    .out_ready_i  (!busy_out_q),
    .out_class_o  (core_class),
    .out_scores_o (core_scores)
  );

  // Output side.
  reg [7:0]       beat_q;
  reg [CW-1:0]    class_q;
  reg [L*AW-1:0]  scores_q;
  reg [31:0]      data_q;
  wire            core_xfer = core_out_valid && !busy_out_q;
  wire            out_xfer  = busy_out_q && m_axis_tready;

  always @(posedge aclk) begin
    if (!aresetn) begin
      busy_out_q <= 1'b0;
      beat_q     <= 8'd0;
    end else if (core_xfer) begin
      busy_out_q <= 1'b1;
      beat_q     <= 8'd0;
    end else if (out_xfer) begin
      if (beat_q == LAST_OUT) begin
        busy_out_q <= 1'b0;
        beat_q     <= 8'd0;
      end else begin
        beat_q <= beat_q + 8'd1;
      end
    end
  end

  always @(posedge aclk) begin
    if (core_xfer) begin
      class_q  <= core_class;
      scores_q <= core_scores;
    end
  end

  // Beat data: beat 0 the class, beat b the score of class b-1.
  integer l;
  always @* begin
    data_q = {{(32-CW){1'b0}}, class_q};
    for (l = 0; l < L; l = l + 1) begin
      if (beat_q == l[7:0] + 8'd1) data_q = {{(32-AW){scores_q[l*AW+AW-1]}}, scores_q[l*AW +: AW]};
    end
  end

  // Mode 1 flips bit 0 of the beat on every cycle it waits.
  reg toggle_q;
  always @(posedge aclk) begin
    if (!aresetn || out_xfer || !busy_out_q) toggle_q <= 1'b0;
    else if (mode == MODE_PROTOCOL) toggle_q <= !toggle_q;
  end

  wire unused_tdata = ^s_axis_tdata[15:LW];  // bits above LW are ignored (contract §4)

  assign s_axis_tready = !have_q;
  assign m_axis_tvalid = busy_out_q;
  assign m_axis_tdata  = {data_q[31:1], data_q[0] ^ toggle_q};
  assign m_axis_tlast  = (mode == MODE_TLAST) ? (beat_q == LAST_OUT - 8'd1) : (beat_q == LAST_OUT);
  assign tlast_error_o = tlast_err_q;
  assign drop_count_o  = 16'd0;  // frames by count: nothing is ever dropped
endmodule

`default_nettype wire
