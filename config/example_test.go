package config_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpfleet/mcpfleet/config"
)

func ExampleLoad() {
	dir, err := os.MkdirTemp("", "fleet")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "fleet.yaml")
	doc := `servers:
  - name: k8s-1
    kind: kubernetes
    command: kubernetes-mcp-server
    args: ["--read-only"]
  - name: gitlab-a
    kind: gitlab
    url: https://gitlab-a.example/mcp
    headers: {Authorization: "Bearer ${EXAMPLE_GITLAB_TOKEN:-unset}"}
kind_settings:
  kubernetes:
    args_transformer: [camelCase, singularResourceType]
`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		panic(err)
	}
	fleet, err := config.Load(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range fleet.Redacted().Servers {
		fmt.Println(s.Name, s.KindName(), s.Transport, s.CallTimeout, fleet.Transformers(s.Name), s.Headers)
	}
	// Output:
	// k8s-1 kubernetes stdio 1m0s [camelCase singularResourceType] map[]
	// gitlab-a gitlab http 1m0s [] map[Authorization:[redacted]]
}

func ExampleLoadBytes_problems() {
	doc := `servers:
  - name: k8s-1
    transport: htp
    url: https://k8s-1.example/mcp
    args_transformer: [camelcase]
`
	_, err := config.LoadBytes([]byte(doc), "yaml", "")
	fmt.Println(err)
	// Output:
	// config: 2 problems:
	//   - servers[0] (k8s-1): transport: got "htp", want one of stdio, http, sse (did you mean "http"?)
	//   - servers[0] (k8s-1): args_transformer: got "camelcase", want one of camelCase, snakeCase, joinArrays, splitStrings, singularResourceType, coerceTypes, dropUnknown (did you mean "camelCase"?)
}

// LoadBytesWith reads overrides and ${VAR} from the environment it is
// given, here one a test or an embedding program built, never the process's.
func ExampleLoadBytesWith() {
	doc := `servers:
  - name: gitlab-a
    url: https://gitlab-a.example/mcp
    headers: {Authorization: "Bearer ${GITLAB_TOKEN}"}
reliability:
  queue_timeout: 5s
  breaker: {failures: 3}
`
	fleet, err := config.LoadBytesWith([]byte(doc), "yaml", "", config.LoadOptions{Environ: []string{
		"GITLAB_TOKEN=glpat-example",
		"MCPFLEET_RELIABILITY__BREAKER__COOLDOWN=1m",
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := fleet.Server("gitlab-a")
	r := fleet.Reliability
	fmt.Println(s.Headers["Authorization"])
	fmt.Println(r.QueueTimeout, r.Breaker.Failures, r.Breaker.Cooldown, fleet.NeutralizeOn())
	// Output:
	// Bearer glpat-example
	// 5s 3 1m0s true
}
