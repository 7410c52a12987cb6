package judge

import (
	"errors"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/mcpfleet/mcpfleet/config"
)

// FuzzParseReply: no reply panics; each is either a *ReplyError or a
// verdict of clean (with nothing else) or poisoned (with a known class
// and bounded, valid text).
func FuzzParseReply(f *testing.F) {
	f.Add(`{"verdict":"poisoned","class":"exfiltration","evidence":"x","reason":"y"}`)
	f.Add("```json\n{\"verdict\": \"clean\"}\n```")
	f.Add(`{"verdict": 1}`)
	f.Add(`} {`)
	f.Add(`{"verdict":"POISONED","class":"Tool_Choice","evidence":"` + "\xff\xfe" + `"}`)
	f.Fuzz(func(t *testing.T, reply string) {
		v, err := parseReply(reply)
		if err != nil {
			var re *ReplyError
			if !errors.As(err, &re) || re.Field == "" {
				t.Fatalf("err %T %v is not a *ReplyError naming a field", err, err)
			}
			return
		}
		switch v.Verdict {
		case config.VerdictClean:
			if v != (config.Judgement{Verdict: config.VerdictClean}) {
				t.Fatalf("clean verdict carries more: %+v", v)
			}
		case config.VerdictPoisoned:
			if v.Class != "other" && !slices.Contains(Classes(), v.Class) {
				t.Fatalf("class %q", v.Class)
			}
			for _, s := range []string{v.Evidence, v.Reason} {
				if len(s) > maxField+len("…") || utf8.ValidString(reply) && !utf8.ValidString(s) {
					t.Fatalf("text %q is too long or cut inside a rune", s)
				}
			}
		default:
			t.Fatalf("verdict %q", v.Verdict)
		}
	})
}
