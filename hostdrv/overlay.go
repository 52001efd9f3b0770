package hostdrv

import "github.com/hdlgen/hdlgen/vivado"

// Overlay is what the UIO backend and the device-tree overlay agree on: the
// UIO device names (the overlay's node names), the u-dma-buf device and the
// block design's addresses, interrupts, clock and DMA width (package vivado).
type Overlay struct {
	UIOSystem, UIODMA  string // node names = /sys/class/uio/uioN/name
	UDMABuf            string // u-dma-buf device-name: /dev/<name>
	UDMABufSize        int    // bytes: half for the input batch, half for the results
	SystemBase         uint32
	SystemRange        uint32
	DMABase, DMARange  uint32
	DMALengthBits      int
	DMAMemBytes        int // the DMA's memory-mapped data width in bytes
	IRQSystem, IRQMM2S int // GIC SPI numbers
	IRQS2MM            int
	// ClockHz is FCLK_CLK0's rate; FCLK0Index its index among the Zynq
	// clock controller's outputs (the kernel's zynq-7000 clock binding:
	// 15 is fclk0).
	ClockHz    int64
	FCLK0Index int
}

// fclk0Index is fclk0 among the outputs of the Zynq-7000 clock controller
// (Linux, Documentation/devicetree/bindings/clock/zynq-7000.txt).
const fclk0Index = 15

// DefaultOverlay is the overlay the driver is built for.
var DefaultOverlay = Overlay{
	UIOSystem: "hdlgen_system", UIODMA: "hdlgen_dma", UDMABuf: "udmabuf-hdlgen", UDMABufSize: 4 << 20,
	SystemBase: vivado.SystemBase, SystemRange: vivado.SystemRange,
	DMABase: vivado.DMABase, DMARange: vivado.DMARange, DMALengthBits: vivado.DMALengthBits,
	DMAMemBytes: vivado.DMAMemWidth / 8,
	IRQSystem:   vivado.IRQF2PSPIBase + vivado.IRQSystem,
	IRQMM2S:     vivado.IRQF2PSPIBase + vivado.IRQMM2S,
	IRQS2MM:     vivado.IRQF2PSPIBase + vivado.IRQS2MM,
	FCLK0Index:  fclk0Index,
}
