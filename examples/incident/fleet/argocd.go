package fleet

// argocdKind is the simulated argocd kind (stub; filled in next).
func argocdKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
