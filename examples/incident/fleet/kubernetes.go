package fleet

func kubernetesKind() kindSpec {
	return kindSpec{Tools: kubernetesTools}
}
