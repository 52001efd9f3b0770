// Package proc prepares the external programs hdlgen starts (Yosys, make and
// what it runs: Verilator, the C++ compiler, the simulators) so that they
// end with hdlgen, however hdlgen ends:
//
//   - Setup puts the program in its own process group, and a cancelled
//     context (an interrupt) kills the whole group: make, its compilers and
//     the simulation, not only the direct child;
//   - on Linux the direct child also gets SIGKILL when hdlgen dies without a
//     chance to cancel anything (SIGKILL, an out-of-memory kill): the
//     kernel's parent-death signal (prctl PR_SET_PDEATHSIG). Without it a
//     killed `hdlgen build` left a running Yosys, adopted by init, writing
//     into the design's synth folder.
//
// Limits: the parent-death signal reaches the direct child only (a make
// killed this way leaves its running compiler jobs to finish, but starts no
// new one), and the kernel sends it when the OS thread that started the
// child ends; the Go runtime keeps its threads for the life of the process
// except for a goroutine that exits while locked with runtime.LockOSThread,
// so Setup's commands must not be started from such a goroutine. On other
// systems only the process group and the cancellation apply.
package proc
