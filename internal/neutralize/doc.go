// Package neutralize defuses text in tool output that imitates instructions,
// role turns, chat-template tokens or tool calls, by escaping it in place so
// that it stays readable as data and can no longer pass for a turn of the
// conversation.
//
// Nothing is deleted: each suspicious span is wrapped as "[defused: …]", and
// angle brackets inside it become ‹ › so that a fake closing tag cannot end
// the envelope the multiplexer puts around tool output. The patterns are
// heuristics tuned for recall on known injection phrasings; a false positive
// costs a few bracket characters, never data.
//
// # JSON
//
// Tool output is often JSON, which a model reads decoded. A text that holds
// JSON string escapes is therefore also scanned as decoded: <system> spelt
// "\u003csystem\u003e", a turn after an escaped "\n", a phrase whose first
// letter is "\u0069", a tool call nested in a string as {\"tool_calls\": …}.
// The spans found there are defused where they are written, escapes and
// all: "\u003c" becomes "\u2039" (‹), so that the span decodes to no
// markup either, and every byte outside the spans is kept.
//
// JSON inside a JSON string is escaped twice: <system> becomes
// "\\u003csystem\\u003e". A text whose decoded copy still holds escapes
// is decoded once more, and the spans are found there; an escape two
// levels down that decodes to markup becomes, in a defused span, the same
// escape of its look-alike ("\\u2039"). Decoding stops at two levels:
// three-fold escaping is rare in tool output, and each level turns more
// plain backslashes (Windows paths, regexes) into newlines and tabs.
//
// # HTML entities
//
// Web pages, Confluence storage format and Jira HTML write markup as
// entities, and a model reads &lt;system&gt; as <system>. The decoded copy
// decodes the common spellings as well: &lt; &gt; &amp; &quot; &apos; (the
// first four in upper case too), &#NN; and &#xHH;, each with its ";". They
// sit on the same level as JSON escapes, so a JSON string that holds
// "&lt;system&gt;" is caught, and "\u0026lt;" (Go's JSON encoder escapes
// "&") or "&amp;lt;" is caught on the second level. In a
// defused span, an entity of < > | becomes the entity of its look-alike
// (&#8249; &#8250; &#166;), and &quot; delimits a tool call's strings as
// \" does.
//
// Tool-call and turn JSON ({"tool_calls": …}, {"name": "x", "arguments": …},
// "type": "tool_use" or "tool_result", "role": "assistant" followed by
// "content") is defused inside its strings: {"name": "[defused: x]", …}, so
// that valid JSON stays valid JSON. [ImitationKeys] finds the same shapes in
// a decoded JSON object, for callers that defuse values rather than text.
//
// # Tool definitions
//
// [Neutralizer.Inspect] and [Neutralizer.InspectSubject] read one text of
// a tool definition with hand-written rules and return the spans they
// flag. [Scorer] is a second, learned layer that reads a whole
// definition, its description and every schema text, as [Part] values:
//
//	sc, err := neutralize.DefaultScorer() // the embedded model
//	v := sc.ScoreAmong(tool.Name, serverToolNames, parts)
//	if v.Flagged { /* v.Finding is the sentence with the highest score */ }
//
// [Scorer.ScoreAmong] takes the names of the tools the server lists
// beside the tool, so that naming one of them reads as the server's own
// workflow; [Scorer.Score] knows none.
//
// A definition counts as poisoned when a rule fires or the score passes
// the model's threshold. The scorer is for definitions only; tool output
// is read by the rules alone. The model (scorer.bin) is trained by
// TRAIN=1 go test -run TestTrainScorer from the sets in testdata and the
// real fixture definitions, and its threshold sits above every fixture
// sentence. Its measured figures are in docs/pinning.md.
package neutralize
