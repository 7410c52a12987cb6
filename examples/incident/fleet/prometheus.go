package fleet

func prometheusKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
