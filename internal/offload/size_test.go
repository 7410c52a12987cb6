package offload

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
)

// compactJSON is v as the multiplexer encodes structuredContent: compact,
// HTML escaping off.
func compactJSON(t testing.TB, v any) ([]byte, error) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func TestJSONSize(t *testing.T) {
	tests := []struct {
		name string
		v    any
	}{
		{"null", nil},
		{"bools", []any{true, false}},
		{"escapes", "a\"b\\c\n\r\t\b\f\x01\x1f<>&\x7f"},
		{"unicode", "héllo 世界 \u2028\u2029 \xff\xfe end"},
		{"floats", []any{0.0, -0.0, 1.0, 1.5, 1e-7, 1e-6, 123456789.0, 1e20, 1e21, 1.23e-300, -4.2e100, math.MaxFloat64, math.SmallestNonzeroFloat64}},
		{"ints", []any{0, -1, int64(math.MaxInt64), int64(math.MinInt64)}},
		{"numbers", []any{json.Number("12.50"), json.Number("")}},
		{"empty containers", map[string]any{"m": map[string]any{}, "s": []any{}, "nm": map[string]any(nil), "ns": []any(nil)}},
		{"nested", map[string]any{"rows": []any{map[string]any{"pod": "api-1", "restarts": 17.0, "ok": true, "k\"ey": nil}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := compactJSON(t, tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if got := JSONSize(tc.v, math.MaxInt); got != len(want) {
				t.Errorf("JSONSize = %d, want %d (%s)", got, len(want), want)
			}
		})
	}
}

// TestJSONSizeUnknown: values the walk cannot measure say so instead of
// guessing.
func TestJSONSizeUnknown(t *testing.T) {
	for name, v := range map[string]any{
		"struct":    struct{ A int }{1},
		"NaN":       map[string]any{"x": math.NaN()},
		"Inf":       []any{math.Inf(1)},
		"typed map": map[string]string{"a": "b"},
	} {
		if got := JSONSize(v, math.MaxInt); got != -1 {
			t.Errorf("%s: JSONSize = %d, want -1", name, got)
		}
	}
}

// TestJSONSizeLimit: the walk stops soon after passing limit, and reports
// a length over it.
func TestJSONSizeLimit(t *testing.T) {
	rows := make([]any, 100_000)
	for i := range rows {
		rows[i] = map[string]any{"pod": "api", "phase": "Running"}
	}
	v := map[string]any{"rows": rows}
	if got := JSONSize(v, 1000); got <= 1000 || got > 1100 {
		t.Errorf("JSONSize(limit 1000) = %d, want just over 1000", got)
	}
}

// TestJSONSizeFixtures measures real tool lists, decoded the way mcp-go
// decodes structuredContent.
func TestJSONSizeFixtures(t *testing.T) {
	dir := fixtures.Dir()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if dir == "" || len(files) == 0 {
		t.Skipf("no tool fixtures (looked in %q)", dir)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, err := compactJSON(t, v)
		if err != nil {
			t.Fatal(err)
		}
		if got := JSONSize(v, math.MaxInt); got != len(want) {
			t.Errorf("%s: JSONSize = %d, want %d", filepath.Base(f), got, len(want))
		}
	}
}

func FuzzJSONSize(f *testing.F) {
	f.Add("plain", 1.5)
	f.Add("<system>\u2028\xff\"\\\n", 1e-9)
	f.Add("", 1e21)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		v := map[string]any{s: []any{s, x, nil, true, map[string]any{"k": s}}}
		want, err := compactJSON(t, v)
		got := JSONSize(v, math.MaxInt)
		if err != nil {
			if got != -1 {
				t.Fatalf("unencodable value measured %d", got)
			}
			return
		}
		if got != len(want) {
			t.Fatalf("JSONSize = %d, want %d (%s)", got, len(want), want)
		}
	})
}

func BenchmarkJSONSize(b *testing.B) {
	rows := make([]any, 2000)
	for i := range rows {
		rows[i] = map[string]any{"pod": "api-0001", "phase": "Running", "restarts": float64(i)}
	}
	v := map[string]any{"rows": rows}
	raw, _ := compactJSON(b, v)
	b.Run("walk", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			JSONSize(v, math.MaxInt)
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			compactJSON(b, v)
		}
	})
}
