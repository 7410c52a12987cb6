package fleet

// pagerdutyKind is the simulated pagerduty kind (stub; filled in next).
func pagerdutyKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
