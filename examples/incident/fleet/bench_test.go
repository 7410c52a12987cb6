package fleet

import "testing"

// BenchmarkPodLog measures building the long crash log that pods_log
// returns on k8s-3 (generated on every call, never cached).
func BenchmarkPodLog(b *testing.B) {
	p := clusterPods(badCluster)[0]
	b.ReportAllocs()
	for b.Loop() {
		_ = podLog(p, false)
	}
}

// BenchmarkNewServer measures building one instance, which renders every
// tool schema: the cost the example pays 23 times at start-up.
func BenchmarkNewServer(b *testing.B) {
	for _, in := range []Instance{{Kind: "kubernetes", Name: "k8s-3"}, {Kind: "gitlab", Name: "gitlab-a-write"}} {
		b.Run(in.Kind, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NewServer(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
