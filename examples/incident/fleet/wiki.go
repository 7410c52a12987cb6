package fleet

// wikiKind is the simulated wiki kind (stub; filled in next).
func wikiKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
