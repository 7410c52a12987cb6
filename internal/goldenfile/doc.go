// Package goldenfile compares test output with files under testdata and
// rewrites them when tests run with -update. Model-facing text is API in
// mcpfleet, so every package pins its texts this way; this is the one copy
// of the mechanism. Only test code imports it.
//
// A test that pins several texts collects them in one file:
//
//	var g goldenfile.Sections
//	g.Add("system prompt", prompt)
//	g.Add("tool search", desc)
//	goldenfile.CheckNamed(t, "text", g.String()) // testdata/text.golden
package goldenfile
