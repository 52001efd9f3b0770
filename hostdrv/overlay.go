package hostdrv

import "github.com/hdlgen/hdlgen/vivado"

// Overlay is what the UIO backend and the device-tree overlay agree on: the
// UIO device names (the overlay's node names), the u-dma-buf device and the
// block design's addresses and interrupts (package vivado).
type Overlay struct {
	UIOSystem, UIODMA  string // node names = /sys/class/uio/uioN/name
	UDMABuf            string // u-dma-buf device-name: /dev/<name>
	UDMABufSize        int    // bytes: half for the input batch, half for the results
	SystemBase         uint32
	SystemRange        uint32
	DMABase, DMARange  uint32
	DMALengthBits      int
	IRQSystem, IRQMM2S int // GIC SPI numbers
	IRQS2MM            int
}

// DefaultOverlay is the overlay the driver is built for.
var DefaultOverlay = Overlay{
	UIOSystem: "hdlgen_system", UIODMA: "hdlgen_dma", UDMABuf: "udmabuf-hdlgen", UDMABufSize: 4 << 20,
	SystemBase: vivado.SystemBase, SystemRange: vivado.SystemRange,
	DMABase: vivado.DMABase, DMARange: vivado.DMARange, DMALengthBits: vivado.DMALengthBits,
	IRQSystem: vivado.IRQF2PSPIBase + vivado.IRQSystem,
	IRQMM2S:   vivado.IRQF2PSPIBase + vivado.IRQMM2S,
	IRQS2MM:   vivado.IRQF2PSPIBase + vivado.IRQS2MM,
}
