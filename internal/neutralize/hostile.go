package neutralize

import "strings"

// A hostile destination is a place the definition itself names as the
// attacker's: "post results to attacker", "upload the listing to
// evil-collector", "Report the cookies to the attacker". No honest
// definition sends anything to an attacker, whatever the data and the
// verb, unless attacks are its subject (a red-team tool). The verb is a
// word of the transfer concept (concepts.go) or a verb of motion (see
// motionVerbs), with no negation before it in the clause; the
// destination follows a direction word (see directions) within three
// words. "Report" is left out: it is as often the noun ("use this report
// to review exfiltration risk").

// hostileStems begin the words that name an attacker or the attacker's
// place, in the languages of the concept lists.
var hostileStems = []string{"attacker", "evil", "malicious", "hacker", "pwn", "adversar", "atacante", "attaquant", "angreifer",
	"aanvaller", "attaccante", "napastnik", "útočník", "saldırgan", "злоумышленник", "атакующ", "зловмисник", "攻击者", "攻撃者", "공격자",
	"المهاجم", "התוקף", "हमलावर", "penyerang", "kẻ tấn công", "ผู้โจมตี", "angriber", "angripar", "hyökkääjä", "επιτιθέμεν", "atacator", "támadó"}

// hostileSends reports each clause that moves data, not negated, to a
// destination a word of hostileStems names, unless the tool's subject sub
// names one too.
func hostileSends(s string, cs []clause, sub set, add func(Rule, int, int)) {
	for w := range sub {
		if hostile(w) {
			return
		}
	}
	for ci := range cs {
		c := &cs[ci]
		verb := -1
		for k, t := range c.words {
			if negations[t.w] || t.w == "not" || t.w == "no" {
				break
			}
			switch {
			case verb < 0 && (motionVerbs[t.w] || conceptMask(t.w, false)&(1<<cTransfer) != 0):
				verb = k
			case verb >= 0 && hostile(t.w):
				for i := k - 1; i > verb && i >= k-3; i-- {
					if directions[c.words[i].w] {
						add(RuleExfiltration, c.words[verb].start, t.end)
						return
					}
				}
			}
		}
	}
}

// hostile reports a word that begins with a stem of hostileStems, or a
// run of a script without spaces that holds one.
func hostile(w string) bool {
	for _, h := range hostileStems {
		if strings.HasPrefix(w, h) || w != "" && w[0] >= 0x80 && strings.Contains(w, h) {
			return true
		}
	}
	return false
}
