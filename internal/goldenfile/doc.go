// Package goldenfile compares test output with files under testdata and
// rewrites them when tests run with -update. Model-facing text is API in
// mcpfleet, so every package pins its texts this way; this is the one copy
// of the mechanism. Only test code imports it.
package goldenfile
