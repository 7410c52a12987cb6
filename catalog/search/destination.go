package search

import (
	"encoding/json"
	"strings"
)

// Destinations. "Move X to Y" says where X goes, and what Y is tells
// twins apart that share the verb: an item moved to another folder goes
// to a place, one moved to "In Review" changes state. A schema says
// which values a parameter takes, in its enum or as quoted examples in
// its description ("name of the state, e.g. 'In Review', 'Closed'"). So
// when the words after "to" (or "into") are such a value of some tool,
// that tool is the one asked for, whatever the other's name says: the
// request names a value only its parameter takes. A quoted string that
// is an operand inside an expression ("status = 'Closed'" in a query
// language example) is the expression's, not a value of the parameter.

// destHit multiplies the lexical score of a tool one of whose parameters
// takes the value the request says it moves something to.
const destHit = 1.4

// destWords is the longest destination looked up, in words: state and
// option names are short ("In Review", "Won't Fix").
const destWords = 3

// destPrepositions open a destination: "move it to Done", "put it into
// In Review".
var destPrepositions = map[string]bool{"to": true, "into": true}

// destStops end a destination where no punctuation does: a conjunction
// or a preposition opens the next phrase ("to Done and assign it",
// "to Closed for now"). Not "in", which begins state names ("In
// Review").
var destStops = map[string]bool{
	"and": true, "or": true, "but": true, "so": true, "then": true, "because": true, "since": true,
	"for": true, "with": true, "on": true, "at": true, "by": true, "from": true, "as": true,
	"if": true, "when": true, "please": true,
}

// determiners open a noun phrase that is not in nounBefore: "to a
// new board", "to an archive".
var determiners = map[string]bool{"a": true, "an": true, "another": true, "some": true}

// destinationIndex maps each value some tool's parameters take (enum
// values and quoted examples, as destKey writes it) to those tools.
func destinationIndex(entries []Doc) map[string][]int32 {
	out := map[string][]int32{}
	for i, e := range entries {
		seen := map[string]bool{}
		for _, v := range schemaValues(e.Schema) {
			k := destKey(v)
			if k == "" || seen[k] {
				continue
			}
			seen[k] = true
			out[k] = append(out[k], int32(i))
		}
	}
	return out
}

// destKey is how a value is looked up: its terms (stemmed, stopwords
// dropped) joined by spaces; "" for a value with no letter or no term,
// or longer than destWords words.
func destKey(v string) string {
	if !strings.ContainsFunc(v, isLetter) || len(strings.Fields(v)) > destWords {
		return ""
	}
	return strings.Join(terms(v), " ")
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// schemaValues returns the values a schema's parameters name: their
// enum strings and the quoted strings of their descriptions.
func schemaValues(raw json.RawMessage) []string {
	var out []string
	for _, vs := range paramValues(raw) {
		out = append(out, vs...)
	}
	return out
}

// paramValues returns the values each parameter of a schema names (see
// schemaValues), a list per parameter.
func paramValues(raw json.RawMessage) [][]string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out [][]string
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 6 {
			return
		}
		props, _ := m["properties"].(map[string]any)
		for _, p := range props {
			pm, ok := p.(map[string]any)
			if !ok {
				continue
			}
			var vs []string
			if d, ok := pm["description"].(string); ok {
				vs = append(vs, quotedValues(d)...)
			}
			if en, ok := pm["enum"].([]any); ok {
				for _, x := range en {
					if s, ok := x.(string); ok {
						vs = append(vs, s)
					}
				}
			}
			if vs != nil {
				out = append(out, vs)
			}
			walk(pm, depth+1)
		}
		walk(m["items"], depth+1)
	}
	walk(v, 0)
	return out
}

// quotedValues returns the strings a description quotes ('…', "…" or
// `…`) as values: not those an operator or a key precedes, which are
// operands of an expression ("status = 'Done'") or values of an example
// object ({"name": "High"}).
func quotedValues(desc string) []string {
	var out []string
	for i := 0; i < len(desc); i++ {
		c := desc[i]
		if c != '\'' && c != '"' && c != '`' {
			continue
		}
		// An apostrophe inside a word ("issue's") opens no quote.
		if c == '\'' && i > 0 && isLetter(rune(desc[i-1])) {
			continue
		}
		j := strings.IndexByte(desc[i+1:], c)
		if j < 0 {
			break
		}
		val := desc[i+1 : i+1+j]
		if !operand(desc[:i]) && len(val) <= 40 {
			out = append(out, val)
		}
		i += j + 1
	}
	return out
}

// operand reports whether a quote opened after before is an operand:
// the last non-space character before it is a comparison or a key's
// colon ("= 'x'", "~ 'x'", `"name": "x"`).
func operand(before string) bool {
	b := strings.TrimRight(before, " ")
	if b == "" {
		return false
	}
	switch b[len(b)-1] {
	case '=', '<', '>', '~':
		return true
	case ':':
		k := strings.TrimRight(b[:len(b)-1], " ")
		return k != "" && (k[len(k)-1] == '"' || k[len(k)-1] == '\'')
	}
	return false
}

// destVerbReach is how many words before "to" the verb that moves may
// stand: "move the OPS ticket to Done".
const destVerbReach = 4

// movedHere reports whether the "to" of words[at] follows, in its
// clause, a change verb the request asks for ("move OPS-4 to Done") or
// one in -ing ("ack it, moving it to In Review"), rather than telling
// what happened ("when it flipped to In Review").
func movedHere(words []string, at int) bool {
	ws := make([]string, at)
	for i, w := range words[:at] {
		ws[i] = strings.ToLower(strings.Trim(w, ",.;:!?()[]\"'`"))
	}
	for i := at - 1; i >= max(0, at-destVerbReach); i-- {
		if strings.ContainsAny(words[i][len(words[i])-1:], ",.;:!?") {
			return false
		}
		w := ws[i]
		if requestVerbs[w] != 0 && asked(ws, i) {
			return true
		}
		if b, ok := strings.CutSuffix(w, "ing"); ok && (requestVerbs[b] != 0 || requestVerbs[b+"e"] != 0) {
			return true
		}
	}
	return false
}

// destinationDocs returns the tools that take a value the request says
// it moves something to ("to In Review"), or nil.
func (ix *index) destinationDocs(query string) map[int32]bool {
	if len(ix.destinations) == 0 {
		return nil
	}
	words := strings.Fields(query)
	var out map[int32]bool
	for i, w := range words {
		if !destPrepositions[strings.ToLower(w)] || !movedHere(words, i) {
			continue
		}
		// A value is named bare ("to Done"); after a determiner the
		// words name a thing ("to the ticket"), whatever value of some
		// parameter they spell.
		if i+1 < len(words) {
			if next := strings.ToLower(words[i+1]); nounBefore[next] || determiners[next] {
				continue
			}
		}
		var phrase []string
		for _, x := range words[i+1:] {
			bare := strings.TrimRight(x, ",.;:!?)")
			if len(phrase) == destWords || destStops[strings.ToLower(bare)] {
				break
			}
			phrase = append(phrase, bare)
			for _, d := range ix.destinations[destKey(strings.Join(phrase, " "))] {
				if out == nil {
					out = map[int32]bool{}
				}
				out[d] = true
			}
			if bare != x {
				break
			}
		}
	}
	return out
}
