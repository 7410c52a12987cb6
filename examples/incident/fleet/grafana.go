package fleet

// grafanaKind is the simulated grafana kind (stub; filled in next).
func grafanaKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
