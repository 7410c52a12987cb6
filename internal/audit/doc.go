// Package audit writes the audit log: one JSON line per tool call, saying
// who called what and how it ended, never with the arguments themselves
// (a SHA-256 of their canonical JSON stands for them).
//
// The file is append-only and safe against a process dying mid-write: each
// line is a single write(2) to a file opened with O_APPEND, made under one
// lock, so lines never interleave; and Open cuts a torn last line (a write
// the kernel had only partly done when the process was killed) before
// appending, so every line of the file parses. It rotates by size: path.1
// is the newest rotated file, path.N the oldest kept.
//
// A killed process loses nothing the kernel had accepted; a machine crash
// loses what the kernel had not yet written to disk. Config.Sync chooses
// how much that may be: SyncAlways fsyncs every line (one fsync per call),
// SyncInterval (the default) fsyncs in the background at most a second
// after a line and at rotation and Close, SyncNever leaves it to the
// operating system.
//
// A Mux opens one when the fleet file says audit: {path: …}.
package audit
