package cli

import (
	"strings"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
)

// The network lists of usage lines and help texts come from the registries,
// so a network type added to them is offered without an edit here.

// archUsage is archs for a usage line: "intrvfl|rvfl|rvfl8".
func archUsage(archs []model.Arch) string {
	names := make([]string, len(archs))
	for i, a := range archs {
		names[i] = string(a)
	}
	return strings.Join(names, "|")
}

// archHelp is a flag's help text listing archs: "network: intrvfl, rvfl or rvfl8".
func archHelp(archs []model.Arch) string { return "network: " + model.Alternatives(archs) }

// networkUsage is the studies' variants for a usage line:
// "intrvfl|rvfl|rvfl-qin|rvfl-direct|rvfl8".
func networkUsage() string {
	var names []string
	for _, nw := range protocol.Networks() {
		names = append(names, string(nw))
	}
	return strings.Join(names, "|")
}

// networkList joins networks for a flag value: "intrvfl,rvfl".
func networkList(nws []protocol.Network) string {
	var names []string
	for _, nw := range nws {
		names = append(names, string(nw))
	}
	return strings.Join(names, ",")
}
