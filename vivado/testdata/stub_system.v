// stub_system.v: a stand-in with the port list of docs/system-interface.md,
// so that the block design's wrapper can be linted against it. It reads one
// ROM through MemDir like the real system top and otherwise does nothing.
`default_nettype none

module stub_system #(
  parameter MemDir = "mem/"
) (
  input  wire        aclk,
  input  wire        aresetn,
  input  wire [31:0] s_axis_tdata,
  input  wire        s_axis_tvalid,
  output wire        s_axis_tready,
  input  wire        s_axis_tlast,
  output wire [31:0] m_axis_tdata,
  output wire        m_axis_tvalid,
  input  wire        m_axis_tready,
  output wire        m_axis_tlast,
  input  wire [11:0] s_axil_awaddr,
  input  wire        s_axil_awvalid,
  output wire        s_axil_awready,
  input  wire [31:0] s_axil_wdata,
  input  wire [3:0]  s_axil_wstrb,
  input  wire        s_axil_wvalid,
  output wire        s_axil_wready,
  output wire [1:0]  s_axil_bresp,
  output wire        s_axil_bvalid,
  input  wire        s_axil_bready,
  input  wire [11:0] s_axil_araddr,
  input  wire        s_axil_arvalid,
  output wire        s_axil_arready,
  output wire [31:0] s_axil_rdata,
  output wire [1:0]  s_axil_rresp,
  output wire        s_axil_rvalid,
  input  wire        s_axil_rready,
  output wire        irq_o
);

  reg [31:0] rom [0:1];
  initial $readmemh({MemDir, "stub_rom.mem"}, rom);

  reg [31:0] data_q;
  always @(posedge aclk) begin
    if (!aresetn) data_q <= 32'd0;
    else          data_q <= rom[^s_axis_tdata] ^ {s_axil_awaddr, s_axil_araddr, s_axil_wstrb, 4'd0}
                            ^ s_axil_wdata ^ {28'd0, s_axis_tvalid, s_axis_tlast, m_axis_tready, s_axil_awvalid}
                            ^ {28'd0, s_axil_wvalid, s_axil_bready, s_axil_arvalid, s_axil_rready};
  end

  assign s_axis_tready  = 1'b1;
  assign m_axis_tdata   = data_q;
  assign m_axis_tvalid  = 1'b0;
  assign m_axis_tlast   = 1'b0;
  assign s_axil_awready = 1'b0;
  assign s_axil_wready  = 1'b0;
  assign s_axil_bresp   = 2'b00;
  assign s_axil_bvalid  = 1'b0;
  assign s_axil_arready = 1'b0;
  assign s_axil_rdata   = 32'd0;
  assign s_axil_rresp   = 2'b00;
  assign s_axil_rvalid  = 1'b0;
  assign irq_o          = 1'b0;

endmodule

`default_nettype wire
