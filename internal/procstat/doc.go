// Package procstat reads the memory figures of the running process from
// /proc/self/status (Linux), for the benchmarks that report resident
// memory, and its open files:
//
//	rss := procstat.MiB("VmRSS")   // resident now
//	peak := procstat.MiB("VmHWM")  // resident at its peak
//	anon := procstat.MiB("RssAnon") // the anonymous part of rss
//
// Elsewhere, or for a field the kernel does not report, MiB returns 0.
// OpenIn lists the process's open files under a folder (/proc/self/fd),
// for tests that check a file is closed.
package procstat
