package upstream

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func cutAll(t *testing.T, in string, limit int64, oneByte bool) string {
	t.Helper()
	return readThrough(t, in, oneByte, func(r io.Reader) io.Reader { return newCutReader(r, limit) })
}

// readThrough reads in through the reader wrap makes of it, fed whole or
// one byte a read.
func readThrough(t *testing.T, in string, oneByte bool, wrap func(io.Reader) io.Reader) string {
	t.Helper()
	var r io.Reader = strings.NewReader(in)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	out, err := io.ReadAll(wrap(r))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Messages under the limit, and bytes between messages, pass through
// byte for byte, whatever the reads' sizes.
func TestCutReaderPassesSmallMessages(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a \"quoted\" \u00e9 é line\n"}],"n":[1,-2.5e3,true,null]}}` + "\n" +
		"not json {at: all}\n" +
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}` + "\n" +
		"event: message\ndata: {\"id\":\"x\",\"result\":{}}\n\n"
	for _, one := range []bool{false, true} {
		if got := cutAll(t, in, 1<<20, one); got != in {
			t.Errorf("oneByte=%v:\n got %q\nwant %q", one, got, in)
		}
	}
}

// A message over the limit is cut to valid JSON of about the limit, with
// the id kept wherever it was and the cut named in the result's _meta.
func TestCutReaderCutsLargeMessages(t *testing.T) {
	big := strings.Repeat("line é \\\"x\\\" \\u00e9\\n", 5000)
	cases := map[string]string{
		"id first":     `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + big + `"}]}}`,
		"id last":      `{"result":{"content":[{"type":"text","text":"` + big + `"}],"isError":false},"jsonrpc":"2.0","id":"r-7"}`,
		"structured":   `{"jsonrpc":"2.0","id":7,"result":{"content":[],"structuredContent":{"rows":[` + strings.Repeat(`{"a":12345,"b":"xyz"},`, 4000) + `{"a":1}]}}}`,
		"in resources": `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"resource","resource":{"uri":"file:///x","text":"` + big + `"}}]}}`,
	}
	for name, msg := range cases {
		for _, limit := range []int64{1000, 4096, 33333} {
			for _, one := range []bool{false, true} {
				in := msg + "\n" + `{"jsonrpc":"2.0","id":8,"result":{"content":[]}}` + "\n"
				got := cutAll(t, in, limit, one)
				lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
				if len(lines) != 2 {
					t.Fatalf("%s/%d: %d lines", name, limit, len(lines))
				}
				if len(lines[0]) > int(limit)+200 {
					t.Errorf("%s/%d: cut message is %d bytes", name, limit, len(lines[0]))
				}
				var m struct {
					ID     any `json:"id"`
					Result struct {
						Meta map[string]map[string]int64 `json:"_meta"`
					} `json:"result"`
				}
				if err := json.Unmarshal([]byte(lines[0]), &m); err != nil {
					t.Fatalf("%s/%d/%v: not JSON: %v\n%s", name, limit, one, err, lines[0][max(0, len(lines[0])-300):])
				}
				if m.ID == nil {
					t.Errorf("%s/%d: id lost", name, limit)
				}
				if cut := m.Result.Meta[CutMetaKey]; cut["limit"] != limit || cut["bytes"] != int64(len(msg)) {
					t.Errorf("%s/%d: _meta = %v, want limit %d bytes %d", name, limit, m.Result.Meta, limit, len(msg))
				}
				if lines[1] != `{"jsonrpc":"2.0","id":8,"result":{"content":[]}}` {
					t.Errorf("%s/%d: next message %q", name, limit, lines[1])
				}
			}
		}
	}
}

func FuzzCutReader(f *testing.F) {
	f.Add([]byte(`{"id":1,"result":{"content":[{"type":"text","text":"abc\u00e9"}]}}`), uint16(10))
	f.Fuzz(func(t *testing.T, in []byte, limit uint16) {
		out, err := io.ReadAll(newCutReader(bytes.NewReader(in), int64(limit)+1))
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(in) || bytes.ContainsAny(in, "\n") {
			return
		}
		if len(in) <= int(limit)+1 && !bytes.Equal(in, out) {
			t.Errorf("small message changed: %q -> %q", in, out)
		}
		if bytes.HasPrefix(bytes.TrimSpace(in), []byte("{")) && !json.Valid(out) {
			t.Errorf("cut message is not JSON: %q -> %q", in, out)
		}
	})
}
