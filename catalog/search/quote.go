package search

import (
	"strings"
	"unicode"
)

// Quoted text. What a request puts in quotation marks is a value it
// gives, written as the user wants it kept: an issue's title ("titled
// 'Redis failover runbook is out of date'"), a commit message, a comment,
// a search string ("logs for 'payment declined'"), a name ('checkout-prod').
// Its words say what the value is about, not which tool is asked for:
// "with the message 'roll back search to 2.18.3'" asks for a commit, not
// for a rollback or a search. Like the words of identifiers, the words
// said only inside quotes weigh identWeight.

// quotedTerms returns the terms query says only inside quotation marks:
// '…', "…", ‘…’ or “…”. A single quote opens only where a word could
// begin (not "it's") and closes only where one ends (not "'s").
func quotedTerms(query string) map[string]bool {
	if !strings.ContainsAny(query, "'\"‘“") {
		return nil
	}
	rs := []rune(query)
	var in, out strings.Builder
	var open rune // the quote that opened the span, 0 outside one
	for i, r := range rs {
		prevWord := i > 0 && (unicode.IsLetter(rs[i-1]) || unicode.IsDigit(rs[i-1]))
		nextWord := i+1 < len(rs) && (unicode.IsLetter(rs[i+1]) || unicode.IsDigit(rs[i+1]))
		switch {
		case open == 0 && (r == '"' || r == '“' || r == '‘' || r == '\'' && !prevWord) && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]):
			open = r
			out.WriteRune(' ')
			continue
		case open != 0 && closes(open, r) && !(r == '\'' && nextWord) && i > 0 && !unicode.IsSpace(rs[i-1]):
			open = 0
			in.WriteRune(' ')
			continue
		}
		if open != 0 {
			in.WriteRune(r)
		} else {
			out.WriteRune(r)
		}
	}
	if open != 0 {
		return nil // an unclosed quote was an apostrophe or a slip
	}
	outside := map[string]bool{}
	for _, t := range terms(out.String()) {
		outside[t] = true
	}
	var ts map[string]bool
	for _, t := range terms(in.String()) {
		if !outside[t] {
			if ts == nil {
				ts = map[string]bool{}
			}
			ts[t] = true
		}
	}
	return ts
}

// closes reports whether r closes a span opened by open.
func closes(open, r rune) bool {
	switch open {
	case '“':
		return r == '”'
	case '‘':
		return r == '’'
	}
	return r == open
}
