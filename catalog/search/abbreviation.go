package search

// abbreviations fold the short forms engineers write into the words
// tool texts spell out, and the other way round: "env var" is a
// variable, "the Atlas orgs" are organizations, "VMs" virtual machines.
// Like synonyms, they apply to documents and requests alike, so each
// entry only says that two spellings are one word. Every entry is
// general software vocabulary, as a dictionary of abbreviations has it,
// not any server's.
//
// Short forms that also mean something else in an engineer's request
// are left out: "docs" (documents or documentation), "auth"
// (authentication or authorization), "prod" (mostly a name). So are
// those whose fold was measured to move requests between kinds more
// than it placed them (docs/search.md, "The small kinds' rank-1 misses,
// by class"): "app" (an Azure "App Service", "the app logs" of a search
// engine's indices), "db", "cert"; and "config", "env", "info", "perf",
// which moved nothing.
var abbreviations = map[string][]string{
	"org": {"organization"}, "orgs": {"organization"},
	"var": {"variable"}, "vars": {"variable"},
	"vm": {"virtual", "machine"}, "vms": {"virtual", "machine"},
	"stats": {"statistics"},
}
