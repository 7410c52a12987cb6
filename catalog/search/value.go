package search

import (
	"regexp"
	"strings"
)

// Values a request carries: "open https://shop.example.com/login", "give
// it ./fixtures/invoice.pdf", "set the viewport to 375x812", "log 2h on
// OPS-77". A value of a plain type goes into a parameter named for that
// type (url, path, width, time_spent), and near twins differ there where
// their words do not: browser_navigate takes a url and browser_resize
// does not; jira_add_worklog takes a time spent and jira_get_worklog
// does not. So when a request carries a value of a type that some tools
// of a kind take, that kind's tools that take none of it score down.
// Only the schema is read: parameter names, never a server's name.

// valueMiss multiplies the lexical score of a tool whose kind has tools
// taking a value type the request carries, when it takes none.
const valueMiss = 0.5

// valueType is a set of value types, one bit each.
type valueType uint8

const (
	valueURL valueType = 1 << iota
	valueFile
	valueEmail
	valueIP
	valueSize
	valueDuration
	// valueExpr is code or a query expression (expression.go).
	valueExpr
)

// paramTypes maps a parameter name's word to the value type it takes.
var paramTypes = map[string]valueType{
	"url": valueURL, "uri": valueURL, "href": valueURL, "link": valueURL,
	"file": valueFile, "path": valueFile, "paths": valueFile, "filename": valueFile, "filepath": valueFile,
	"email": valueEmail, "emails": valueEmail,
	"ip": valueIP, "cidr": valueIP, "ips": valueIP,
	"width": valueSize, "height": valueSize,
	"duration": valueDuration, "ttl": valueDuration, "spent": valueDuration, "timeout": valueDuration,
}

var (
	urlValue      = regexp.MustCompile(`^[a-z][a-z0-9+.-]*://\S+$`)
	emailValue    = regexp.MustCompile(`^[^@\s]+@[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$`)
	ipValue       = regexp.MustCompile(`^\d{1,3}(\.\d{1,3}){3}(/\d{1,2})?$`)
	sizeValue     = regexp.MustCompile(`^\d{2,5}x\d{2,5}$`)
	durationValue = regexp.MustCompile(`^\d+(\.\d+)?(s|m|h|d|w|ms|min|mins|hr|hrs)$`)
)

// measureBefore are the words before which a duration measures a
// time window or what happened ("the last 15m", "took 9s", "per 1m"),
// rather than being a value to give ("log 2h", "snooze for 30m").
var measureBefore = map[string]bool{
	"last": true, "past": true, "next": true, "took": true, "takes": true, "taking": true,
	"over": true, "per": true, "every": true, "within": true, "than": true, "after": true,
	"since": true, "ago": true, "about": true, "around": true, "under": true, "above": true,
}

// requestValues returns the value types a request carries.
func requestValues(query string) valueType {
	var vt valueType
	if carriesExpression(query) {
		vt |= valueExpr
	}
	prev := ""
	for f := range strings.FieldsSeq(query) {
		before := prev
		prev = strings.ToLower(strings.Trim(f, ",;:!?()[]\"'`."))
		tok := strings.Trim(f, ",;:!?()[]\"'`")
		tok = strings.TrimSuffix(tok, ".")
		// Cheap tests first: most words carry no value at all.
		digit := strings.ContainsAny(tok, "0123456789")
		switch {
		case tok == "":
		case strings.Contains(tok, "://") && urlValue.MatchString(tok):
			vt |= valueURL
		case strings.Contains(tok, "@") && emailValue.MatchString(tok):
			vt |= valueEmail
		case digit && ipValue.MatchString(tok):
			vt |= valueIP
		case digit && sizeValue.MatchString(tok):
			vt |= valueSize
		case digit && !measureBefore[before] && durationValue.MatchString(strings.ToLower(tok)):
			vt |= valueDuration
		case strings.Contains(tok, "/") && (strings.HasPrefix(tok, "./") || fileName(tok)):
			vt |= valueFile
		}
	}
	return vt
}

// paramValueType returns the value types a parameter takes, by its
// name's words ("timeSpent": a duration).
func paramValueType(name string) valueType {
	var vt valueType
	ws := nameWords(name)
	for _, w := range ws {
		vt |= paramTypes[strings.ToLower(w)]
	}
	if len(ws) > 0 && exprParam(strings.ToLower(ws[len(ws)-1])) {
		vt |= valueExpr
	}
	return vt
}

// valueFactor is the multiplier for a tool that takes tool, of a kind
// whose tools take kind, for a request carrying req.
func valueFactor(req, tool, kind valueType) float64 {
	f := 1.0
	if plain := req &^ valueExpr; plain&kind&^tool != 0 && plain&tool == 0 {
		f = valueMiss
	}
	if req&kind&^tool&valueExpr != 0 {
		f *= exprMiss
	}
	return f
}
