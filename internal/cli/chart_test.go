package cli_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// svgBar is a bar read back from the chart: its data attributes and the
// text drawn beside it.
type svgBar struct {
	Tokens int
	Text   []string
}

// readSVG decodes the chart as XML, failing the test if it is not
// well-formed, and returns its bars by view, in order.
func readSVG(t *testing.T, b []byte) (views []string, bars map[string]svgBar) {
	t.Helper()
	bars = map[string]svgBar{}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	var cur string
	var inText bool
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v\n%s", err, b)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = el.Name.Space + " " + el.Name.Local
			}
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch {
			case el.Name.Local == "g" && attr["data-view"] != "":
				n, err := strconv.Atoi(attr["data-tokens"])
				if err != nil {
					t.Fatalf("bar %s: data-tokens %q: %v", attr["data-view"], attr["data-tokens"], err)
				}
				cur = attr["data-view"]
				views = append(views, cur)
				bars[cur] = svgBar{Tokens: n}
			case el.Name.Local == "text":
				inText = true
			}
		case xml.CharData:
			if inText && cur != "" {
				bar := bars[cur]
				bar.Text = append(bar.Text, string(el))
				bars[cur] = bar
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "text":
				inText = false
			case "g":
				cur = ""
			}
		}
	}
	if root != "http://www.w3.org/2000/svg svg" {
		t.Errorf("root element = %q, want svg in the SVG namespace", root)
	}
	return views, bars
}

// TestTokensSVG: --svg writes a well-formed chart whose bars carry, and
// print, exactly the figures --json reports for the same fleet.
func TestTokensSVG(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	svg := filepath.Join(t.TempDir(), "tokens.svg")
	r := run(t, nil, "", "tokens", "--json", "--config", cfg, "--servers", "k8s-1,prometheus-a", "--svg", svg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("--json with --svg: %v\n%s", err, r.stdout)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	views, bars := readSVG(t, b)
	wantViews := []string{"full_tokens", "kinds_tokens", "orchestrator_tokens", "subagent_tokens", "gateway_tokens"}
	if diff := cmp.Diff(wantViews, views); diff != "" {
		t.Fatalf("bars (-want +got):\n%s", diff)
	}
	full := int(rep["full_tokens"].(float64))
	for _, v := range views {
		want := int(rep[v].(float64))
		if want <= 0 {
			t.Errorf("%s = %d in --json: nothing to draw", v, want)
		}
		if bars[v].Tokens != want {
			t.Errorf("bar %s: data-tokens %d, --json says %d", v, bars[v].Tokens, want)
		}
		label := strings.Join(bars[v].Text, "|")
		if shown := commas(want); !strings.Contains(label, shown+" (") {
			t.Errorf("bar %s prints %q, want the figure %s", v, label, shown)
		}
		ratio := strconv.Itoa(int(float64(full)/float64(want)+0.5)) + "×"
		if !strings.Contains(strings.ReplaceAll(label, ",", ""), "("+ratio+")") {
			t.Errorf("bar %s prints %q, want the ratio %s", v, label, ratio)
		}
	}
	// The text table names the gateway row too, with the same figure.
	r = run(t, nil, "", "tokens", "--config", cfg)
	if want := "gateway: mcpfleet serve's own tools"; !strings.Contains(r.stdout, want) ||
		!strings.Contains(r.stdout, strconv.Itoa(int(rep["gateway_tokens"].(float64)))) {
		t.Errorf("text table lacks %q with the --json figure:\n%s", want, r.stdout)
	}
}

// TestTokensSVGWithoutSlice: without --servers the chart has no slice bar,
// and a folder that does not exist is an error that names the path.
func TestTokensSVGWithoutSlice(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	svg := filepath.Join(t.TempDir(), "tokens.svg")
	if r := run(t, nil, "", "tokens", "--config", cfg, "--svg", svg); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	views, _ := readSVG(t, b)
	if diff := cmp.Diff([]string{"full_tokens", "kinds_tokens", "orchestrator_tokens", "gateway_tokens"}, views); diff != "" {
		t.Errorf("bars (-want +got):\n%s", diff)
	}
	missing := filepath.Join(t.TempDir(), "nope", "tokens.svg")
	r := run(t, nil, "", "tokens", "--config", cfg, "--svg", missing)
	if r.code != 1 || !strings.Contains(r.stderr, missing) {
		t.Errorf("exit %d, stderr %q: want 1 and the path named", r.code, r.stderr)
	}
}

// commas renders n as the chart does, independently of its code.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
