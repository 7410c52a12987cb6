package normalizers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCaseConversions(t *testing.T) {
	tests := []struct{ in, camel, snake string }{
		{"resource_type", "resourceType", "resource_type"},
		{"resource-type", "resourceType", "resource_type"},
		{"resourceType", "resourceType", "resource_type"},
		{"HTTPRoute", "HTTPRoute", "http_route"},
		{"podIP", "podIP", "pod_ip"},
		{"v2_api", "v2Api", "v2_api"},
		{"__typename", "__typename", "__typename"},
		{"a__b", "a__b", "a__b"},
		{"trailing_", "trailing_", "trailing_"},
		{"http.status_code", "http.status_code", "http.status_code"},
		{"", "", ""},
	}
	for _, tc := range tests {
		got := [2]string{toCamel(tc.in), toSnake(tc.in)}
		if diff := cmp.Diff([2]string{tc.camel, tc.snake}, got); diff != "" {
			t.Errorf("%q: (-want +got):\n%s", tc.in, diff)
		}
	}
}
