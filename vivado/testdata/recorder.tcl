# recorder.tcl: runs vivado/system.tcl in plain tclsh with every Vivado
# command it uses replaced by a recorder that builds a model of the project
# and the block design, then dumps the model for the Go test to check.
#
#   tclsh recorder.tcl SCRIPT DUMP
#
# The model follows Vivado where the script depends on it: an IP's pins and
# interfaces exist only when its configuration enables them (e.g. the PS's
# S_AXI_HP0 needs PCW_USE_S_AXI_HP0 = 1, the DMA has an SG port unless
# c_include_sg = 0); a module reference gets the interfaces its ports'
# X_INTERFACE_INFO attributes declare (read from the added source files);
# connecting a pin or interface that does not exist, or two interfaces of
# different types or the same mode, is an error, as in Vivado. Synthesis
# "reads" every .mem file in the directory the module reference's MemDir
# names (the runme.log lines the script checks).
#
# The project's board part must be set (get_board_parts lists the installed
# ones) for the processing_system7 automation to apply the board's preset,
# which sets CONFIG.preset as the board files' preset.xml does (ZedBoard for
# the ZedBoard's board parts); the automation also makes DDR and FIXED_IO
# external. Synthesis resolves the module reference's MemDir from its run
# directory (system.runs/<run>). The routed design's timing comes from a
# summary in Vivado's report_timing_summary layout.
#
# Environment knobs for the negative tests: HDLGEN_REC_VERSION (what
# `version -short` says), HDLGEN_REC_SKIP_MEM (a .mem file name synthesis
# does not report reading), HDLGEN_REC_BOARDS (the installed board parts,
# space separated; default the board store's ZedBoard), HDLGEN_REC_PRESET (the
# preset the automation applies instead of the board's), HDLGEN_REC_TIMING
# (setup, hold, pulse, no_clock or unconstrained: that timing check fails).
#
# Dump: one record per line, fields separated by tabs:
#   cell NAME TYPE VLNV | config CELL KEY VALUE | pin CELL/PIN DIR TYPE |
#   intf CELL/INTF MODE TYPE CLOCK | port NAME KIND MODE VLNV |
#   net ID OBJ... | intfnet A B | addr SPACE SEG OFFSET RANGE |
#   file PATH | board PART | cmd NAME ARGS... | error MESSAGE

set script [lindex $argv 0]
set dump [lindex $argv 1]

array set cell_vlnv {}   ;# name -> vlnv
array set cell_type {}   ;# name -> ip | module
array set cell_cfg {}    ;# name -> dict of CONFIG.* (without the prefix)
array set cell_ref {}    ;# module reference -> module name
array set ports {}       ;# external port -> {kind mode vlnv}
array set net_of {}      ;# pin object -> net id
set nets {}              ;# list of net ids
array set net_pins {}    ;# net id -> pins
set next_net 0
set intf_nets {}
set addrs {}
set files {}
set cmds {}
set project_dir ""
set project_board ""

proc rec {args} { lappend ::cmds $args }

proc fail {msg} { error "recorder: $msg" }

# --- IP catalog ---------------------------------------------------------------

proc cfg {cell key default} {
    if {[dict exists $::cell_cfg($cell) $key]} { return [dict get $::cell_cfg($cell) $key] }
    return $default
}

