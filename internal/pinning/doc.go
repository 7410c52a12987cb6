// Package pinning fingerprints MCP tool definitions, so that a definition
// a server changes after it was reviewed (a "rug pull") is noticed.
//
// A tool's pinned definition is its name, title, description,
// inputSchema, outputSchema, annotations and _meta. [Canonical] writes them as canonical JSON:
// object keys sorted at every depth, no insignificant whitespace, numbers
// as written, HTML characters unescaped, empty parts left out. [Hash] is
// the hex SHA-256 of that text, so two definitions that differ only in key
// order or spacing hash equal, and any other change, one character of a
// parameter's description included, changes the hash.
//
//	h := pinning.Hash(tool)                  // "3f1a…", 64 hex digits
//	changes := pinning.Diff(locked, current) // field by field
//
// [Diff] compares two canonical definitions field by field and names each
// change by its JSON pointer, such as /inputSchema/properties/q/description.
//
// The lock file that stores the hashes is read and validated by package
// config (config.Lock); this package only computes and compares.
package pinning
