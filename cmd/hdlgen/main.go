// Command hdlgen trains density-encoded random-vector functional-link networks
// (the intRVFL of Kleyko et al., IEEE TNNLS 2020) and turns them into verified,
// synthesizable Verilog for the Zynq-7020. Run "hdlgen --help" for the commands.
package main

import (
	"os"

	"github.com/hdlgen/hdlgen/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
