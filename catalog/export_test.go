package catalog

// LexiconEntryForTest is a built-in lexicon entry as analyzed.
type LexiconEntryForTest struct {
	When [][]string
	Add  []string
}

// LexiconForTest exposes the analyzed built-in lexicon to lint it.
func LexiconForTest() []LexiconEntryForTest {
	var out []LexiconEntryForTest
	for _, e := range builtinLexicon() {
		out = append(out, LexiconEntryForTest{When: e.when, Add: e.add})
	}
	return out
}

// HashChannelForTest exposes the #channel sigil check.
func HashChannelForTest(q string) bool { return hashChannel(q) }
