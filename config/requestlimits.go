package config

import "fmt"

// Defaults and bounds of the request_limits section. The gateway applies
// them; config only checks the file.
const (
	DefaultRequestBodyBytes   = 4 << 20
	DefaultQueryBytes         = 8 << 10
	DefaultDescribeNames      = 50
	DefaultGrepPatternBytes   = 512
	MaxGrepPatternBytes       = 512 // the Mux refuses longer grep patterns itself
	maxRequestLimitBodyBytes  = 1 << 30
	maxRequestLimitQueryBytes = 1 << 20
	maxRequestLimitNames      = 10_000
)

// RequestLimits bounds what one client may send to mcpfleet serve, since a
// shared gateway serves many callers. Each refusal tells the caller the
// limit and the size it sent. A zero field means its default; serve's
// flags of the same names override the file.
type RequestLimits struct {
	// BodyBytes bounds a /mcp request body; a larger one gets HTTP 413
	// before it is read whole (0 = DefaultRequestBodyBytes, 4 MiB).
	BodyBytes int64 `koanf:"body_bytes" json:"body_bytes,omitempty"`
	// QueryBytes bounds a searchTools query (0 = DefaultQueryBytes, 8 KiB).
	QueryBytes int `koanf:"query_bytes" json:"query_bytes,omitempty"`
	// DescribeNames bounds the names of one describeTools call
	// (0 = DefaultDescribeNames, 50).
	DescribeNames int `koanf:"describe_names" json:"describe_names,omitempty"`
	// GrepPatternBytes bounds a grepResult pattern
	// (0 = DefaultGrepPatternBytes, 512; at most MaxGrepPatternBytes).
	GrepPatternBytes int `koanf:"grep_pattern_bytes" json:"grep_pattern_bytes,omitempty"`
}

// validate checks each limit is within its bounds; a problem names the
// nearest valid value.
func (r RequestLimits) validate(add func(Problem)) {
	check := func(field string, v, hi int64, def string) {
		switch {
		case v < 0:
			add(Problem{Server: "request_limits", Field: field, Value: fmt.Sprint(v),
				Want: fmt.Sprintf("a number from 1 to %d (0 or leaving it out means %s)", hi, def), Hint: "0"})
		case v > hi:
			add(Problem{Server: "request_limits", Field: field, Value: fmt.Sprint(v),
				Want: fmt.Sprintf("a number from 1 to %d", hi), Hint: fmt.Sprint(hi)})
		}
	}
	check("body_bytes", r.BodyBytes, maxRequestLimitBodyBytes, "4194304, 4 MiB")
	check("query_bytes", int64(r.QueryBytes), maxRequestLimitQueryBytes, "8192")
	check("describe_names", int64(r.DescribeNames), maxRequestLimitNames, "50")
	check("grep_pattern_bytes", int64(r.GrepPatternBytes), MaxGrepPatternBytes, "512")
}
