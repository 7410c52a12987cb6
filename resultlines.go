package mcpfleet

import (
	"context"
	"errors"
	"strings"

	"github.com/mcpfleet/mcpfleet/internal/offload"
)

// LineReader is an optional interface of a [ResultStore] that keeps
// results in pieces, as stores/redisstore does. With it, ReadResult
// fetches only the lines it returns, and GrepResult scans the text a
// batch of lines at a time, instead of each getting the whole text with
// Get: a page of a 50 MB result then costs a page, and a grep holds one
// batch at a time.
//
// ReadLines returns the result stored under handle with Text holding only
// lines [from, from+n) of its text (from counts from 0): whole lines, each
// with its newline except perhaps the text's last, and "" past the end. It
// also returns the line count of the whole text, counted as a last line
// without a newline counts. Its errors are Get's: an unknown or expired
// handle matches ErrResultNotFound. The Owner check is the Mux's, as for
// Get.
type LineReader interface {
	ReadLines(ctx context.Context, handle string, from, n int) (sr StoredResult, lines int, err error)
}

// grepBatchLines is how many lines GrepResult asks a LineReader for at a
// time.
const grepBatchLines = 4096

// nearBytes bounds the results a Mux keeps in memory, in front of a
// store given with WithResultStore, of those it stored itself.
const nearBytes = 64 << 20

// local looks handle up in the stores of this process, first the results
// it stored in a shared store (m.near), then the default store: the
// result, and its file when it is spilled. ok is false when neither kind
// of store is in use and the store given with WithResultStore must be
// asked. Results never change once stored, so the replica that stored one
// reads it without a round trip.
func (m *Mux) local(handle string) (sr StoredResult, f *offload.File, ok bool, err error) {
	if m.near != nil {
		if sr, f, err := m.near.lookup(handle); err == nil {
			return sr, f, true, nil
		}
	}
	if ms, isMem := m.store.(*MemoryStore); isMem {
		sr, f, err := ms.lookup(handle)
		return sr, f, true, err
	}
	return StoredResult{}, nil, false, nil
}

// readPage returns lines [offset, offset+limit) of a stored result, as
// offload.Read bounds them, after the owner check.
func (m *Mux) readPage(ctx context.Context, handle string, offset, limit int) (StoredResult, offload.Page, error) {
	h := strings.TrimSpace(handle)
	if sr, f, ok, err := m.local(h); ok {
		if sr, err = m.owned(ctx, handle, sr, err); err != nil {
			return StoredResult{}, offload.Page{}, err
		}
		if f == nil {
			return sr, offload.Read(sr.Text, offset, limit), nil
		}
		p, err := f.Read(offset, limit)
		if err != nil {
			return StoredResult{}, offload.Page{}, m.spillErr(ctx, handle, err)
		}
		return sr, p, nil
	}
	lr, _ := m.store.(LineReader)
	if lr == nil {
		sr, err := m.stored(ctx, handle)
		if err != nil {
			return StoredResult{}, offload.Page{}, err
		}
		return sr, offload.Read(sr.Text, offset, limit), nil
	}
	offset = max(offset, 0)
	if limit <= 0 || limit > offload.MaxReadLines {
		limit = offload.MaxReadLines
	}
	sr, total, err := lr.ReadLines(ctx, h, offset, limit)
	if sr, err = m.owned(ctx, handle, sr, err); err != nil {
		return StoredResult{}, offload.Page{}, err
	}
	p := offload.Read(sr.Text, 0, limit)
	p.From, p.To, p.TotalLines = offset+1, offset+p.To, total
	return sr, p, nil
}

// grepStored searches a stored result, after the owner check.
func (m *Mux) grepStored(ctx context.Context, handle, pattern string, context int) (StoredResult, offload.Grep, error) {
	h := strings.TrimSpace(handle)
	if sr, f, ok, err := m.local(h); ok {
		if sr, err = m.owned(ctx, handle, sr, err); err != nil {
			return StoredResult{}, offload.Grep{}, err
		}
		var g offload.Grep
		if f == nil {
			g, err = offload.Search(sr.Text, pattern, context)
		} else {
			g, err = f.Search(pattern, context)
		}
		var pe *offload.PatternError
		switch {
		case errors.As(err, &pe):
			return StoredResult{}, offload.Grep{}, badPattern(err)
		case err != nil:
			return StoredResult{}, offload.Grep{}, m.spillErr(ctx, handle, err)
		}
		return sr, g, nil
	}
	lr, _ := m.store.(LineReader)
	if lr == nil {
		sr, err := m.stored(ctx, handle)
		if err != nil {
			return StoredResult{}, offload.Grep{}, err
		}
		g, err := offload.Search(sr.Text, pattern, context)
		if err != nil {
			return StoredResult{}, offload.Grep{}, badPattern(err)
		}
		return sr, g, nil
	}
	sr, total, err := lr.ReadLines(ctx, h, 0, grepBatchLines)
	if sr, err = m.owned(ctx, handle, sr, err); err != nil {
		return StoredResult{}, offload.Grep{}, err
	}
	s, err := offload.NewSearcher(pattern, context)
	if err != nil {
		return StoredResult{}, offload.Grep{}, badPattern(err)
	}
	s.Feed(sr.Text)
	for from := grepBatchLines; from < total; from += grepBatchLines {
		next, _, err := lr.ReadLines(ctx, h, from, grepBatchLines)
		if next, err = m.owned(ctx, handle, next, err); err != nil {
			return StoredResult{}, offload.Grep{}, err
		}
		s.Feed(next.Text)
	}
	sr.Text = ""
	return sr, s.Result(), nil
}

// spillErr reports a failed read of a spilled result: as an unknown
// handle when the result was evicted while it was read, else as it is.
func (m *Mux) spillErr(ctx context.Context, handle string, err error) error {
	_, err = m.owned(ctx, handle, StoredResult{}, spillErr(err))
	return err
}
