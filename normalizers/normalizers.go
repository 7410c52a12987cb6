package normalizers

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

// Call is one tool call as a transformer sees it.
type Call struct {
	Server, Kind, Tool string
	// Schema is the tool's input JSON schema, decoded. It may be nil or lack
	// "properties"; transformers then fall back to schema-less behaviour
	// (only the case transformers act, renaming every key).
	Schema map[string]any
	// Args are the arguments. Transformers never mutate them: they return a
	// new map that may share unchanged subtrees with Args.
	Args map[string]any
	// Separator is used by joinArrays (default " ") and splitStrings
	// (default: any run of commas and whitespace).
	Separator string
}

// Transformer repairs the arguments of one call. It returns the new
// arguments, or an error (a *Error for the built-ins) whose text can be
// shown to the model. It must not mutate call.Args.
type Transformer func(ctx context.Context, call Call) (map[string]any, error)

// Options configures [Builtins]. The zero value (or nil) gives the
// defaults.
type Options struct {
	// ResourceSingular adds plural->singular entries for
	// singularResourceType, merged over the built-in Kubernetes table. Keys
	// match case-insensitively; values should be singular forms that are not
	// themselves keys, so that the transformer stays idempotent.
	ResourceSingular map[string]string
}

// WithResourceSingular returns Options that extend the plural->singular
// table of singularResourceType with m.
func WithResourceSingular(m map[string]string) *Options {
	return &Options{ResourceSingular: maps.Clone(m)}
}

// Names of the built-in transformers. They are a contract: configuration
// files refer to them.
const (
	CamelCase            = "camelCase"
	SnakeCase            = "snakeCase"
	JoinArrays           = "joinArrays"
	SplitStrings         = "splitStrings"
	SingularResourceType = "singularResourceType"
	CoerceTypes          = "coerceTypes"
	DropUnknown          = "dropUnknown"
)

// Builtins returns a fresh registry of the built-in transformers, keyed by
// name. Callers may add their own entries to the returned map; nothing is
// shared between calls. opts may be nil.
func Builtins(opts *Options) map[string]Transformer {
	var o Options
	if opts != nil {
		o = *opts
	}
	table := resourceTable(o.ResourceSingular)
	return map[string]Transformer{
		CamelCase:            caseTransformer(CamelCase, toCamel, isCamelTarget),
		SnakeCase:            caseTransformer(SnakeCase, toSnake, isSnakeTarget),
		JoinArrays:           joinArrays,
		SplitStrings:         splitStrings,
		SingularResourceType: singularResourceType(table),
		CoerceTypes:          coerceTypes,
		DropUnknown:          dropUnknown,
	}
}

// BuiltinNames returns the names of the built-in transformers, sorted.
func BuiltinNames() []string {
	return slices.Sorted(maps.Keys(Builtins(nil)))
}

// Chain composes the named transformers of reg into one that runs them in
// order, each seeing the previous one's output. It stops at the first
// error and returns it unwrapped, so that its text reaches the model as
// written. An unknown name is an [*UnknownTransformerError].
func Chain(names []string, reg map[string]Transformer) (Transformer, error) {
	steps := make([]Transformer, 0, len(names))
	for _, n := range names {
		t, ok := reg[n]
		if !ok || t == nil {
			known := slices.Sorted(maps.Keys(reg))
			return nil, &UnknownTransformerError{Name: n, Nearest: textdist.NearestPart(n, known), Known: known}
		}
		steps = append(steps, t)
	}
	return func(ctx context.Context, call Call) (map[string]any, error) {
		for _, t := range steps {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			out, err := t(ctx, call)
			if err != nil {
				return nil, err
			}
			call.Args = out
		}
		return call.Args, nil
	}, nil
}

// Error is a repair that could not be made. Its text is addressed to the
// model, which should resend the call: it names the transformer, the JSON
// pointer of the offending location and what to send instead.
type Error struct {
	Transformer string // the built-in's name, or "fieldMap" for ApplyFieldMap
	Path        string // JSON pointer into the arguments; "" is the top level
	Msg         string
}

func (e *Error) Error() string {
	p := e.Path
	if p == "" {
		p = "(top level)"
	}
	return fmt.Sprintf("%s: at %s: %s", e.Transformer, p, e.Msg)
}

// UnknownTransformerError is returned by [Chain] for a name the registry
// does not hold. It is a configuration mistake, not a model mistake.
type UnknownTransformerError struct {
	Name    string
	Nearest string // the closest registered name, "" if none is close
	Known   []string
}

func (e *UnknownTransformerError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "normalizers: unknown transformer %q", e.Name)
	if e.Nearest != "" {
		fmt.Fprintf(&b, " (did you mean %q?)", e.Nearest)
	}
	fmt.Fprintf(&b, "; registered: %s", strings.Join(e.Known, ", "))
	return b.String()
}
