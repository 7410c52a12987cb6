package fleet

// alertmanagerKind is the simulated alertmanager kind (stub; filled in next).
func alertmanagerKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