# ip_model returns {pins intfs spaces segs} of a cell:
#   pins:  dict name -> {dir type}          (type: clk rst intr data)
#   intfs: dict name -> {mode type clock}   (type: aximm axis ddr fixedio)
#   spaces: list of master address spaces
#   segs:  dict intf -> {seg range}
proc ip_model {cell} {
    set pins [dict create]
    set intfs [dict create]
    set spaces {}
    set segs [dict create]
    if {$::cell_type($cell) eq "module"} { return [module_model $cell] }
    set v $::cell_vlnv($cell)
    switch -glob -- $v {
        xilinx.com:ip:processing_system7:* {
            dict set intfs DDR {Master ddr {}}
            dict set intfs FIXED_IO {Master fixedio {}}
            if {[cfg $cell PCW_EN_CLK0_PORT 1]} { dict set pins FCLK_CLK0 {O clk} }
            if {[cfg $cell PCW_EN_RST0_PORT 1]} { dict set pins FCLK_RESET0_N {O rst} }
            if {[cfg $cell PCW_USE_M_AXI_GP0 1]} {
                dict set intfs M_AXI_GP0 {Master aximm M_AXI_GP0_ACLK}
                dict set pins M_AXI_GP0_ACLK {I clk}
                lappend spaces Data
            }
            if {[cfg $cell PCW_USE_S_AXI_HP0 0]} {
                dict set intfs S_AXI_HP0 {Slave aximm S_AXI_HP0_ACLK}
                dict set pins S_AXI_HP0_ACLK {I clk}
                dict set segs S_AXI_HP0 {HP0_DDR_LOWOCM 0x20000000}
            }
            if {[cfg $cell PCW_USE_FABRIC_INTERRUPT 0] && [cfg $cell PCW_IRQ_F2P_INTR 0]} {
                dict set pins IRQ_F2P {I intr}
            }
        }
        xilinx.com:ip:axi_dma:* {
            dict set intfs S_AXI_LITE {Slave aximm s_axi_lite_aclk}
            dict set segs S_AXI_LITE {Reg 0x10000}
            dict set pins s_axi_lite_aclk {I clk}
            dict set pins axi_resetn {I rst}
            if {[cfg $cell c_include_sg 1]} {
                dict set intfs M_AXI_SG {Master aximm m_axi_sg_aclk}
                dict set pins m_axi_sg_aclk {I clk}
                lappend spaces Data_SG
            }
            if {[cfg $cell c_include_mm2s 1]} {
                dict set intfs M_AXI_MM2S {Master aximm m_axi_mm2s_aclk}
                dict set intfs M_AXIS_MM2S {Master axis m_axi_mm2s_aclk}
                dict set pins m_axi_mm2s_aclk {I clk}
                dict set pins mm2s_introut {O intr}
                lappend spaces Data_MM2S
            }
            if {[cfg $cell c_include_s2mm 1]} {
                dict set intfs M_AXI_S2MM {Master aximm m_axi_s2mm_aclk}
                dict set intfs S_AXIS_S2MM {Slave axis m_axi_s2mm_aclk}
                dict set pins m_axi_s2mm_aclk {I clk}
                dict set pins s2mm_introut {O intr}
                lappend spaces Data_S2MM
            }
        }
        xilinx.com:ip:proc_sys_reset:* {
            foreach p {slowest_sync_clk} { dict set pins $p {I clk} }
            foreach p {ext_reset_in aux_reset_in mb_debug_sys_rst} { dict set pins $p {I rst} }
            dict set pins dcm_locked {I data}
            foreach p {mb_reset bus_struct_reset peripheral_reset interconnect_aresetn peripheral_aresetn} {
                dict set pins $p {O rst}
            }
        }
        xilinx.com:ip:smartconnect:* {
            dict set pins aclk {I clk}
            dict set pins aresetn {I rst}
            for {set i 0} {$i < [cfg $cell NUM_SI 1]} {incr i} { dict set intfs [format S%02d_AXI $i] {Slave aximm aclk} }
            for {set i 0} {$i < [cfg $cell NUM_MI 1]} {incr i} { dict set intfs [format M%02d_AXI $i] {Master aximm aclk} }
        }
        xilinx.com:ip:xlconcat:* {
            for {set i 0} {$i < [cfg $cell NUM_PORTS 2]} {incr i} { dict set pins In$i {I intr} }
            dict set pins dout {O intr}
        }
        default { fail "no model of IP $v" }
    }
    return [list $pins $intfs $spaces $segs]
}

