module github.com/hdlgen/hdlgen

go 1.24.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	gonum.org/v1/gonum v0.17.0
)

require github.com/inconshreveable/mousetrap v1.1.0 // indirect
