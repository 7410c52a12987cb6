package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Deferred modes for [Deferred.Mode].
const (
	DeferredOn   = "on"
	DeferredOff  = "off"
	DeferredAuto = "auto"
)

// Deferred is a parsed deferred_tools setting.
type Deferred struct {
	Mode string // DeferredOn, DeferredOff or DeferredAuto
	// For auto: defer when all tool definitions exceed Percent of the
	// context window, or Tokens tokens. Both zero means the consumer's own
	// threshold ("auto" alone).
	Percent float64
	Tokens  int
}

// ParseDeferred parses on, off, auto, auto:N% (0 < N <= 100) or auto:N
// (a token count > 0). "" is auto.
func ParseDeferred(s string) (Deferred, error) {
	switch s {
	case "", DeferredAuto:
		return Deferred{Mode: DeferredAuto}, nil
	case DeferredOn, DeferredOff:
		return Deferred{Mode: s}, nil
	}
	arg, ok := strings.CutPrefix(s, "auto:")
	if !ok {
		return Deferred{}, fmt.Errorf("config: deferred_tools %q: want on, off, auto, auto:N%% or auto:N", s)
	}
	if num, pct := strings.CutSuffix(arg, "%"); pct {
		p, err := strconv.ParseFloat(num, 64)
		if err != nil || !(p > 0 && p <= 100) {
			return Deferred{}, fmt.Errorf("config: deferred_tools %q: want a percentage in (0, 100]", s)
		}
		return Deferred{Mode: DeferredAuto, Percent: p}, nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n <= 0 {
		return Deferred{}, fmt.Errorf("config: deferred_tools %q: want a token count > 0", s)
	}
	return Deferred{Mode: DeferredAuto, Tokens: n}, nil
}

// Deferred returns the parsed deferred_tools setting; an invalid value,
// which Validate reports, reads as auto.
func (f *Fleet) Deferred() Deferred {
	d, err := ParseDeferred(f.DeferredTools)
	if err != nil {
		return Deferred{Mode: DeferredAuto}
	}
	return d
}

// OffloadTokens is the kind's offload threshold: results above this many
// tokens leave the context. Unset means DefaultOffloadTokens.
func (f *Fleet) OffloadTokens(kind string) int {
	if n := f.Settings(kind).OffloadTokens; n > 0 {
		return n
	}
	return DefaultOffloadTokens
}
