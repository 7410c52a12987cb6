package upstream

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
)

// mcpgoResult decodes data as mcp-go's client does.
func mcpgoResult(data []byte) (*mcp.CallToolResult, error) {
	var r mcp.CallToolResult
	err := json.Unmarshal(data, &r)
	return &r, err
}

// sameAsMCPGo checks that decodeCallToolResult gives what mcp-go gives,
// except the raw structuredContent bytes it leaves out when the value only
// repeats text blocks.
func sameAsMCPGo(t *testing.T, data []byte) {
	t.Helper()
	got, ok := decodeCallToolResult(data)
	want, err := mcpgoResult(data)
	if !ok {
		if err == nil && want.ResultType.IsComplete() && len(want.InputRequests) == 0 && want.RequestState == "" {
			t.Errorf("declined a result mcp-go decodes: %s", trim(data))
		}
		return
	}
	if err != nil {
		t.Fatalf("decoded a result mcp-go rejects (%v): %s", err, trim(data))
	}
	if got.RawStructuredContent == nil && want.RawStructuredContent != nil {
		if _, shared := got.StructuredContent.(map[string]any); !shared {
			t.Errorf("raw structuredContent dropped for a value that is no shared object: %s", trim(data))
		}
		want.RawStructuredContent = nil
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(mcp.CallToolResult{})); d != "" {
		t.Errorf("%s: (-mcp-go +ours)\n%s", trim(data), d)
	}
}

func trim(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

func TestDecodeCallToolResultMatchesMCPGo(t *testing.T) {
	for _, in := range []string{
		`{"content":[{"type":"text","text":"plain"}]}`,
		`{"content":[{"type":"text","text":"a\nb\t\"q\" \\ \/ \u00e9 \ud83d\ude00 \ud800 x \u0041"}],"isError":true}`,
		"{\"content\":[{\"type\":\"text\",\"text\":\"bad utf8 \xff\xfe here é\"}]}",
		`{"content":[{"type":"text","text":"x","annotations":{"audience":["user"],"priority":0.5},"_meta":{"k":"v"}}],"_meta":{"progressToken":3,"other":{"a":1}}}`,
		`{"content":[{"type":"text","Text":"upper","text":"lower"}]}`,
		`{"content":[{"type":"text","text":"lower","TEXT":"upper"}]}`,
		`{"content":[{"type":"text","text":null}]}`,
		`{"content":[{"type":"text"}]}`,
		`{"content":[{"type":"text","text":12}]}`,
		`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"t"}]}`,
		`{"content":[{"type":"resource","resource":{"uri":"file:///a","text":"r"}}]}`,
		`{"content":[{"type":"nope"}]}`,
		`{"content":[{"text":"no type"}]}`,
		`{"content":[{"type":"text","text":"the text\n"}],"structuredContent":{"content":"the text\n"}}`,
		`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"structuredContent":{"x":"a","y":"b"}}`,
		`{"content":[{"type":"text","text":"\u0041"}],"structuredContent":{"content":"A"}}`,
		`{"content":[{"type":"text","text":"a"}],"structuredContent":{"content":"a","n":12345678901234567891}}`,
		`{"content":[{"type":"text","text":"a"}],"structuredContent":{"content":"b"}}`,
		`{"content":[{"type":"text","text":"a"}],"structuredContent":["a"]}`,
		`{"content":[{"type":"text","text":""}],"structuredContent":{"content":""}}`,
		`{"content":[{"type":"text","text":"a"}],"structuredContent":null}`,
		`{"content":[],"structuredContent":{"a":1.5e300,"b":[true,null]}}`,
		`{"content":[{"type":"text","text":"a"}],"resultType":"input_required","inputRequests":{}}`,
		`{"content":[{"type":"text","text":"a"}],"resultType":"complete"}`,
		`{"content":[{"type":"text","text":"a"}],"requestState":"s"}`,
		`{"content":"not a list"}`,
		`{}`,
	} {
		sameAsMCPGo(t, []byte(in))
	}
}

func FuzzDecodeCallToolResult(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"a\nb\u00e9\ud83d\ude00"}],"structuredContent":{"content":"a\nb\u00e9\ud83d\ude00"}}`,
		`{"content":[{"type":"text","text":"x","annotations":{"priority":1}}],"isError":true,"_meta":{"a":"b"}}`,
		`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}],"structuredContent":{"n":1}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsMCPGo(t, data)
	})
}

func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"a"`, `"a\nb\"\\\/\b\f\r\t"`, `"\u00e9\ud83d\ude00\ud800\udc00\ud800x"`, "\"\xff\xc3(\"", `"\u12"`, `"\x"`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		// unquote gets a string token as encoding/json hands it to an
		// Unmarshaler: no space around it.
		if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
			return
		}
		var want string
		err := json.Unmarshal(s, &want)
		got, ok := unquote(s)
		if err == nil && (!ok || got != want) {
			t.Errorf("unquote(%q) = %q, %v; encoding/json gives %q", s, got, ok, want)
		}
	})
}

// bigLine is a tools/call answer of at least BigResultBytes.
func bigLine(id string) (line, text string) {
	text = strings.Repeat("line of a log, \"quoted\"\n", BigResultBytes/24+1)
	q, _ := json.Marshal(text)
	return `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":` + string(q) +
		`}],"structuredContent":{"content":` + string(q) + `}}}` + "\n", text
}

func TestBigReader(t *testing.T) {
	small := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}` + "\n"
	waited, text := bigLine("7")
	unwaited, _ := bigLine("8")
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", BigResultBytes) + `"}}` + "\n"
	stray := "a log line that is no JSON\n"
	in := small + waited + unwaited + note + stray + `{"jsonrpc":"2.0","id":2,"result":{}}` // no newline at the end
	for _, oneByte := range []bool{false, true} {
		stash := newBigStash()
		stash.wait("int64:7")
		out := readThrough(t, in, oneByte, func(r io.Reader) io.Reader { return newBigReader(r, stash) })
		stub := `{"jsonrpc":"2.0","id":7,"result":{"content":[],"isError":false}}` + "\n"
		want := strings.Replace(in, waited, stub, 1)
		if out != want {
			t.Errorf("oneByte=%v: stream differs from the input with the waited answer replaced (got %d bytes, want %d)", oneByte, len(out), len(want))
		}
		r := stash.done("int64:7")
		if r == nil {
			t.Fatal("the waited answer was not stashed")
		}
		if len(r.Content) != 1 || r.Content[0].(mcp.TextContent).Text != text {
			t.Errorf("stashed content differs from the text sent")
		}
		if sc, ok := r.StructuredContent.(map[string]any); !ok || sc["content"] != text || r.RawStructuredContent != nil {
			t.Errorf("structuredContent = %T, raw %d bytes; want the text, shared, no raw bytes", r.StructuredContent, len(r.RawStructuredContent))
		}
		if stash.done("int64:8") != nil || len(stash.waiting) != 0 {
			t.Errorf("an answer no one waited for was kept: %v", stash.waiting)
		}
	}
}
