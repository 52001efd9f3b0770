package vivado

// The block design's address map and DMA configuration: the Tcl builds it,
// the host driver's device-tree overlay and header repeat it.
const (
	// SystemBase and SystemRange place the system's AXI4-Lite slave on
	// M_AXI_GP0 (Vivado's default base for a user peripheral) with a window
	// of its 12-bit register space: 4 KiB, Vivado's smallest.
	SystemBase  = 0x43C0_0000
	SystemRange = 0x1000
	// DMABase and DMARange place the AXI DMA's register slave (Vivado's
	// default for axi_dma).
	DMABase  = 0x4040_0000
	DMARange = 0x1_0000
	// DMALengthBits is the width of the DMA's buffer length registers
	// (c_sg_length_width, the largest: transfers up to 2^26 − 1 bytes).
	DMALengthBits = 26
	// DMAMemWidth is the width in bits of the DMA's memory-mapped masters and
	// of S_AXI_HP0: 64, the width the HP port's AFI has after reset, so the
	// design works whatever FSBL booted the board (a 32-bit HP port needs the
	// AFI set to 32 bits by this design's own FSBL). The streams stay 32 bits.
	DMAMemWidth = 64
	// DDRBase and DDRRange are the DDR window the DMA masters see through
	// S_AXI_HP0 (the ZedBoard's 512 MiB).
	DDRBase  = 0x0000_0000
	DDRRange = 0x2000_0000
)

// Interrupts: IRQ_F2P[i] is the GIC's shared peripheral interrupt 29 + i
// (interrupt ID 61 + i; Zynq-7000 TRM UG585, table 7-4).
const (
	IRQSystem = 0 // the system's irq_o (batch done)
	IRQMM2S   = 1 // the DMA's mm2s_introut
	IRQS2MM   = 2 // the DMA's s2mm_introut
	// IRQF2PSPIBase is the SPI number of IRQ_F2P[0].
	IRQF2PSPIBase = 29
)
