package fleet

// statuspageKind is the simulated statuspage kind (stub; filled in next).
func statuspageKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
