// Reference DUT for the testbench and verify tests (not an hdlgen design).
// It has the ports of a stream top (docs/rtl-interface.md §3) and computes
//   score[l] = sum_i w(l, i) * level_i,  w(l, i) = ((3i + 5l) mod 7) - 3,
//   class    = argmax_l score[l], ties to the lowest index,
// one vector at a time: in_ready_o = !busy; out_valid_o rises Latency cycles
// after the accept and stays up until the transfer; in_ready_o rises the cycle
// after the transfer. refdut's Go model mirrors these registers.
//
// Fault injection: mem/ref_mode.mem holds one hex digit read at start-up:
//   0 correct, 1 class output toggles while out_valid_o && !out_ready_i
//   (protocol violation), 2 latency + 1, 3 out_valid_o never rises.
`default_nettype none

module ref_top #(
  parameter integer K       = 24,  // features
  parameter integer LW      = 3,   // bits per level (levels 0..7)
  parameter integer L       = 5,   // classes
  parameter integer AW      = 12,  // score width, two's complement
  parameter integer CW      = 3,   // class index width
  parameter integer Latency = 3,   // accept to first out_valid_o, 2..254
  parameter integer IgnoreProtocol = 0  // 1: ignore mode 1 (the AXIS wrapper injects its own)
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire            in_valid_i,
  output wire            in_ready_o,
  input  wire [K*LW-1:0] in_data_i,
  output wire            out_valid_o,
  input  wire            out_ready_i,
  output wire [CW-1:0]   out_class_o,
  output wire [L*AW-1:0] out_scores_o
);
  localparam [3:0] MODE_PROTOCOL = 4'd1;
  localparam [3:0] MODE_LATENCY  = 4'd2;
  localparam [3:0] MODE_STUCK    = 4'd3;
  localparam [7:0] LAT           = Latency[7:0];

  reg [3:0] mode_mem [0:0];
  reg [3:0] mode;
  initial begin
    $readmemh("mem/ref_mode.mem", mode_mem);
    mode = (IgnoreProtocol != 0 && mode_mem[0] == MODE_PROTOCOL) ? 4'd0 : mode_mem[0];
  end

  wire [7:0] lat = (mode == MODE_LATENCY) ? LAT + 8'd1 : LAT;
  wire       stuck = (mode == MODE_STUCK);

  // Scores and class of the vector on in_data_i.
  reg [L*AW-1:0] scores_d;
  reg [CW-1:0]   class_d;
  integer        i, l, acc, best, w;
  always @* begin
    scores_d = {L*AW{1'b0}};
    class_d  = {CW{1'b0}};
    best     = 0;
    for (l = 0; l < L; l = l + 1) begin
      acc = 0;
      for (i = 0; i < K; i = i + 1) begin
        w   = ((3 * i + 5 * l) % 7) - 3;
        acc = acc + w * $signed({{(32-LW){1'b0}}, in_data_i[i*LW +: LW]});
      end
      scores_d[l*AW +: AW] = acc[AW-1:0];
      if (l == 0 || acc > best) begin
        best    = acc;
        class_d = l[CW-1:0];
      end
    end
  end

  reg            busy_q, valid_q;
  reg [7:0]      cnt_q;
  reg [L*AW-1:0] scores_q;
  reg [CW-1:0]   class_q;

  wire accept = in_valid_i && !busy_q;
  wire xfer   = valid_q && out_ready_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      valid_q <= 1'b0;
      cnt_q   <= 8'd0;
    end else if (accept) begin
      busy_q  <= 1'b1;
      cnt_q   <= lat - 8'd1;
      valid_q <= 1'b0;
    end else if (busy_q && !valid_q) begin
      cnt_q   <= cnt_q - 8'd1;
      valid_q <= (cnt_q == 8'd1) && !stuck;
    end else if (xfer) begin
      busy_q  <= 1'b0;
      valid_q <= 1'b0;
    end
  end

  always @(posedge clk_i) begin
    if (accept) begin
      scores_q <= scores_d;
      class_q  <= class_d;
    end else if (mode == MODE_PROTOCOL && valid_q && !out_ready_i) begin
      class_q <= class_q ^ {{(CW-1){1'b0}}, 1'b1};
    end
  end

  assign in_ready_o   = !busy_q;
  assign out_valid_o  = valid_q;
  assign out_class_o  = class_q;
  assign out_scores_o = scores_q;
endmodule

`default_nettype wire
