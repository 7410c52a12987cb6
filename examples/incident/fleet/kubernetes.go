package fleet

func kubernetesKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
