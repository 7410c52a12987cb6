package search

// keeper keeps the best n candidates pushed into it, in better's order:
// a min-heap of the best n seen, so that a broad request over 10,000
// tools neither stores nor compares every tool it touches more than
// once. It gives what topN gives over the same candidates.
type keeper struct {
	n int
	h []candidate
}

func newKeeper(n int) *keeper {
	return &keeper{n: n, h: make([]candidate, 0, max(n, 0))}
}

// beats is better on candidates, without the generic key calls.
func (c candidate) beats(o candidate) bool {
	if c.score != o.score {
		return c.score > o.score
	}
	return c.doc < o.doc
}

// takes reports whether push would keep a candidate scored s. It inlines
// where push does not: most candidates of a broad request are worse
// than the worst kept, and are turned away without a call.
func (k *keeper) takes(s scored) bool {
	if len(k.h) < k.n {
		return true
	}
	if k.n == 0 {
		return false
	}
	w := k.h[0].scored // the worst kept
	return s.score > w.score || s.score == w.score && s.doc < w.doc
}

func (k *keeper) push(c candidate) {
	if len(k.h) < k.n {
		k.h = append(k.h, c)
		if len(k.h) == k.n {
			for i := k.n/2 - 1; i >= 0; i-- {
				k.down(i)
			}
		}
		return
	}
	if k.n > 0 && c.beats(k.h[0]) { // h[0] is the worst kept
		k.h[0] = c
		k.down(0)
	}
}

func (k *keeper) down(i int) {
	h, n := k.h, len(k.h)
	for {
		w, l, r := i, 2*i+1, 2*i+2
		if l < n && h[w].beats(h[l]) {
			w = l
		}
		if r < n && h[w].beats(h[r]) {
			w = r
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

// best returns the kept candidates, best first.
func (k *keeper) best() []candidate {
	sortRanked(k.h)
	return k.h
}