# module_model reads a module reference's ports and interface attributes
# from the project's source files, as IP integrator infers them.
proc module_model {cell} {
    set name $::cell_ref($cell)
    set text ""
    foreach f $::files {
        set fh [open $f r]
        set t [read $fh]
        close $fh
        if {[regexp "\nmodule $name \\(" $t]} { set text $t }
    }
    if {$text eq ""} { fail "module reference $name: no added source file defines it" }
    set pins [dict create]
    set intfs [dict create]
    set segs [dict create]
    set assoc {}
    foreach line [split $text \n] {
        if {![regexp {X_INTERFACE_INFO = "([^ "]+) ([^ "]+) ([^ "]+)".*\m(input|output) wire (\[[^]]*\] )?([A-Za-z_0-9]+)} $line \
                -> vlnv intf logical dir width port]} { continue }
        set d [expr {$dir eq "input" ? "I" : "O"}]
        switch -glob -- $vlnv {
            xilinx.com:signal:clock:* {
                dict set pins $port [list $d clk]
                regexp {ASSOCIATED_BUSIF ([A-Za-z_0-9:]+)} $line -> busifs
                foreach b [split $busifs :] { lappend assoc $b $port }
            }
            xilinx.com:signal:reset:* { dict set pins $port [list $d rst] }
            xilinx.com:signal:interrupt:* { dict set pins $port [list $d intr] }
            xilinx.com:interface:axis:* - xilinx.com:interface:aximm:* {
                set type [expr {[string match *axis* $vlnv] ? "axis" : "aximm"}]
                if {$logical in {TVALID AWVALID}} {
                    dict set intfs $intf [list [expr {$d eq "I" ? "Slave" : "Master"}] $type {}]
                }
                if {[regexp {ADDR_WIDTH ([0-9]+)} $line -> aw]} {
                    dict set segs $intf [list reg0 [format 0x%X [expr {1 << $aw}]]]
                }
            }
            default { fail "module reference $name: unknown interface $vlnv" }
        }
    }
    foreach {b clk} $assoc {
        if {[dict exists $intfs $b]} { dict set intfs $b [lreplace [dict get $intfs $b] 2 2 $clk] }
    }
    return [list $pins $intfs {} $segs]
}

proc split_obj {obj} {
    set parts [split [string trimleft $obj /] /]
    return $parts
}

# --- Project commands -----------------------------------------------------------

proc version {args} {
    if {[info exists ::env(HDLGEN_REC_VERSION)]} { return $::env(HDLGEN_REC_VERSION) }
    return 2023.2
}
proc create_project {args} {
    rec create_project {*}$args
    set pos {}
    for {set i 0} {$i < [llength $args]} {incr i} {
        set a [lindex $args $i]
        if {$a eq "-part"} { set ::project_part [lindex $args [incr i]]; continue }
        if {$a eq "-force"} { continue }
        lappend pos $a
    }
    if {[llength $pos] != 2} { fail "create_project $args" }
    set ::project_dir [lindex $pos 1]
    file mkdir $::project_dir
}
proc current_project {args} { return project }
proc get_board_parts {args} {
    set pat [lindex $args end]
    set installed {avnet.com:zedboard:part0:1.4}
    if {[info exists ::env(HDLGEN_REC_BOARDS)]} { set installed $::env(HDLGEN_REC_BOARDS) }
    set out {}
    foreach b $installed { if {[string match $pat $b]} { lappend out $b } }
    return $out
}
# board_preset returns CONFIG.preset of a board part's ps7_preset (the board
# files' preset.xml: "ZedBoard" for the ZedBoard).
proc board_preset {board} {
    if {[info exists ::env(HDLGEN_REC_PRESET)]} { return $::env(HDLGEN_REC_PRESET) }
    if {[string match *:zedboard:part0:* $board] || [string match *:zed:part0:* $board]} { return ZedBoard }
    return ""
}
proc current_fileset {args} { return sources_1 }
proc add_files {args} {
    rec add_files {*}$args
    foreach f [lindex $args end] {
        if {![file exists $f]} { fail "add_files: $f does not exist" }
        lappend ::files $f
    }
}
proc update_compile_order {args} { rec update_compile_order {*}$args }
proc set_msg_config {args} { rec set_msg_config {*}$args }
proc get_ipdefs {args} {
    set pat [lindex $args end]
    regexp {^xilinx.com:ip:([a-z_0-9]+):\*$} $pat -> name
    set v [dict create processing_system7 5.5 axi_dma 7.1 proc_sys_reset 5.0 smartconnect 1.0 xlconcat 2.1]
    if {![dict exists $v $name]} { return {} }
    return [list xilinx.com:ip:$name:[dict get $v $name]]
}
proc get_files {args} {
    set pat [lindex $args end]
    if {$pat eq "system.bd"} { return [file join $::project_dir system.srcs sources_1 bd system system.bd] }
    if {[string match *hwh $pat]} {
        set f [file join $::project_dir system.gen sources_1 bd system hw_handoff system.hwh]
        file mkdir [file dirname $f]
        close [open $f w]
        return $f
    }
    return {}
}

# --- Block design -----------------------------------------------------------------

proc create_bd_design {name} { rec create_bd_design $name }
proc create_bd_cell {args} {
    array set o {-type "" -vlnv "" -reference ""}
    set name [lindex $args end]
    array set o [lrange $args 0 end-1]
    if {[info exists ::cell_vlnv($name)]} { fail "cell $name exists" }
    switch -- $o(-type) {
        ip {
            if {$o(-vlnv) eq ""} { fail "create_bd_cell $name: no VLNV" }
            set ::cell_vlnv($name) $o(-vlnv)
            set ::cell_type($name) ip
        }
        module {
            set ::cell_vlnv($name) module:$o(-reference)
            set ::cell_type($name) module
            set ::cell_ref($name) $o(-reference)
        }
        default { fail "create_bd_cell: type $o(-type)" }
    }
    set ::cell_cfg($name) [dict create]
    rec create_bd_cell {*}$args
    if {$o(-type) eq "module"} { ip_model $name }
    return /$name
}
proc get_bd_cells {args} {
    set n [string trimleft [lindex $args end] /]
    if {[info exists ::cell_vlnv($n)]} { return /$n }
    return {}
}
proc set_property {args} {
    rec set_property {*}$args
    if {[lindex $args 0] eq "board_part"} {
        if {[lindex $args 2] ne "project"} { fail "set_property board_part on [lindex $args 2]" }
        if {[lsearch -exact [get_board_parts *] [lindex $args 1]] < 0} { fail "board part [lindex $args 1] is not installed" }
        set ::project_board [lindex $args 1]
        return
    }
    if {[lindex $args 0] eq "-dict"} {
        set kv [lindex $args 1]
        set objs [lrange $args 2 end]
    } else {
        set kv [list [lindex $args 0] [lindex $args 1]]
        set objs [lrange $args 2 end]
    }
    foreach obj $objs {
        set cell [string trimleft $obj /]
        if {![info exists ::cell_vlnv($cell)]} { continue }
        foreach {k v} $kv {
            if {![string match CONFIG.* $k]} { fail "set_property $k on cell $cell" }
            dict set ::cell_cfg($cell) [string range $k 7 end] $v
        }
    }
}
proc create_bd_intf_port {args} {
    array set o [lrange $args 0 end-1]
    set name [lindex $args end]
    set ::ports($name) [list intf $o(-mode) $o(-vlnv)]
    rec create_bd_intf_port {*}$args
    return /$name
}
proc get_bd_intf_ports {name} {
    if {[info exists ::ports($name)]} { return /$name }
    return {}
}
proc get_bd_pins {path} {
    lassign [split_obj $path] cell pin
    if {![info exists ::cell_vlnv($cell)]} { return {} }
    lassign [ip_model $cell] pins
    if {[dict exists $pins $pin]} { return /$cell/$pin }
    return {}
}
proc get_bd_intf_pins {path} {
    lassign [split_obj $path] cell intf
    if {![info exists ::cell_vlnv($cell)]} { return {} }
    lassign [ip_model $cell] pins intfs
    if {[dict exists $intfs $intf]} { return /$cell/$intf }
    return {}
}
proc connect_bd_net {args} {
    rec connect_bd_net {*}$args
    if {[llength $args] < 2} { fail "connect_bd_net with [llength $args] objects" }
    set ids {}
    foreach p $args {
        if {$p eq ""} { fail "connect_bd_net: a pin that does not exist (args: $args)" }
        if {[info exists ::net_of($p)]} { lappend ids $::net_of($p) }
    }
    set id [expr {[llength $ids] ? [lindex $ids 0] : [incr ::next_net]}]
    if {![info exists ::net_pins($id)]} { set ::net_pins($id) {}; lappend ::nets $id }
    foreach other [lsort -unique $ids] {
        if {$other == $id} { continue }
        foreach p $::net_pins($other) { set ::net_of($p) $id; lappend ::net_pins($id) $p }
        set ::nets [lsearch -all -inline -not $::nets $other]
        unset ::net_pins($other)
    }
    foreach p $args {
        if {![info exists ::net_of($p)]} { set ::net_of($p) $id; lappend ::net_pins($id) $p }
    }
}
proc intf_info {obj} {
    lassign [split_obj $obj] cell intf
    if {$intf eq ""} {
        lassign $::ports($cell) kind mode vlnv
        return [list [expr {$mode eq "Master" ? "Slave" : "Master"}] [lindex [split $vlnv :] 2] port]
    }
    lassign [ip_model $cell] pins intfs
    lassign [dict get $intfs $intf] mode type
    return [list $mode $type cell]
}
proc connect_bd_intf_net {args} {
    rec connect_bd_intf_net {*}$args
    if {[llength $args] != 2 || [lindex $args 0] eq "" || [lindex $args 1] eq ""} {
        fail "connect_bd_intf_net: an interface that does not exist (args: $args)"
    }
    lassign [intf_info [lindex $args 0]] m0 t0 k0
    lassign [intf_info [lindex $args 1]] m1 t1 k1
    # An external port is seen from inside: a Master port takes a Master pin.
    set types [list $t0 $t1]
    if {$k0 eq "port" || $k1 eq "port"} {
        if {$m0 eq $m1} { fail "connect_bd_intf_net $args: modes $m0/$m1" }
    } else {
        if {$m0 eq $m1} { fail "connect_bd_intf_net $args: both $m0" }
        if {$t0 ne $t1} { fail "connect_bd_intf_net $args: types $t0/$t1" }
    }
    foreach o $args {
        foreach n $::intf_nets { if {$o in $n} { fail "connect_bd_intf_net: $o is already connected" } }
    }
    lappend ::intf_nets $args
}
proc get_bd_addr_spaces {path} {
    lassign [split_obj $path] cell space
    lassign [ip_model $cell] pins intfs spaces
    if {$space in $spaces} { return /$cell/$space }
    return {}
}
proc get_bd_addr_segs {args} {
    if {[lindex $args 0] eq "-of_objects"} {
        lassign [split_obj [lindex $args 1]] cell intf
        lassign [ip_model $cell] pins intfs spaces segs
        if {![dict exists $segs $intf]} { return {} }
        return /$cell/$intf/[lindex [dict get $segs $intf] 0]
    }
    lassign [split_obj [lindex $args end]] cell intf seg
    lassign [ip_model $cell] pins intfs spaces segs
    if {[dict exists $segs $intf] && [lindex [dict get $segs $intf] 0] eq $seg} { return /$cell/$intf/$seg }
    return {}
}
proc assign_bd_address {args} {
    rec assign_bd_address {*}$args
    array set o {-target_address_space "" -offset "" -range ""}
    set objs {}
    for {set i 0} {$i < [llength $args]} {incr i} {
        set a [lindex $args $i]
        if {$a in {-target_address_space -offset -range}} {
            set o($a) [lindex $args [incr i]]
        } elseif {$a eq "-force"} {
        } elseif {[string match -* $a]} {
            fail "assign_bd_address: option $a"
        } else {
            lappend objs $a
        }
    }
    if {[llength $objs] != 1 || [lindex $objs 0] eq "" || $o(-target_address_space) eq ""} {
        fail "assign_bd_address: want one segment and an address space ($args)"
    }
    set seg [lindex $objs 0]
    lassign [split_obj $seg] cell intf
    lassign [ip_model $cell] pins intfs spaces segs
    set size [lindex [dict get $segs $intf] 1]
    lappend ::addrs [list $o(-target_address_space) $seg $o(-offset) $o(-range) $size]
}
foreach c {validate_bd_design save_bd_design generate_target open_run report_utilization report_power} {
    proc $c {args} "rec $c {*}\$args"
}

# apply_bd_automation models the processing_system7 rule: the board preset
# (needs the project's board part) and the external DDR and FIXED_IO.
proc apply_bd_automation {args} {
    rec apply_bd_automation {*}$args
    array set o {-rule "" -config ""}
    array set o [lrange $args 0 end-1]
    set cell [string trimleft [lindex $args end] /]
    if {$o(-rule) ne "xilinx.com:bd_rule:processing_system7"} { fail "apply_bd_automation: rule $o(-rule)" }
    if {![string match xilinx.com:ip:processing_system7:* $::cell_vlnv($cell)]} { fail "apply_bd_automation on $cell" }
    foreach {k v} $o(-config) {
        switch -- $k {
            make_external {
                foreach p [split [string map {" " ""} $v] ,] {
                    set vlnv [dict get {DDR xilinx.com:interface:ddrx_rtl:1.0 FIXED_IO xilinx.com:display_processing_system7:fixedio_rtl:1.0} $p]
                    create_bd_intf_port -mode Master -vlnv $vlnv $p
                    connect_bd_intf_net [get_bd_intf_ports $p] [get_bd_intf_pins $cell/$p]
                }
            }
            apply_board_preset {
                if {$v eq "1"} {
                    if {$::project_board eq ""} { fail "apply_board_preset without a board part" }
                    dict set ::cell_cfg($cell) preset [board_preset $::project_board]
                }
            }
            Master - Slave { if {$v ne "Disable"} { fail "apply_bd_automation: $k $v would add AXI connections" } }
            default { fail "apply_bd_automation: unknown option $k" }
        }
    }
}

# report_timing_summary returns (-return_string) a routed design's summary in
# Vivado's layout: the check_timing counts, the Design Timing Summary and its
# verdict; HDLGEN_REC_TIMING makes one check fail.
proc report_timing_summary {args} {
    rec report_timing_summary {*}$args
    set bad [expr {[info exists ::env(HDLGEN_REC_TIMING)] ? $::env(HDLGEN_REC_TIMING) : ""}]
    set noclk [expr {$bad eq "no_clock" ? 4 : 0}]
    set unc [expr {$bad eq "unconstrained" ? 17 : 0}]
    set wns [expr {$bad eq "setup" ? -0.120 : 1.234}]
    set whs [expr {$bad eq "hold" ? -0.021 : 0.045}]
    set wpws [expr {$bad eq "pulse" ? -0.300 : 3.750}]
    set met [expr {$bad eq "" || $bad eq "no_clock" || $bad eq "unconstrained"}]
    set t "Timing Report\n\ncheck_timing report\n\n1. checking no_clock ($noclk)\n--------------------------\n There are $noclk register/latch pins with no clock.\n\n"
    append t "4. checking unconstrained_internal_endpoints ($unc)\n------------------------------------------------\n There are $unc pins that are not constrained for maximum delay.\n\n"
    append t "Design Timing Summary\n| -----\n    WNS(ns)      TNS(ns)      WHS(ns)      THS(ns)     WPWS(ns)     TPWS(ns)\n"
    append t [format "    %7.3f      %7.3f      %7.3f      %7.3f      %7.3f      %7.3f\n\n" $wns 0 $whs 0 $wpws 0]
    append t [expr {$met ? "All user specified timing constraints are met." : "Timing constraints are not met."}]
    append t "\n"
    if {[lsearch $args -return_string] >= 0} { return $t }
}
proc make_wrapper {args} {
    rec make_wrapper {*}$args
    set f [file join $::project_dir system.gen sources_1 bd system hdl system_wrapper.v]
    file mkdir [file dirname $f]
    set fh [open $f w]
    puts $fh "module system_wrapper ();\nendmodule"
    close $fh
    return $f
}

# --- Runs ------------------------------------------------------------------------------

proc get_runs {args} {
    if {[lindex $args 0] eq "-filter"} { return {synth_1 core_synth_1} }
    return [lindex $args end]
}
proc run_dir {run} { return [file join $::project_dir system.runs $run] }
proc get_property {prop obj} {
    switch -- $prop {
        PROGRESS { return 100% }
        STATUS { return "route_design Complete!" }
        DIRECTORY { return [run_dir $obj] }
        SLACK {
            set bad [expr {[info exists ::env(HDLGEN_REC_TIMING)] ? $::env(HDLGEN_REC_TIMING) : ""}]
            if {$obj eq "setup_path"} { return [expr {$bad eq "setup" ? -0.120 : 1.234}] }
            if {$obj eq "hold_path"} { return [expr {$bad eq "hold" ? -0.021 : 0.045}] }
            fail "get_property SLACK of $obj"
        }
    }
    if {[string match CONFIG.* $prop]} { return [cfg [string trimleft $obj /] [string range $prop 7 end] ""] }
    fail "get_property $prop"
}
proc get_timing_paths {args} {
    if {[lsearch $args -hold] >= 0} { return hold_path }
    if {[lsearch $args -setup] >= 0} { return setup_path }
    fail "get_timing_paths without -setup or -hold: $args"
}
proc launch_runs {args} {
    rec launch_runs {*}$args
    set run [lindex $args 0]
    file mkdir [run_dir $run]
    if {$run eq "synth_1"} { synth_log }
    if {$run eq "impl_1"} { close [open [file join [run_dir impl_1] system_wrapper.bit] w] }
}
proc wait_on_run {args} { rec wait_on_run {*}$args }
proc write_hw_platform {args} {
    rec write_hw_platform {*}$args
    close [open [lindex $args end] w]
}

# synth_log writes the messages synthesis of the module reference would, in
# its run directory: one "read successfully" per .mem file in the MemDir its
# wrapper passes (a relative MemDir from the run directory).
proc synth_log {} {
    set memdir ""
    foreach f $::files {
        if {[file extension $f] ne ".v"} { continue }
        set fh [open $f r]
        set t [read $fh]
        close $fh
        regexp {\.MemDir\("([^"]*)"\)} $t -> memdir
    }
    set dir [run_dir core_synth_1]
    file mkdir $dir
    set fh [open [file join $dir runme.log] w]
    if {$memdir ne ""} {
        foreach m [lsort [glob -nocomplain -directory [file join $dir $memdir] *.mem]] {
            if {[info exists ::env(HDLGEN_REC_SKIP_MEM)] && [file tail $m] eq $::env(HDLGEN_REC_SKIP_MEM)} { continue }
            puts $fh "INFO: \[Synth 8-3876\] \$readmem data file '$m' is read successfully"
        }
    }
    close $fh
}

# --- Run the script and dump the model ---------------------------------------------------

proc dump_model {path err} {
    set fh [open $path w]
    foreach c [lsort [array names ::cell_vlnv]] {
        puts $fh [join [list cell $c $::cell_type($c) $::cell_vlnv($c)] \t]
        dict for {k v} $::cell_cfg($c) { puts $fh [join [list config $c $k $v] \t] }
        if {[catch {ip_model $c} m]} { continue }
        lassign $m pins intfs
        dict for {p v} $pins { puts $fh [join [list pin $c/$p {*}$v] \t] }
        dict for {i v} $intfs { puts $fh [join [list intf $c/$i {*}$v] \t] }
    }
    foreach p [lsort [array names ::ports]] { puts $fh [join [list port $p {*}$::ports($p)] \t] }
    foreach id $::nets { puts $fh [join [concat net $id $::net_pins($id)] \t] }
    foreach n $::intf_nets { puts $fh [join [concat intfnet $n] \t] }
    foreach a $::addrs { puts $fh [join [concat addr $a] \t] }
    foreach f $::files { puts $fh [join [list file $f] \t] }
    if {$::project_board ne ""} { puts $fh [join [list board $::project_board] \t] }
    foreach c $::cmds { puts $fh [join [concat cmd $c] \t] }
    if {$err ne ""} { puts $fh [join [list error [string map {\n " " \t " "} $err]] \t] }
    close $fh
}

set rc [catch {source $script} err]
if {!$rc} { set err "" }
dump_model $dump $err
if {$rc} {
    puts stderr $::errorInfo
    exit 1
}
