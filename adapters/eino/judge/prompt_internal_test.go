package judge

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestVisible: each rune a reader cannot see becomes an escape; text a
// reader sees, other scripts and emoji included, is left as it is.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		`"plain text, ünïcode, 日本語, 🙂"`: `"plain text, ünïcode, 日本語, 🙂"`,
		"\"a\u200bb\"":       `"a\u200bb"`,
		"\"rtl \u202eevil\"": `"rtl \u202eevil"`,
		"\"nb\u00a0space\"":  `"nb\u00a0space"`,
		"\"tag \U000E0041\"": `"tag \udb40\udc41"`,
		"\"vs \ufe0f\"":      `"vs \ufe0f"`,
	} {
		if got := string(visible([]byte(in))); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzVisible: for any valid JSON, visible returns JSON that decodes to
// the same value and holds no hidden rune.
func FuzzVisible(f *testing.F) {
	f.Add([]byte(`{"description":"a\u200bb","x":["\u202e",1]}`))
	f.Add([]byte("\"\U000E0041\ufe0f\u00a0\""))
	f.Add([]byte(`"\ud800"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var want any
		if json.Unmarshal(data, &want) != nil {
			return
		}
		out := visible(data)
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("visible(%q) = %q, which does not decode: %v", data, out, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("visible(%q) = %q decodes to %#v, want %#v", data, out, got, want)
		}
		for _, r := range string(out) {
			if hidden(r) {
				t.Fatalf("visible(%q) = %q still holds %U", data, out, r)
			}
		}
	})
}
