package search

import "strings"

// Required values: near twins differ in what a call to them needs.
// create_remote_link needs a URL where create_link needs two issues;
// add_worklog needs the time spent where get_worklog needs none. A
// request that carries no such value ("link this bug to the postmortem
// ticket") is not asking for the tool that cannot be called without
// one. value.go reads the other direction: a value the request carries
// that a tool takes no parameter for.
//
// Only a parameter named for a value type counts (url, path, email, ip,
// width, duration; by the last word of its name, so icon_url takes a URL
// and link_type none), and only where some tool of its kind does not
// require that type: then the kind's tools requiring it are twins of
// tools that do not. The request fills the parameter with a value of the
// type, or by saying the parameter's words ("the runbook URL", "the time
// spent"), or a unit of time for a duration ("2.5 hours").

// requiredMiss multiplies the lexical score of a tool that requires a
// value type the request does not give.
const requiredMiss = 0.65

// durationWords are the terms of time units: "log 2.5 hours" gives a
// duration as two words.
var durationWords = terms("seconds minutes mins hours hrs days weeks")

// reqValue is one required parameter named for a value type: the type,
// and the terms whose saying fills it.
type reqValue struct {
	values valueType
	terms  []string
	// ids are terms numbered by index.names.
	ids []int32
}

// requiredNames returns the names of a schema's top-level required
// parameters, from the schema parsed as schemaText parses it. It reads
// "required" as decoding it into a []string field would: the key
// matched without regard to case, a null item as "", and no names at
// all if the value is not a list of strings.
func requiredNames(schema map[string]any) []string {
	v, ok := schema["required"]
	if !ok {
		for k, x := range schema {
			if strings.EqualFold(k, "required") {
				v, ok = x, true
				break
			}
		}
	}
	if !ok || v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, len(list))
	for i, x := range list {
		switch x := x.(type) {
		case string:
			out[i] = x
		case nil:
		default:
			return nil
		}
	}
	return out
}

// requiredValues returns, per tool, the required parameters named for a
// value type that some tool of its kind does not require; nil for most
// tools. required are each entry's required parameters (requiredNames).
func requiredValues(entries []Doc, required [][]string) [][]reqValue {
	out := make([][]reqValue, len(entries))
	needs := map[string]valueType{} // kind -> types every tool so far requires
	seen := map[string]bool{}
	for i, e := range entries {
		var all valueType
		for _, n := range required[i] {
			ws := nameWords(n)
			if len(ws) == 0 {
				continue
			}
			// The head word says the type: time_spent takes a duration,
			// icon_url a URL, link_type no URL.
			p := reqValue{values: paramTypes[strings.ToLower(ws[len(ws)-1])]}
			if p.values == 0 {
				continue
			}
			all |= p.values
			p.terms = terms(n)
			if p.values&valueDuration != 0 {
				p.terms = append(p.terms, durationWords...)
			}
			out[i] = append(out[i], p)
		}
		if !seen[e.Kind] {
			seen[e.Kind] = true
			needs[e.Kind] = all
		} else {
			needs[e.Kind] &= all
		}
	}
	// A type every tool of the kind requires tells no twins apart.
	for i, e := range entries {
		var keep []reqValue
		for _, p := range out[i] {
			if p.values&^needs[e.Kind] != 0 {
				keep = append(keep, p)
			}
		}
		out[i] = keep
	}
	return out
}

// givenValues returns the value types a request gives to a required
// parameter: those it carries (requestValues), and a path for any
// slash-separated word ("kv put secret/app/redis", "the diff of
// web/storefront"), which value.go leaves out, since it is as often a
// project or an object's name as a file.
func givenValues(query string, carried valueType) valueType {
	if carried&valueFile == 0 && strings.Contains(query, "/") {
		for f := range strings.FieldsSeq(query) {
			w := strings.Trim(f, ".,;:!?()[]\"'`")
			if i := strings.IndexByte(w, '/'); i > 0 && i < len(w)-1 && !strings.Contains(w, "://") {
				return carried | valueFile
			}
		}
	}
	return carried
}

// filled reports whether the request q gives a value for p; said is
// q's weight of each numbered word (nameVocab.said).
func (p reqValue) filled(q *analyzed, said []float64) bool {
	if p.values&q.given != 0 {
		return true
	}
	for _, s := range p.ids {
		if said[s] > 0 {
			return true
		}
	}
	return false
}

// requiredFactor is the multiplier for a tool that requires ps, for the
// request q whose word weights are said.
func requiredFactor(ps []reqValue, q *analyzed, said []float64) float64 {
	for _, p := range ps {
		if !p.filled(q, said) {
			return requiredMiss
		}
	}
	return 1
}
