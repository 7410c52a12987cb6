package search

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLexiconTriggers: every built-in trigger analyzes to words (a
// trigger of punctuation alone would fire on every request) and no
// trigger sits in two entries.
func TestLexiconTriggers(t *testing.T) {
	seen := map[string]int{}
	for i, e := range builtinLexicon() {
		for _, w := range e.when {
			if len(w) == 0 {
				t.Errorf("entry %d: a trigger analyzes to nothing", i)
			}
			k := strings.Join(w, " ")
			if j, ok := seen[k]; ok && j != i {
				t.Errorf("trigger %q is in entries %d and %d", k, j, i)
			}
			seen[k] = i
		}
		if len(e.add) == 0 {
			t.Errorf("entry %d adds nothing", i)
		}
	}
}

func TestSigilRunes(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"#payments", true}, {"#über-alerts", true}, {"see #—", false}, {"a#b", false}, {"(#ops)", true}, {"#", false},
	} {
		if got := hashChannel(tc.q); got != tc.want {
			t.Errorf("hashChannel(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// TestLexiconEveryday holds the lexicon to "no ops reading of everyday
// words": on 500 everyday requests to an assistant (cooking, travel,
// shopping, a browser, a to-do list; testdata/everyday.txt, written by
// someone who had not seen the lexicon), a trigger may fire only where
// its expansion is what the everyday sentence means too. Those are
// listed here with an example; any other trigger that fires fails.
func TestLexiconEveryday(t *testing.T) {
	generic := map[string]string{
		"how many":   "How many boxes will I need? (count)",
		"is ther":    "Is there parking near the theatre? (search)",
		"how long":   "How long will it take to drive? (dates)",
		"don":        "Mark the task as done (transition status)",
		"valid":      "Is my passport still valid? (validate)",
		"get rid of": "get rid of slugs (delete)",
		"edit":       "edit the second version of my story (history version)",
		"version":    "edit the second version of my story (history version)",
		"what chang": "tell me what changed between the drafts (diff changes)",
		"comment":    "write a comment on the report card (note)",
		"mention":    "Did Jo mention it in her last message? (search messages)",
	}
	b, err := os.ReadFile(filepath.Join("testdata", "everyday.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) < 500 {
		t.Fatalf("everyday.txt has %d requests, want 500", len(lines))
	}
	fired := map[string]bool{}
	firing := 0
	for _, q := range lines {
		trs := LexiconTriggers(q)
		if len(trs) > 0 {
			firing++
		}
		for _, tr := range trs {
			fired[tr.Phrase] = true
			if _, ok := generic[tr.Phrase]; !ok {
				t.Errorf("trigger %q (→ %v) reads an everyday request as ops: %q", tr.Phrase, builtinLexicon()[tr.Entry].add, q)
			}
		}
	}
	t.Logf("%d of %d everyday requests fire the lexicon, through %d triggers", firing, len(lines), len(fired))
	// The list stays honest: a reading that no longer fires leaves it.
	for p := range generic {
		if !fired[p] {
			t.Errorf("%q no longer fires on everyday requests; remove it from the list", p)
		}
	}
}

// TestContractions: "don't" is "do not", not the stem of "done" and a
// stray "t", so it fires no transition; "won't merge" still matches its
// trigger, which is analysed the same way.
func TestContractions(t *testing.T) {
	for _, q := range []string{"why don't we check the plan", "I don’t know"} {
		for _, tr := range LexiconTriggers(q) {
			if tr.Phrase == "don" {
				t.Errorf("%q fires %q", q, tr.Phrase)
			}
		}
	}
	if got := strings.Join(rawTerms("don't"), " "); got != "do not" {
		t.Errorf(`rawTerms("don't") = %q, want "do not"`, got)
	}
	found := false
	for _, tr := range LexiconTriggers("this MR won't merge") {
		found = found || builtinLexicon()[tr.Entry].add[0] == "conflict"
	}
	if !found {
		t.Errorf(`"won't merge" fires no conflicts entry`)
	}
}

// TestNearWords: an everyday trigger of nearLexicon fires with the thing
// its ops reading is about, and not without it.
func TestNearWords(t *testing.T) {
	health := func(q string) bool {
		for _, tr := range LexiconTriggers(q) {
			if slices.Contains(builtinLexicon()[tr.Entry].add, "health") {
				return true
			}
		}
		return false
	}
	for q, want := range map[string]bool{
		"is the log cluster red":          true,
		"opensearch went yellow, shards?": true,
		"remove red eye from the photos":  false,
		"is it ok to take my dog":         false,
	} {
		if got := health(q); got != want {
			t.Errorf("%q fires health: %v, want %v", q, got, want)
		}
	}
}
