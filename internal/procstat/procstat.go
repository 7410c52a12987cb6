package procstat

import (
	"os"
	"strconv"
	"strings"
)

// MiB returns the kB field of /proc/self/status in MiB, or 0.
func MiB(field string) float64 {
	st, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(st)) {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// OpenIn lists what this process's open file descriptors name under dir,
// as /proc/self/fd gives it: a file whose name was removed reads
// "<path> (deleted)". It fails where there is no /proc/self/fd.
func OpenIn(dir string) ([]string, error) {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		target, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err == nil && strings.HasPrefix(target, dir+string(os.PathSeparator)) {
			out = append(out, target)
		}
	}
	return out, nil
}
